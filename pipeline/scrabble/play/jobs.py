"""Scrabble's sharded self-play job: seeded games between strategies, a block of game numbers per shard.

Game k's random stream comes from the seed, the variant and k alone, so the table is the same for any shard
size, engine or number of workers.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from pipeline.core.jobs import Job, Parts, Shard, words_digest
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.play.game import play_game
from pipeline.scrabble.play.strategy import GREEDY, Strategy
from pipeline.scrabble.play.summary import SELFPLAY_SCHEMA, log_row
from pipeline.scrabble.play.turns import game_rng
from pipeline.scrabble.rules.variant import Variant, variant_params

SELFPLAY_SHARD = 10  # games per shard (a few seconds on one core)
PROCESS_GAMES = 200  # from this many games (a round, for the leave values), the local engine plays in one worker
# process per core


def local_processes(games: int) -> int | None:
    """Worker processes for the local engine: one per core for long jobs (starting them costs seconds)."""
    import os

    return os.cpu_count() if games >= PROCESS_GAMES else None


@dataclass(frozen=True)
class Playing:
    """What a self-play shard reads: the variant, the lexicon with its GADDAG, the seed, and each player's
    strategy."""

    variant: Variant
    lexicon: Lexicon
    seed: int
    strategies: tuple[Strategy, ...] = (GREEDY, GREEDY)


def selfplay_work(shard: Shard, p: Playing) -> Parts:
    """Games start+1..stop of the variant's seeded sequence, one row each."""
    rows = [
        log_row(
            play_game(p.variant, p.lexicon, game_rng(p.seed, p.variant.name, number), p.strategies), number, p.variant
        )
        for number in range(shard.start + 1, shard.stop + 1)
    ]
    return {"games": pl.DataFrame(rows, schema=SELFPLAY_SCHEMA)}


def selfplay_job(
    variant: Variant,
    lexicon: Lexicon,
    seed: int,
    games: int,
    shard_size: int = SELFPLAY_SHARD,
    strategies: tuple[Strategy, ...] = (GREEDY, GREEDY),
) -> Job:
    """`games` seeded self-play games of one variant (games 1..N) between players of these strategies."""
    _ = lexicon.gaddag  # loaded once here, shipped with the lexicon to every worker
    params = {
        "variant": variant_params(variant),
        "seed": seed,
        "games": games,
        "words": words_digest(sorted(lexicon.words)),
    }
    if any(s.digest() for s in strategies):  # (each player's leave values; greedy players need none)
        params["leaves"] = [s.digest() for s in strategies]
    return Job(
        "scrabble-selfplay",
        params,
        games,
        shard_size,
        seed,
        selfplay_work,
        ("games",),
        Playing(variant, lexicon, seed, tuple(strategies)),
        unit="games",
    )
