"""Options declared once, as data: each option or argument of a query (its type, help, metavar, choices or range,
and the parser that turns what was typed into the request's value), the flags every command shares, and the one
parser of numbers and ranges ("5", "4-6"). The command line builds its typer options from them
(pipeline.cli.options), the teacher's page its form, and docs/cli.md documents each (tests/test_docs.py).

A query's request is a frozen dataclass whose fields are declared with `option(...)`: `fields_of(Request)` reads
them back as Fields. This module imports nothing heavy (every command's start reads it)."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from pipeline.core.errors import WordstatsError, about

TERMINAL_LIMIT = 50  # rows a listing prints to the terminal unless --limit says otherwise
MAX_LIMIT = 10_000_000
MAX_SAMPLE = 1_000_000
MAX_SEED = 2**63 - 1
MAX_LENGTH = 45  # the longest word a lexicon keeps (ingest drops longer entries as too_long)


@dataclass(frozen=True)
class Field:
    """One option or argument: the request's attribute `name`, its type, what it does (help), what it takes
    (metavar), its choices or range, its parser, and its words on a form (label, group, each choice's words)."""

    name: str
    kind: type
    help: str
    label: str = ""
    group: str = ""  # where a form puts it: words, school, phonics, puzzle, pick, sheet
    metavar: str = ""
    choices: tuple[str, ...] = ()
    choice_words: dict[str, str] = field(default_factory=dict)  # plain words for a choice, on a form
    lo: float | None = None
    hi: float | None = None
    option: str = ""  # the command-line option when it is not --name (count → --sample)
    short: str = ""  # a one-letter form: -n
    check: Callable[[Any], Any] | None = None  # raises a one-line WordstatsError for a bad value
    parse: Callable[[Any], Any] | None = None  # the value given → the request's value (raising a one-line error)
    show: Callable[[Any], str] = str  # the request's value → the text that gives it again (a form's, a query's)
    negatable: bool = False  # a flag with a --no- form (--blanks/--no-blanks)
    suggest: tuple[str, ...] = ()  # values a form offers for a free-text field (its check allows others too)
    argument: bool = False  # a positional argument, named by its metavar
    optional: bool = False  # an argument that may be left out
    required: bool = False  # an option that must be given
    many: bool = False  # may be given several times (an argument: any number of values)
    batch: str = ""  # what its items are called when '-' reads them from standard input (racks, words)
    default: Any = None
    envvar: str = ""
    eager_range: bool = True  # whole numbers: the command line checks the range itself (typer's IntRange)
    hint: str = ""  # what it does in a teacher's words, on a form, where `help` speaks the command line's

    @property
    def flag(self) -> str:
        """The command-line option: --min-zipf for min_zipf, or its own name."""
        return self.option or "--" + self.name.replace("_", "-")

    @property
    def switch(self) -> bool:
        """Whether it is an on/off flag given bare (--common): absent means "as the preset says"."""
        return self.kind is bool and not self.negatable

    def validate(self, value: Any) -> Any:
        """The value, checked: its type, one of its choices, within its range, and its own check."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise about(self.name, f": expected true or false, got {value!r}", self.flag)
            return value
        if self.kind in (int, float) and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise about(self.name, f" {value!r}: expected a number", self.flag)
        if self.kind is float and not math.isfinite(value):
            raise about(self.name, f" {value!r}: expected a finite number", self.flag)
        if self.kind is int and not float(value).is_integer():
            raise about(self.name, f" {value!r}: expected a whole number", self.flag)
        if self.choices:  # a choice's name in any case, as its canonical spelling
            canonical = {c.lower(): c for c in self.choices}
            if str(value).lower() not in canonical:
                raise about(self.name, f" {value!r}: choose {either(self.choices)}", self.flag)
            value = type(value)(canonical[str(value).lower()]) if isinstance(value, str) else value
        if self.lo is not None and value < self.lo or self.hi is not None and value > self.hi:
            raise about(self.name, f" {value}: {self.range_words()}", self.flag)
        if self.check is not None:
            self.check(value)
        return value

    def range_words(self) -> str:
        """The allowed range in words."""
        if self.lo is not None and self.hi is not None:
            return f"must be between {self.lo:g} and {self.hi:g}"
        return f"must be at least {self.lo:g}" if self.lo is not None else f"must be at most {self.hi:g}"

    def value(self, given: Any) -> Any:
        """What a request holds for the value given (None: not given): checked (each item of several), then
        parsed by the Field's parser."""
        if given is None:
            return None
        if self.kind is bool:
            return self.validate(given)
        if isinstance(given, (list, tuple)):  # checked, a choice in its canonical spelling
            given = type(given)(self.validate(item) for item in given)
        else:
            given = self.validate(given)
        return self.parse(given) if self.parse is not None else given

    def named(self, name: str) -> Field:
        """This field for the request attribute `name` (the option stays the same)."""
        return dataclasses.replace(self, name=name, option=self.flag)


def either(choices: tuple[str, ...]) -> str:
    """Choices in words: "easy, medium or hard"."""
    return ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else "".join(choices)


def option(about: Field | None = None, /, **declared: Any) -> Any:
    """A request dataclass field declared with its option's words: option(help=..., kind=str, metavar=...), or a
    shared Field as it is (option(LENGTH)). Its default is the Field's (an empty tuple for several values)."""
    if about is None:
        about = Field(name="", **declared)
    elif declared:
        about = dataclasses.replace(about, **declared)
    if about.required:  # an option that must be given: so must the request's value
        return dataclasses.field(metadata={"field": about})
    default = () if about.many and about.default is None else about.default  # several values: none given
    return dataclasses.field(default=default, metadata={"field": about})


def fields_of(request: type) -> tuple[Field, ...]:
    """The Fields of a request dataclass, in order, each declared with option(...) and named for its attribute."""
    out = []
    for f in dataclasses.fields(request):
        about = f.metadata.get("field")
        if about is not None:
            out.append(dataclasses.replace(about, name=f.name, option=about.option or "--" + f.name.replace("_", "-")))
    return tuple(out)


# ---- numbers and ranges ------------------------------------------------------------------------------------


RANGE_RE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?")


def request_of(request: type, given: dict[str, Any]) -> Any:
    """The request of the values a client was given by field name (a form's, say), each checked and parsed by its
    Field as the command line's are; a value not given (None) leaves the request's default."""
    return request(**{f.name: f.value(given[f.name]) for f in fields_of(request) if given.get(f.name) is not None})


def parse_range(text: str, field: str, lo: int = 1, hi: int | None = None, what: str = "numbers") -> tuple[int, int]:
    """A whole number "5" or a range "4-6" from `lo` to `hi` as (low, high); a one-line error naming the request's
    field for anything else."""
    match = RANGE_RE.fullmatch(str(text))
    if not match:
        raise about(field, f' {text!r}: give a number such as "{lo + 1}" or a range such as "{lo}-{lo + 2}"')
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) else low
    if low > high:
        raise about(field, f" {text!r}: the range is backwards (the smaller number first: {high}-{low})")
    if low < lo or (hi is not None and high > hi):
        upto = f" to {hi}" if hi is not None else " up"
        raise about(field, f" {text!r}: {what} run from {lo}{upto}")
    return low, high


@overload
def parse_length(text: str, field: str = ...) -> tuple[int, int]: ...
@overload
def parse_length(text: None, field: str = ...) -> None: ...
@overload
def parse_length(text: str | None, field: str = ...) -> tuple[int, int] | None: ...
def parse_length(text: str | None, field: str = "length") -> tuple[int, int] | None:
    """A length "5" or "4-6" as (shortest, longest), from 1 to MAX_LENGTH letters; None when not given."""
    if text is None:
        return None
    return parse_range(text, field, 1, MAX_LENGTH, "lengths")


def check_number(value: float | None, field: str, lo: float, hi: float) -> float | None:
    """A number field within [lo, hi]; nan and infinities refused."""
    if value is None:
        return None
    if not math.isfinite(value) or not lo <= value <= hi:
        raise about(field, f" {value!r}: expected a number from {lo:g} to {hi:g}")
    return value


def is_loopback(host: str) -> bool:
    """Whether a host given as an address (--host, --ray HOST:PORT) names this machine's loopback interface."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def choose_format(as_json: bool, as_csv: bool) -> str:
    """The output format from the --json / --csv flags: json, csv or table."""
    if as_json and as_csv:
        raise WordstatsError("choose one of --json and --csv")
    return "json" if as_json else "csv" if as_csv else "table"


def limit_for(limit: int | None, fmt: str) -> int | None:
    """The number of rows to show: --limit N (0 = all), else TERMINAL_LIMIT for a table and all otherwise."""
    if limit is None:
        return TERMINAL_LIMIT if fmt == "table" else None
    return None if limit == 0 else limit


# ---- the flags every command shares, declared once -----------------------------------------------------------


CONFIG = Field(
    "config", Path, "Config file (default: configs/default.toml).", envvar="WORDSTATS_CONFIG", metavar="FILE"
)
DATA_DIR = Field(
    "data_dir",
    Path,
    "Where outputs live (default: $WORDSTATS_DATA, else data/out of the config's project).",
    metavar="DIR",
)
LEXICON = Field("lexicon", str, "Lexicon name (default: the config's).", metavar="NAME", short="-l")
JSON_LIST = Field("as_json", bool, "Print a JSON array of objects (one per row).", option="--json")
JSON_OBJECT = Field("as_json", bool, "Print one JSON object.", option="--json")
CSV = Field("as_csv", bool, "Print CSV (one header line, then one line per row).", option="--csv")
LIMIT = Field(
    "limit",
    int,
    f"At most N rows (0 = all; default {TERMINAL_LIMIT} in the terminal, all with --json/--csv/--out).",
    metavar="N",
    short="-n",
    lo=0,
    hi=MAX_LIMIT,
)
SAMPLE = Field("sample", int, "Pick N at random (reproducible with --seed).", lo=1, hi=MAX_SAMPLE)
SEED = Field("seed", int, "Seed of the random pick (default 0).", lo=0, hi=MAX_SEED)
OUT = Field("out", Path, "Write the result to FILE (refuses to overwrite without --force).", metavar="FILE")
FORCE = Field("force", bool, "With --out, replace an existing file.", default=False)
LENGTH = Field("length", str, 'Word length: "5" or a range "4-6".', metavar="N|A-B", parse=parse_length)
QUIET = Field("quiet", bool, "No progress bars.", short="-q", envvar="WORDSTATS_QUIET", default=False)
RAY = Field(
    "ray",
    str,
    "Run the job's shards on Ray: a bare --ray starts a private local instance, auto joins this machine's cluster, "
    "HOST:PORT joins that head (default: the config's [cluster] address, else this machine).",
    metavar="[ADDRESS]",
)
SHARD_SIZE = Field("shard_size", int, "Items per shard of the job (boards, runs, games).", lo=1, hi=100_000_000)
