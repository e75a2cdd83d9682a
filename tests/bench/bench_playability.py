"""Playability's speed on ENABLE: games per CPU second of the playability job's work (an equity game and the loss of
every word of every play turn, measured in the game kernel) beside the equity games alone, the same games in
interleaved rounds (medians and their ratio), and the CPU hours 1,000,000 games would take at that rate. Beside
them, in the same rounds, the baselines: the games replayed in Python (game_losses, as the job did before), and
the equity player's move found from every play (Equity(every_play=True)) rather than best first. The leave values
are those of a greedy round of LEAVE_GAMES games (bench_players' first round)."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.bench.enable import missing

GAMES = 10  # games a round
ROUNDS = 5  # interleaved rounds of each
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
    from pipeline.scrabble.playability.losses import game_losses
    from tests.bench.enable import scrabble_lexicon

    with tempfile.TemporaryDirectory() as tmp:
        variant, lexicon = scrabble_lexicon(Path(tmp) / "out")
    greedy = round_job(variant, lexicon, 14, LEAVE_GAMES, 1, None, LEAVE_GAMES)
    summary = leaves_work(Shard(0, 0, LEAVE_GAMES, 0), greedy.shared)["summary"]
    leaves = LeaveValues(leave_values(summary, variant.tile_set.counts, 20))
    player = Equity(leaves)
    job = playability_job(variant, lexicon, leaves, 27, GAMES * ROUNDS, GAMES)
    playability_work(Shard(0, 0, 1, 0), job.shared)  # compiled before timing

    every = Equity(leaves, every_play=True)

    def games_alone(first: int, who: Equity) -> None:
        """The round's equity games, played and nothing more."""
        for number in range(first + 1, first + GAMES + 1):
            play_game(variant, lexicon, game_rng(27, variant.name, number), (who, who))

    def replayed(first: int) -> None:
        """The round's games played, then their losses found by replaying them in Python (the job before)."""
        for number in range(first + 1, first + GAMES + 1):
            log = play_game(variant, lexicon, game_rng(27, variant.name, number), (player, player))
            for _ in game_losses(log, variant, lexicon, leaves):
                pass

    def rate(work: Callable[..., object], *args: object) -> float:
        """Games per CPU second of one round's work."""
        cpu = time.process_time()
        work(*args)
        return GAMES / (time.process_time() - cpu)

    games_alone(0, every)
    replayed(0)  # compiled before timing
    rates: dict[str, list[float]] = {"alone": [], "every_play": [], "measured": [], "replayed": []}
    for r in range(ROUNDS):
        first = r * GAMES
        rates["alone"].append(rate(games_alone, first, player))
        rates["every_play"].append(rate(games_alone, first, every))
        rates["measured"].append(rate(playability_work, Shard(r, first, first + GAMES, 0), job.shared))
        rates["replayed"].append(rate(replayed, first))
    median = {name: statistics.median(found) for name, found in rates.items()}
    return {
        "games_a_round": GAMES,
        "rounds": ROUNDS,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "playability_games_per_cpu_second": round(median["measured"], 2),
        "equity_games_alone_per_cpu_second": round(median["alone"], 2),
        "ratio_alone_to_playability": round(median["alone"] / median["measured"], 2),
        "projected_cpu_hours_for_1m_games": round(REFERENCE_GAMES / median["measured"] / 3600, 1),
        "baseline_replayed_in_python_games_per_cpu_second": round(median["replayed"], 2),
        "playability_over_replayed": round(median["measured"] / median["replayed"], 2),
        "baseline_every_play_games_per_cpu_second": round(median["every_play"], 2),
        "best_first_over_every_play": round(median["alone"] / median["every_play"], 2),
        "rounds_games_per_cpu_second": {name: [round(x, 2) for x in found] for name, found in rates.items()},
    }
