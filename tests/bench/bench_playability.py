"""Playability's speed on ENABLE: games per CPU second of the playability job's work (an equity game and the loss of
every word of every play turn) beside the equity games alone, the same games in interleaved rounds (medians and
their ratio), and the CPU hours 1,000,000 games would take at that rate. The leave values are those of a greedy
round of LEAVE_GAMES games (bench_players' first round)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from tests.bench.enable import missing

GAMES = 10  # games a round
ROUNDS = 3  # interleaved rounds of each
LEAVE_GAMES = 100
REFERENCE_GAMES = 1_000_000


def run() -> dict:
    """Games per CPU second with and without the playability analysis, and the projection."""
    skipped = missing()
    if skipped:
        return skipped
    from pipeline.core.jobs import Shard
    from pipeline.scrabble.equity.fit import leave_values
    from pipeline.scrabble.equity.job import leaves_work, round_job
    from pipeline.scrabble.equity.strategy import Equity
    from pipeline.scrabble.equity.values import LeaveValues
    from pipeline.scrabble.play.game import play_game
    from pipeline.scrabble.play.turns import game_rng
    from pipeline.scrabble.playability.job import playability_job, playability_work
    from tests.bench.enable import scrabble_lexicon

    with tempfile.TemporaryDirectory() as tmp:
        variant, lexicon = scrabble_lexicon(Path(tmp) / "out")
    greedy = round_job(variant, lexicon, 14, LEAVE_GAMES, 1, None, LEAVE_GAMES)
    summary = leaves_work(Shard(0, 0, LEAVE_GAMES, 0), greedy.shared)["summary"]
    leaves = LeaveValues(leave_values(summary, variant.tile_set.counts, 20))
    player = Equity(leaves)
    job = playability_job(variant, lexicon, leaves, 27, GAMES * ROUNDS, GAMES)
    playability_work(Shard(0, 0, 1, 0), job.shared)  # compiled before timing

    def games_alone(first: int) -> None:
        """The round's equity games, played and nothing more."""
        for number in range(first + 1, first + GAMES + 1):
            play_game(variant, lexicon, game_rng(27, variant.name, number), (player, player))

    alone, measured = [], []
    for r in range(ROUNDS):
        cpu = time.process_time()
        games_alone(r * GAMES)
        alone.append(GAMES / (time.process_time() - cpu))
        cpu = time.process_time()
        playability_work(Shard(r, r * GAMES, (r + 1) * GAMES, 0), job.shared)
        measured.append(GAMES / (time.process_time() - cpu))
    rate, plain = statistics.median(measured), statistics.median(alone)
    return {
        "games_a_round": GAMES,
        "rounds": ROUNDS,
        "playability_games_per_cpu_second": round(rate, 2),
        "equity_games_alone_per_cpu_second": round(plain, 2),
        "ratio_alone_to_playability": round(plain / rate, 2),
        "projected_cpu_hours_for_1m_games": round(REFERENCE_GAMES / rate / 3600, 1),
    }
