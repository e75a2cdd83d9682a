"""What the Boggle use cases take (pipeline/boggle/api.py re-exports them): frozen requests whose fields are
declared with their options (pipeline/core/fields.py `option`), each value parsed once, when the request is made
(a board size as (rows, cols)). The command line builds its options from them; this module imports nothing heavy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from pipeline.core.fields import (
    FORCE,
    MAX_LENGTH,
    OUT,
    RAY,
    SAMPLE,
    SEED,
    SHARD_SIZE,
    Field,
    check_number,
    option,
)

MAX_LISTED_BOARDS = 1_000_000  # boards `random` lists (16 bytes and a score each); a summary streams up to MAX_BOARDS
MAX_BOARDS = 10**10
MAX_MINUTES = 24 * 60.0
MAX_STEPS = 10**9
BOARD_WORK_BYTES = 16  # a rolled board's score, word count and longest word while a shard scores it
MAX_SCORE = 10**9  # a floor or target score
MAX_RUNS = 10**9
MAX_WORKERS = 1024
BEST_SIZE = (4, 4)  # the board a best-board search looks for unless the request or its dice say
PROOF_BLOCK = 128  # classes per block of a proof table: its classes done are a multiple of it until the last block
MAX_CLASSES = 10**8  # classes in a block, blocks in a run, classes verified


def check_minutes(minutes: float) -> float:
    """A time budget from 0 to MAX_MINUTES minutes (nan and infinities refused)."""
    check_number(minutes, "minutes", 0.0, MAX_MINUTES)
    return minutes


# ---- the options every Boggle request shares ------------------------------------------------------------------


def board_size(text: str) -> tuple[int, int]:
    """A board size written RxC (4x4, 3x5) as (rows, cols): a one-line error for anything else."""
    from pipeline.boggle.rules import parse_size

    return parse_size(text)


class Sized:
    """A request with a board size: given as text (RxC) it holds (rows, cols), parsed once when it is made."""

    size: Any

    def __post_init__(self):
        if isinstance(self.size, str):
            object.__setattr__(self, "size", board_size(self.size))


def size_text(size: tuple[int, int] | None) -> str | None:
    """(rows, cols) as RxC, as a result's provenance records it."""
    return None if size is None else f"{size[0]}x{size[1]}"


SIZE = Field("size", str, "Board size RxC (needed when not square).", metavar="RxC", parse=board_size)
MIN_LENGTH = Field("min_length", int, "Shortest word (default: the variant's).", lo=1, hi=MAX_LENGTH)
VARIANT = Field("variant", str, "Rules: standard (3+ letters) or big (4+); any case.", metavar="[standard|big]")
DICE = Field("dice", str, "Dice set from the config (classic, new, big; any case).", metavar="DICE")


@dataclass(frozen=True)
class SolveRequest(Sized):
    """One board to solve: its cells (or a board file), size, rules, and whether to give each word's path."""

    board: str = option(kind=str, argument=True, help="Cells in row order (PERSLATGSINETERS; Q or Qu) or a board file.")
    paths: bool = option(kind=bool, default=False, help="Show a path of cubes (row,col from 0) for each word.")
    size: Optional[tuple[int, int]] = option(SIZE)
    min_length: Optional[int] = option(MIN_LENGTH)
    variant: Optional[str] = option(VARIANT)


@dataclass(frozen=True)
class ScoreRequest(Sized):
    """Boards to score: cells or board files, their size and rules."""

    boards: tuple[str, ...] = option(
        kind=str, argument=True, many=True, parse=tuple, help="Boards: cells in row order, or Princeton-format files."
    )
    size: Optional[tuple[int, int]] = option(SIZE)
    min_length: Optional[int] = option(MIN_LENGTH)
    variant: Optional[str] = option(VARIANT)


@dataclass(frozen=True)
class RandomRequest:
    """Random boards of a dice set: how many, the seed (None: the stage's for the dice), and whether only
    their statistics are wanted (a sharded job)."""

    dice: str = option(DICE, default="new")
    sample: int = option(
        SAMPLE,
        default=10,
        hi=MAX_BOARDS,
        help=f"How many boards to roll (at most {MAX_LISTED_BOARDS:,} listed; {MAX_BOARDS:,} with --summary).",
    )
    seed: Optional[int] = option(SEED, help="Seed (default: the stage's seed for these dice).")
    summary: bool = option(
        kind=bool,
        default=False,
        help="Only score statistics and boards per second: a sharded job that resumes (data/out/LEXICON/jobs/).",
    )
    min_length: Optional[int] = option(MIN_LENGTH)
    ray: Optional[str] = option(RAY)
    shard_size: Optional[int] = option(SHARD_SIZE)


@dataclass(frozen=True)
class BestRequest(Sized):
    """A best-board search: size, time budget or exact number of runs, seed, dice, annealing steps, rules."""

    size: Optional[tuple[int, int]] = option(
        SIZE, help=f"Board size RxC (default {size_text(BEST_SIZE)}, or the dice's)."
    )
    minutes: float = option(
        kind=float,
        default=1.0,
        check=check_minutes,
        help=f"Time budget of the whole search (above 0, at most {MAX_MINUTES:g}).",
    )
    seed: int = option(SEED, default=1, help="Seed of the search (run k uses stream k).")
    dice: Optional[str] = option(DICE, help="Only boards this dice set can roll.")
    target: Optional[int] = option(kind=int, lo=1, hi=MAX_SCORE, help="Stop once a board scores this much.")
    steps: int = option(kind=int, default=100_000, lo=1, hi=MAX_STEPS, help="Annealing steps per run.")
    runs: Optional[int] = option(
        kind=int,
        lo=1,
        hi=MAX_RUNS,
        help="Exactly N runs instead of a time budget: a sharded job that resumes, the same board on any engine.",
    )
    min_length: Optional[int] = option(MIN_LENGTH)
    variant: Optional[str] = option(VARIANT)
    ray: Optional[str] = option(RAY)
    shard_size: Optional[int] = option(SHARD_SIZE)


@dataclass(frozen=True)
class ProveRequest(Sized):
    """A proof: every board of a size scoring at least `floor`, the letter partition (None: the size's
    default), the rules, where the shards run, and a Parquet file to write the boards to."""

    floor: int = option(
        kind=int, required=True, lo=1, hi=MAX_SCORE, help="Keep every board scoring at least this much."
    )
    size: tuple[int, int] = option(SIZE, default="3x3", help="Board size RxC.")
    classes: Optional[str] = option(
        kind=str,
        metavar="GROUPS",
        help="Letter partition: groups separated by spaces (default: the size's, see docs).",
    )
    one_class: Optional[str] = option(  # prove one class: its id or a board it holds
        kind=str,
        option="--class",
        metavar="ID|BOARD",
        help="Prove one top-level class: its id, or a board it holds (its canonical class is proven).",
    )
    out: Optional[Path] = option(
        OUT, help="Write the boards as Parquet (summary in the footer); refuses to overwrite without --force."
    )
    force: bool = option(
        FORCE, help="With --out, replace an existing file; with --reference, remove its parts and prove it again."
    )
    workers: Optional[int] = option(
        kind=int, lo=1, hi=MAX_WORKERS, help="Local worker processes (default: the CPUs); not with --ray."
    )
    min_length: Optional[int] = option(MIN_LENGTH)
    variant: Optional[str] = option(VARIANT)
    ray: Optional[str] = option(RAY)
    shard_size: Optional[int] = option(
        SHARD_SIZE, help="Top-level classes per shard of the job (default: about 1,024 shards)."
    )
    reference: Optional[Path] = option(
        kind=Path,
        metavar="DIR",
        help="Grow this proof table (a folder of Parquet parts) a block of classes at a time, a part per block.",
    )
    block: Optional[int] = option(
        kind=int, lo=1, hi=MAX_CLASSES, help=f"With --reference: classes per block (default {PROOF_BLOCK})."
    )
    blocks: Optional[int] = option(
        kind=int, lo=1, hi=MAX_CLASSES, help="With --reference: prove at most N blocks now (default: to the end)."
    )
    verify: Optional[int] = option(
        kind=int,
        metavar="K",
        lo=1,
        hi=MAX_CLASSES,
        help="With --reference: prove K seeded random classes of the table again here and compare their rows.",
    )
