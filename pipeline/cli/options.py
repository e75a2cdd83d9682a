"""The CLI's one vocabulary: option types every command shares, and the helpers that check their values.

--limit N (listings; 0 = all), --sample N --seed S (random picks), --out PATH --force (files),
--length 5 or 4-6, --json (help says array or object), --csv, case-insensitive names with "did you mean"."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.core.errors import WordstatsError, pick, unknown  # noqa: F401  (the CLI's name look-ups)
from pipeline.core.outputs import check_out  # noqa: F401  (the guard of every file a command writes)

TERMINAL_LIMIT = 50  # rows a listing prints to the terminal unless --limit says otherwise
MAX_LIMIT = 10_000_000
MAX_SAMPLE = 1_000_000
MAX_SEED = 2**63 - 1
MAX_LENGTH = 45  # the longest word a lexicon keeps (ingest drops longer entries as too_long)

LimitOpt = Annotated[
    Optional[int],
    typer.Option(
        "--limit",
        "-n",
        help=f"At most N rows (0 = all; default {TERMINAL_LIMIT} in the terminal, all with --json/--csv/--out).",
        min=0,
        max=MAX_LIMIT,
        metavar="N",
        show_default=False,
    ),
]
SampleOpt = Annotated[
    Optional[int],
    typer.Option(
        "--sample", help="Pick N at random (reproducible with --seed).", min=1, max=MAX_SAMPLE, show_default=False
    ),
]
SeedOpt = Annotated[
    Optional[int],
    typer.Option("--seed", help="Seed of the random pick (default 0).", min=0, max=MAX_SEED, show_default=False),
]
OutOpt = Annotated[
    Optional[Path],
    typer.Option("--out", help="Write the result to FILE (refuses to overwrite without --force).", metavar="FILE"),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="With --out, replace an existing file.")]
LengthOpt = Annotated[
    Optional[str],
    typer.Option("--length", help='Word length: "5" or a range "4-6".', metavar="N|A-B", show_default=False),
]
JsonListOpt = Annotated[bool, typer.Option("--json", help="Print a JSON array of objects (one per row).")]
JsonObjectOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
CsvOpt = Annotated[bool, typer.Option("--csv", help="Print CSV (one header line, then one line per row).")]


def choose_format(as_json: bool, as_csv: bool) -> str:
    """The output format from the --json / --csv flags: json, csv or table."""
    if as_json and as_csv:
        raise WordstatsError("choose one of --json and --csv")
    return "json" if as_json else "csv" if as_csv else "table"


def limit_for(limit: Optional[int], fmt: str) -> Optional[int]:
    """The number of rows to show: --limit N (0 = all), else TERMINAL_LIMIT for a table and all otherwise."""
    if limit is None:
        return TERMINAL_LIMIT if fmt == "table" else None
    return None if limit == 0 else limit


def parse_length(text: Optional[str], what: str = "--length") -> Optional[tuple[int, int]]:
    """--length "5" or "4-6" as (shortest, longest); a one-line error for anything else."""
    if text is None:
        return None
    parts = text.strip().split("-")
    if len(parts) in (1, 2) and all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        lo, hi = int(parts[0]), int(parts[-1])
        if not 1 <= lo <= hi <= MAX_LENGTH:
            raise WordstatsError(f"{what} {text!r}: lengths run from 1 to {MAX_LENGTH}, shortest first")
        return lo, hi
    raise WordstatsError(f'{what} {text!r}: give a length such as "5" or a range such as "4-6"')


def check_number(value: Optional[float], what: str, lo: float, hi: float) -> Optional[float]:
    """A number option within [lo, hi]; nan and infinities refused."""
    if value is None:
        return None
    if not math.isfinite(value) or not lo <= value <= hi:
        raise WordstatsError(f"{what} {value!r}: expected a number from {lo:g} to {hi:g}")
    return value


def plural(n: int, noun: str, plural_noun: Optional[str] = None) -> str:
    """'1 word', '2 words', '1,000 boxes' (with `plural_noun` for irregular plurals)."""
    if n == 1:
        return f"1 {noun}"
    many = plural_noun or (noun + "es" if noun.endswith(("s", "x", "ch", "sh")) else noun + "s")
    return f"{n:,} {many}"
