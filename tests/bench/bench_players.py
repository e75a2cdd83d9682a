"""Players' commands from a cold start, and the leave-value job's games per second per core, on ENABLE.

Cold CLI: each command run REPEATS times as a fresh process (`scrabble show`, `scrabble play`, `judge`,
`scrabble best`, `scrabble best --equity`), median wall seconds; the floor is `wordstats --help` in the same
run (imports only). Target: under 0.5 s each. Leaves: games per CPU second of one process in each round of
the leave job (round 1 greedy, round 2 equity with round 1's values: the job's units of work), and the time
to fit a round's values (the additive model and the 914,624-row table).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.enable import missing
from tests.bench.timing import process_env, process_seconds

REPEATS = 5
GAMES = 40
TARGET_S = 0.5


def cold(args: list[str], env: dict) -> float:
    """Median wall seconds of a fresh `wordstats ARGS` process (after one unmeasured run)."""
    exe = Path(sys.executable).with_name("wordstats")
    process_seconds([str(exe), *args], env)
    return round(statistics.median(process_seconds([str(exe), *args], env) for _ in range(REPEATS)), 3)


def run() -> dict:
    """Cold command times and leave-job throughput."""
    skipped = missing()
    if skipped:
        return skipped

    from pipeline.core.files import write_parquet
    from pipeline.core.jobs import Shard
    from pipeline.scrabble.equity.fit import leave_values
    from pipeline.scrabble.equity.job import leaves_work, round_job
    from pipeline.scrabble.equity.values import LeaveValues
    from tests.bench.enable import scrabble_lexicon

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "out"
        variant, lexicon = scrabble_lexicon(data)
        rates, table, table_s = [], None, 0.0
        for round_ in (1, 2):
            job = round_job(variant, lexicon, 14, GAMES, round_, table, GAMES)
            leaves_work(Shard(0, 0, 1, 0), job.shared)  # compiled before timing
            cpu = time.process_time()
            summary = leaves_work(Shard(0, 0, GAMES, 0), job.shared)["summary"]
            rates.append(round(GAMES / (time.process_time() - cpu), 2))
            start = time.perf_counter()
            frame = leave_values(summary, variant.tile_set.counts, 20)
            table = LeaveValues(frame)
            _ = table.arrays  # as the next round reads them
            table_s = time.perf_counter() - start
        write_parquet(data / "enable" / "leaves.parquet", frame, {"params": {"variant": "scrabble"}})
        board = Path(tmp) / "board.txt"
        board.write_text(("." * 15 + "\n") * 7 + "...RETAINS.....\n" + ("." * 15 + "\n") * 7)
        env = process_env(WORDSTATS_DATA=str(data), NUMBA_NUM_THREADS="1")
        common = ["--lexicon", "enable"]
        times = {
            "help_floor": cold(["--help"], env),
            "scrabble_show": cold(["scrabble", "show", str(board)], env),
            "scrabble_play": cold(["scrabble", "play", "--board", str(board), "--play", "9F OD", *common], env),
            "judge": cold(["judge", "JO", "RETAINS", "QAT", *common], env),
            "scrabble_best": cold(["scrabble", "best", "--board", str(board), "--rack", "AEIOQU?", *common], env),
            "scrabble_best_equity": cold(
                ["scrabble", "best", "--board", str(board), "--rack", "AEIOQU?", "--equity", *common], env
            ),
        }
    return {
        "cold_cli_median_s": times,
        "target_s": TARGET_S,
        "ratio_to_help_floor": {k: round(v / times["help_floor"], 2) for k, v in times.items()},
        "leaves_games": GAMES,
        "leaves_greedy_round_games_per_cpu_second": rates[0],
        "leaves_equity_round_games_per_cpu_second": rates[1],
        "leaves_fit_seconds": round(table_s, 2),
    }
