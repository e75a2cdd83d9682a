"""The playability reference table (`make playability-reference`: data/raw/playability-enable.parquet): per word
and half of the games, the integer sums of the playability job (thousandths of a point lost, turns) over games
1..N of one seeded run, grown a block of games at a time towards a target number of games.

A block plays games N+1..M as a job of its own; game k's random stream comes from the seed, the variant and k
alone and the sums are integers, so a table grown block by block holds the same bytes as one played at once.
The footer records the games done and the target (a table short of its target is partial), the seed, the
digests of the leave values and words it was played with, the stability of its ranking and the command."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError
from pipeline.core.jobs import words_digest
from pipeline.ingest.playability import REFERENCE_STAGE, covered, playability_table, reference_file
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.playability.job import LOSSES_SCHEMA, merge_parts
from pipeline.scrabble.playability.table import stability

REFERENCE_BLOCK = 20_000  # games per block: the table's games done are a multiple of it until the target
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
    table_words: str = ""  # digest of every word of the words table (what pipeline.ingest.playability.covered compares)

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
    """The table with a block's losses (games ref.games+1..games) added: integer sums per word and half."""
    losses = merge_parts("losses", pl.concat([ref.losses, block.cast(LOSSES_SCHEMA)]))  # type: ignore[arg-type]
    return replace(ref, losses=losses, games=games)


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
    """A reference table with its footer; a one-line error naming the file when it is not one."""
    losses, meta = reference_file(path)
    if dict(losses.schema) != LOSSES_SCHEMA:
        raise WordstatsError(f"{path}: not a playability reference table (columns {dict(losses.schema)})")
    try:
        p, inputs = meta["params"], meta["inputs"]
        keys = (meta["lexicon"], p["variant"], int(p["seed"]), inputs["leaves"], inputs["words"])
        return Reference(losses, *keys, int(p["games"]), int(p["target"]), inputs["table_words"])
    except (KeyError, TypeError, ValueError) as exc:
        raise WordstatsError(f"{path}: not a playability reference table (its footer lacks {exc})") from None


def write_reference(path: Path, ref: Reference) -> None:
    """Write the table atomically with its footer."""
    from pipeline.core.files import write_parquet

    write_parquet(path, ref.losses, ref.provenance())


def covers(ref: Reference, words: list[str]) -> bool:
    """Whether the table was played on a words table of exactly these words."""
    return covered({"inputs": {"table_words": ref.table_words}}, words)


def stored_stability(path: Path) -> dict[str, Any]:
    """The stability figure a table's footer records."""
    import json

    from pipeline.core.files import read_provenance

    return json.loads(read_provenance(path)["stability"])
