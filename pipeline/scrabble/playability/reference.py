"""The playability reference table (`make playability-reference`: data/raw/playability-enable/): per word and half
of the games, the integer sums of the playability job (thousandths of a point lost, turns) over games 1..N of one
seeded run, grown a block of games at a time towards a target number of games.

The table is a parted table (pipeline.core.parts): a folder with one Parquet part per block. A block plays games
N+1..M as a job of its own, and its part holds the block's own sums; its footer is the table as it stood once the
block was added (the games done, M, and the target: a table short of its target is partial; the seed, the
digests of the leave values and words it was played with, the stability of its ranking and the command), so the
last part's footer describes the whole table and part k holds games (part k-1's games)+1 to its own. Game k's
random stream comes from the seed, the variant and k alone and the sums are integers, so the parts summed are
the sums of the games played at once, and the same blocks give the same bytes; a block adds a part and
rewrites none."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core import parts
from pipeline.core.errors import WordstatsError
from pipeline.core.jobs import words_digest
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.playability.job import LOSSES_SCHEMA, merge_parts
from pipeline.scrabble.playability.table import stability
from pipeline.scrabble.requests import REFERENCE_BLOCK
from pipeline.words.playability import REFERENCE_STAGE, covered, playability_table, reference_parts

REFERENCE_TARGET = 1_000_000  # games of the full reference
KEYS = ("lexicon", "variant", "seed", "leaves", "words")  # what a table must share with a run that extends it


@dataclass(frozen=True)
class Reference:
    """The sums over games 1..games of a seeded run towards `target` games, and what it was played with."""

    losses: pl.DataFrame  # word, half, milli, turns (LOSSES_SCHEMA), sorted by word and half
    lexicon: str
    variant: str
    seed: int
    leaves: str  # digest of the leave values (LeaveValues.digest)
    words: str  # digest of the lexicon's sorted playable words, as the jobs hold it (jobs.words_digest)
    games: int
    target: int
    table_words: str = ""  # digest of every word of the words table (what pipeline.words.playability.covered compares)
    stops: tuple[int, ...] = ()  # the games done at the end of each part, in order

    @property
    def partial(self) -> bool:
        """Whether the table is short of its target."""
        return self.games < self.target

    def state(self) -> str:
        """The games done, and whether that is the whole target."""
        done = f"{self.games:,} of {self.target:,} games"
        return f"partial: {done}" if self.partial else f"complete: {done}"

    def table(self, words: list[str]) -> pl.DataFrame:
        """Every word's playability, turns and rank (table.playability_table) from these games."""
        return playability_table(self.losses, words)

    def provenance(self) -> dict[str, Any]:
        """The footer: the run's keys, games done and target, the stability of its ranking, the command."""
        from pipeline import __version__

        steady = stability(self.losses, self.table(self.losses["word"].unique().to_list()))
        return {
            "stage": REFERENCE_STAGE,
            "lexicon": self.lexicon,
            "params": {"variant": self.variant, "seed": self.seed, "games": self.games, "target": self.target},
            "partial": self.partial,
            "inputs": {"leaves": self.leaves, "words": self.words, "table_words": self.table_words},
            "stability": steady.as_dict(),
            "command": command(self.lexicon, self.variant, self.seed, self.target),
            "version": __version__,
            "sorted_by": ["word", "half"],
        }


def command(lexicon: str, variant: str, seed: int, target: int) -> str:
    """The command that grows (or makes again) such a table."""
    return (
        f"wordstats scrabble playability --lexicon {lexicon} --seed {seed} --games {target} --reference FILE "
        f"(variant {variant}: the config's [scrabble.leaves] variant)"
    )


def empty(lexicon: str, variant: str, seed: int, leaves: str, words: list[str], target: int) -> Reference:
    """A table of no games yet, to be played on `words` (every word of the words table)."""
    losses = pl.DataFrame(schema=LOSSES_SCHEMA)
    digests = words_digest(sorted(Lexicon(words).words)), words_digest(sorted(words))
    return Reference(losses, lexicon, variant, seed, leaves, digests[0], 0, target, digests[1])


def grown(ref: Reference, block: pl.DataFrame, games: int) -> Reference:
    """The table with a block's losses (games ref.games+1..games) added as a new part: integer sums per word and
    half."""
    losses = merge_parts("losses", pl.concat([ref.losses, block.cast(LOSSES_SCHEMA)]))  # type: ignore[arg-type]
    return replace(ref, losses=losses, games=games, stops=(*ref.stops, games))


def next_stop(done: int, target: int, block: int = REFERENCE_BLOCK) -> int:
    """Where the block after `done` games ends: the next multiple of the block size, at most the target."""
    return min(target, (done // block + 1) * block)


def mismatch(ref: Reference, wanted: Reference) -> str | None:
    """Why a table cannot be grown by a run with `wanted`'s keys (None when it can)."""
    for key in KEYS:
        if getattr(ref, key) != getattr(wanted, key):
            what = {"leaves": "leave values", "words": "words"}.get(key, key)
            return f"it was played with other {what} ({getattr(ref, key)!s:.16} here, not {getattr(wanted, key)!s:.16})"
    return None


def read_reference(path: Path) -> Reference:
    """The reference table in the folder `path`, its parts checked (each a reference table's part played with
    the first part's keys, each adding games to the one before); a one-line error naming the part otherwise."""
    files, blocks, metas = reference_parts(path)
    ref: Reference | None = None
    for part, block, meta in zip(files, blocks, metas):
        if dict(block.schema) != LOSSES_SCHEMA:
            raise WordstatsError(f"{part}: not a playability reference table's part (columns {dict(block.schema)})")
        try:
            p, inputs = meta["params"], meta["inputs"]
            keys = (meta["lexicon"], p["variant"], int(p["seed"]), inputs["leaves"], inputs["words"])
            found = Reference(block, *keys, int(p["games"]), int(p["target"]), inputs["table_words"])
        except (KeyError, TypeError, ValueError) as exc:
            raise WordstatsError(f"{part}: not a playability reference table's part (its footer lacks {exc})") from None
        if ref is None:
            ref = replace(found, losses=block.clear(), games=0)
        reason = mismatch(found, ref) or (None if found.table_words == ref.table_words else "other table words")
        if reason is not None:
            raise WordstatsError(f"{part}: not a part of the table its first part begins ({reason})")
        if found.games <= ref.games:
            raise WordstatsError(f"{part}: holds games up to {found.games:,}, not beyond the {ref.games:,} before it")
        ref = replace(grown(ref, block, found.games), target=found.target)
    assert ref is not None
    return ref


def write_part(path: Path, ref: Reference, block: pl.DataFrame) -> bool:
    """Add a block's losses as the table's next part, with `ref` (the table once the block is added) in its
    footer: True when written, False when that part exists with the same bytes; a one-line error naming it when
    it exists with other bytes."""
    return parts.append(path, len(ref.stops) - 1, block.cast(LOSSES_SCHEMA), ref.provenance())  # type: ignore[arg-type]


def write_reference(path: Path, ref: Reference) -> None:
    """Write a table of no parts yet as a new folder of one part holding all its games."""
    write_part(path, replace(ref, stops=(ref.games,)), ref.losses)


def check_folder(path: Path) -> None:
    """A one-line error when `path` is a file: a reference table is a folder of parts."""
    if path.exists() and not path.is_dir():
        raise WordstatsError(f"{path}: a playability reference table is a folder of parts (part-NNNNN.parquet)")


def covers(ref: Reference, words: list[str]) -> bool:
    """Whether the table was played on a words table of exactly these words."""
    return covered({"inputs": {"table_words": ref.table_words}}, words)


def stored_stability(path: Path) -> dict[str, Any]:
    """The stability figure the footer of the table's last part records."""
    import json

    return json.loads(reference_parts(path)[2][-1]["stability"])


def reference_blocks(path: Path) -> list[pl.DataFrame]:
    """Each part's own sums: those of its block's games."""
    return reference_parts(path)[1]


def first_difference(stored: pl.DataFrame, again: pl.DataFrame) -> str:
    """Where two blocks' sums (sorted by word and half) first differ, in words."""
    if stored.height != again.height:
        return f"{stored.height:,} rows stored, {again.height:,} played again"
    for have, got in zip(stored.iter_rows(named=True), again.iter_rows(named=True)):
        if have != got:
            return (
                f"{have['word']} half {have['half']}: stored {have['milli']} milli, {have['turns']} turns; played "
                f"again {got['word']} {got['milli']} milli, {got['turns']} turns"
            )
    return "same rows"
