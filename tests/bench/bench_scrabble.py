"""Best-play queries on 100 mid-game positions from seeded greedy self-play with ENABLE.

Reports the median and 95th-percentile time per query (all legal plays generated, the best one kept and
scored by the rules), the plays generated per second, and the same for positions with and without blanks
on the rack. Target: median under 20 ms per position.
"""

from __future__ import annotations

import statistics
import time

from tests.bench.enable import CONFIG, ENABLE, missing
from tests.bench.timing import percentile

POSITIONS = 100
FIRST_TURN, LAST_TURN = 6, 15  # mid-game: after the first few plays, before the bag runs out
SEED = 2024
REPEATS = 3
TARGET_MS = 20.0


def positions(variant, lexicon, count: int = POSITIONS) -> list:
    """Board and rack of the turns FIRST_TURN..LAST_TURN of seeded greedy self-play games."""
    from pipeline.scrabble.play.turns import game_rng, self_play

    found, game = [], 0
    while len(found) < count:
        game += 1
        played = self_play(variant, lexicon, game_rng(SEED, variant.name, game))
        found += [(t.board, t.rack) for t in played.turns[FIRST_TURN : LAST_TURN + 1]]
    return found[:count]


def query_seconds(board, rack, variant, lexicon) -> tuple[float, int]:
    """The median time of one best-play query over REPEATS runs, and the number of legal plays."""
    from pipeline.scrabble.movegen.generate import generate, record_tiles
    from pipeline.scrabble.rules.scoring import evaluate

    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        records, total = generate(board, rack, variant, lexicon, keep=1)
        if len(records):
            tiles, direction = record_tiles(records[0])
            evaluate(board, tiles, variant, lexicon, direction)
        times.append(time.perf_counter() - start)
    return statistics.median(times), total


def summary(times: list[float], plays: int) -> dict:
    """Median and 95th percentile in ms, and plays per second."""
    return {
        "positions": len(times),
        "median_ms": round(1000 * statistics.median(times), 3),
        "p95_ms": round(1000 * percentile(times, 95), 3),
        "mean_plays": round(plays / len(times), 1),
        "plays_per_second": round(plays / sum(times)),
    }


def run() -> dict:
    """Best-play timings on mid-game positions, overall and with / without blanks."""
    from pipeline.core.config import load_config
    from pipeline.scrabble.lexicon.words import Lexicon
    from pipeline.scrabble.movegen.generate import generate
    from pipeline.scrabble.rules.board import Board
    from pipeline.scrabble.rules.variant import variant as sc_variant

    if missing():
        return missing()
    variant = sc_variant(load_config(CONFIG), "scrabble")
    started = time.perf_counter()
    lexicon = Lexicon(ENABLE.read_text().upper().split())
    gaddag = lexicon.gaddag
    gaddag_seconds = time.perf_counter() - started
    generate(Board(), "AEINST?", variant, lexicon)  # compile (or load) the kernels
    started = time.perf_counter()
    games = positions(variant, lexicon)
    selfplay_seconds = time.perf_counter() - started
    measured = [(query_seconds(board, rack, variant, lexicon), "?" in rack) for board, rack in games]
    times = [t for (t, _), _ in measured]
    plays = sum(n for (_, n), _ in measured)
    result = {
        "lexicon": f"ENABLE ({len(lexicon.words):,} words of 2-15 letters, {gaddag.n_nodes:,} GADDAG nodes)",
        "variant": "scrabble",
        "position_source": f"{POSITIONS} positions: turns {FIRST_TURN + 1}-{LAST_TURN + 1} of greedy self-play games, "
        f"seed {SEED}",
        "query": "all legal plays generated (numba), the best kept and checked/scored by the rules (Python); "
        f"median of {REPEATS} runs per position",
        "target_median_ms": TARGET_MS,
        **summary(times, plays),
        "with_blank": summary(*_part(measured, True)),
        "without_blank": summary(*_part(measured, False)),
        "gaddag_build_seconds": round(gaddag_seconds, 3),
        "selfplay_seconds_for_positions": round(selfplay_seconds, 3),
    }
    result["median_over_target"] = round(result["median_ms"] / TARGET_MS, 3)
    return result


def _part(measured: list, blank: bool) -> tuple[list[float], int]:
    chosen = [(t, n) for (t, n), b in measured if b == blank]
    return [t for t, _ in chosen] or [float("nan")], sum(n for _, n in chosen)
