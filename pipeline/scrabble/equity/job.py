"""The leaves job: rounds of seeded self-play games, each round a sharded job (a block of games per
shard) whose shards return leave summaries; a round's values are fitted from its merged summary and
played by the next round (leaves.py explains the estimate).

Game k of round r has its own random stream (the seed, variant, r and k alone), and summaries merge as
integer sums sorted by leave key, so the table is the same for any shard size, engine or number of workers.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from pipeline.core.jobs import Job, Parts, Shard, words_digest
from pipeline.core.settings import default_of
from pipeline.scrabble.equity.fit import leave_values, log_observations, merge_summaries, rounds_rng, summarise
from pipeline.scrabble.equity.strategy import Equity
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.manifest import SETTINGS
from pipeline.scrabble.play.game import GameLog, play_game
from pipeline.scrabble.play.strategy import GREEDY
from pipeline.scrabble.rules.variant import Variant, variant_params

LEAVES_SHARD = 25  # games per shard (a few seconds on one core)
ROUNDS = default_of(SETTINGS, "scrabble.leaves.rounds")  # a greedy round, then equity rounds with the values before


@dataclass(frozen=True)
class Learning:
    """What a shard of one round reads: the variant, the lexicon with its GADDAG, the seed, the round and
    the previous round's leave values (None in the greedy first round)."""

    variant: Variant
    lexicon: Lexicon
    seed: int
    round: int
    table: LeaveValues | None


def round_game(p: Learning, number: int) -> GameLog:
    """Game `number` of a round: greedy in the first round, equity (both players) after it."""
    rng = rounds_rng(p.seed, p.variant.name, p.round, number)
    player = GREEDY if p.table is None else Equity(p.table)
    return play_game(p.variant, p.lexicon, rng, (player, player))


def leaves_work(shard: Shard, p: Learning) -> Parts:
    """Games start+1..stop of the round: the summary of their leave observations."""
    keys: list[int] = []
    targets: list[int] = []
    for number in range(shard.start + 1, shard.stop + 1):
        k, t = log_observations(round_game(p, number), p.variant, p.table)
        keys.extend(k)
        targets.extend(t)
    return {"summary": summarise(keys, targets)}


def merge_summary(part: str, frames: pl.DataFrame) -> pl.DataFrame:
    """Shards' summaries as one: sums per leave key (integers, so any order gives the same table)."""
    return merge_summaries([frames])


def round_job(
    variant: Variant,
    lexicon: Lexicon,
    seed: int,
    games: int,
    round_: int,
    table: LeaveValues | None,
    shard_size: int = LEAVES_SHARD,
) -> Job:
    """One round of the leaves job: `games` seeded games played with `table` (greedy when None)."""
    _ = lexicon.gaddag  # loaded once here, shipped with the lexicon to every worker
    params = {
        "variant": variant_params(variant),
        "seed": seed,
        "games": games,
        "round": round_,
        "values": "" if table is None else table.digest(),
        "words": words_digest(sorted(lexicon.words)),
    }
    return Job(
        "scrabble-leaves",
        params,
        games,
        shard_size,
        seed,
        leaves_work,
        ("summary",),
        Learning(variant, lexicon, seed, round_, table),
        merge=merge_summary,
        unit="games",
    )


def learn(
    variant: Variant,
    lexicon: Lexicon,
    games: int,
    seed: int,
    prior_weight: float,
    rounds: int = ROUNDS,
    engine=None,
    data_dir=None,
    lexicon_name: str = "",
    progress=None,
    shard_size: int = LEAVES_SHARD,
    last_games: int | None = None,
) -> tuple[list[pl.DataFrame], list]:
    """The leave values of each of `rounds` rounds of `games` seeded games (`last_games` in the last round,
    whose values are the answer), on `engine` (default local), in the lexicon's job folders under `data_dir`
    (temporary ones when None); with each round's job result."""
    from pipeline.core import executor

    table: LeaveValues | None = None
    frames, results = [], []
    for round_ in range(1, rounds + 1):
        played = last_games if round_ == rounds and last_games is not None else games
        job = round_job(variant, lexicon, seed, played, round_, table, shard_size)
        result = executor.run(job, data_dir, lexicon_name, engine, progress)
        results.append(result)
        frames.append(leave_values(result.tables["summary"], variant.tile_set.counts, prior_weight))
        table = LeaveValues(frames[-1])
    return frames, results
