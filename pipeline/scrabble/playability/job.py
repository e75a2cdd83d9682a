"""The playability job: seeded self-play games between two equity players, a block of game numbers per shard; each
shard returns, per word and half of the games (odd or even game numbers), the thousandths of a point lost without
it and the turns whose best move formed it (losses.py).

Game k's random stream comes from the seed, the variant and k alone (the self-play job's), and shards merge as
integer sums sorted by word and half, so the table is the same for any shard size, engine or number of workers."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass

import polars as pl

from pipeline.core.jobs import Job, Parts, Shard, words_digest
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.play.turns import game_rng
from pipeline.scrabble.playability.losses import measured_game, milli
from pipeline.scrabble.rules.variant import Variant, variant_params

PLAYABILITY_SHARD = 20  # games per shard (a few seconds on one core)
HALVES = 2  # the games split by game number: odd ones (half 1) and even ones (half 0)
LOSSES_SCHEMA = {"word": pl.String, "half": pl.Int8, "milli": pl.Int64, "turns": pl.Int64}
CPU_SCHEMA = {"shard": pl.Int64, "games": pl.Int64, "seconds": pl.Float64}  # each shard's CPU, where it ran


@dataclass(frozen=True)
class Measuring:
    """What a shard reads: the variant, the lexicon with its GADDAG, the seed, the players' leave values and the
    games before the job's first (a block of a longer run starts after them)."""

    variant: Variant
    lexicon: Lexicon
    seed: int
    leaves: LeaveValues
    before: int = 0


def half_of(game: int) -> int:
    """Which half of the games game number `game` belongs to."""
    return game % HALVES


def playability_work(shard: Shard, p: Measuring) -> Parts:
    """Games before+start+1..before+stop: per word and half, the thousandths of a point lost and the turns it was
    needed; and the CPU seconds the shard took in the process that ran it."""
    started = time.process_time()
    lost: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for number in range(p.before + shard.start + 1, p.before + shard.stop + 1):
        _, turns = measured_game(p.variant, p.lexicon, game_rng(p.seed, p.variant.name, number), p.leaves)
        for turn in turns:
            for word, loss in turn.losses.items():
                entry = lost[word, half_of(number)]
                entry[0] += milli(loss)
                entry[1] += 1
    rows = sorted((word, half, m, t) for (word, half), (m, t) in lost.items())
    losses = pl.DataFrame(rows, schema=LOSSES_SCHEMA, orient="row")
    cpu = pl.DataFrame(
        {"shard": [shard.index], "games": [shard.size], "seconds": [time.process_time() - started]}, schema=CPU_SCHEMA
    )
    return {"losses": losses, "cpu": cpu}


def merge_losses(part: str, frames: pl.DataFrame) -> pl.DataFrame:
    """Shards' losses as one table: sums per word and half (integers, so any grouping gives the same bytes)."""
    return (
        frames.group_by("word", "half")
        .agg(pl.col("milli").sum(), pl.col("turns").sum())
        .sort("word", "half")
        .cast(LOSSES_SCHEMA)  # type: ignore[arg-type]
    )


def merge_parts(part: str, frames: pl.DataFrame) -> pl.DataFrame:
    """The losses summed per word and half; the shards' CPU rows kept in shard order."""
    return merge_losses(part, frames) if part == "losses" else frames


def playability_job(
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveValues,
    seed: int,
    games: int,
    shard_size: int = PLAYABILITY_SHARD,
    before: int = 0,
) -> Job:
    """Games before+1..before+games of a seeded run between two equity players with these leave values, measured
    word by word (a whole run from game 1, or a block of a longer one)."""
    _ = lexicon.gaddag, leaves.arrays  # made once here, shipped to every worker
    params = {
        "variant": variant_params(variant),
        "seed": seed,
        "before": before,
        "games": games,
        "leaves": leaves.digest(),
        "words": words_digest(sorted(lexicon.words)),
    }
    return Job(
        "scrabble-playability",
        params,
        games,
        shard_size,
        seed,
        playability_work,
        ("losses", "cpu"),
        Measuring(variant, lexicon, seed, leaves, before),
        merge=merge_parts,
        unit="games",
    )
