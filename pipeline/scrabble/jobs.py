"""Scrabble's sharded job: seeded self-play games (greedy or by equity), a block of game numbers per shard.

Game k's random stream comes from the seed, the variant and k alone, so the table is the same for any shard
size, engine or number of workers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from pipeline.core.executor import Job, Parts, Shard, words_digest
from pipeline.scrabble.equity_play import LeaveTable
from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.rules.variant import Variant
from pipeline.scrabble.selfplay import SELFPLAY_SCHEMA, GameLog, game_rng, log_row, self_play_log

SELFPLAY_SHARD = 10  # games per shard (a few seconds on one core)
PROCESS_GAMES = 200  # from this many games, the local engine plays in one worker process per core


def local_processes(games: int) -> int | None:
    """Worker processes for the local engine: one per core for long jobs (starting them costs seconds)."""
    import os

    return os.cpu_count() if games >= PROCESS_GAMES else None


@dataclass(frozen=True)
class Playing:
    """What a self-play shard reads: the variant, the lexicon with its GADDAG, the seed, and each player's
    leave values (None: greedy)."""

    variant: Variant
    lexicon: Lexicon
    seed: int
    leaves: tuple[LeaveTable | None, LeaveTable | None] = (None, None)


def selfplay_work(shard: Shard, p: Playing) -> Parts:
    """Games start+1..stop of the variant's seeded sequence, one row each."""
    rows = [
        log_row(play_one(p, game_rng(p.seed, p.variant.name, number)), number, p.variant)
        for number in range(shard.start + 1, shard.stop + 1)
    ]
    return {"games": pl.DataFrame(rows, schema=SELFPLAY_SCHEMA)}


def play_one(p: Playing, rng: np.random.Generator) -> GameLog:
    """One game: greedy self-play, or by equity when a player has leave values."""
    if p.leaves == (None, None):
        return self_play_log(p.variant, p.lexicon, rng)
    from pipeline.scrabble.equity_play import strategy_play_log

    return strategy_play_log(p.variant, p.lexicon, rng, p.leaves)


def variant_params(v: Variant) -> dict:
    """A variant's rules as job parameters."""
    return {
        "name": v.name,
        "layout": list(v.layout),
        "rack_size": v.rack_size,
        "bingo_bonus": v.bingo_bonus,
        "centre_doubles_word": v.centre_doubles_word,
        "values": v.tile_set.values,
        "counts": v.tile_set.counts,
    }


def selfplay_job(
    variant: Variant,
    lexicon: Lexicon,
    seed: int,
    games: int,
    shard_size: int = SELFPLAY_SHARD,
    leaves: tuple[LeaveTable | None, LeaveTable | None] = (None, None),
) -> Job:
    """`games` seeded self-play games of one variant (games 1..N): greedy, or by equity for a player
    given leave values."""
    from pipeline.scrabble.leaves_job import table_digest

    _ = lexicon.gaddag  # loaded once here, shipped with the lexicon to every worker
    params = {
        "variant": variant_params(variant),
        "seed": seed,
        "games": games,
        "words": words_digest(sorted(lexicon.words)),
    }
    if leaves != (None, None):
        params["leaves"] = [table_digest(t) for t in leaves]
    return Job(
        "scrabble-selfplay",
        params,
        games,
        shard_size,
        seed,
        selfplay_work,
        ("games",),
        Playing(variant, lexicon, seed, leaves),
        unit="games",
    )
