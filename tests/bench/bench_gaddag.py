"""The GADDAG move generator beside the trie generator (the reference) and wolges, in one run, on ENABLE.

Reports: structure build time and size (and its load time from gaddag.parquet); best-play warm median and
p95 on the 100 benchmark positions of bench_scrabble (without blanks, with one, and the same positions with
two blanks on the rack), reference beside; plays generated per second (every legal play); greedy self-play
games per second on one core and on two (one process per core), the reference engine beside, and wolges
(`../shared/anchors/wolges/run.sh N`, skipped when absent) run alternately with the one-core rounds; the cold
`wordstats scrabble best` process (median of 10; the move generator's C extension, see
pipeline/scrabble/engine.py) beside `python -c "import polars"`, numba's import and its first call of a cached
kernel (what the command would pay running the numba kernels). Targets: best play under 0.1 ms
(no blank) and 1 ms (two blanks); self-play at least wolges' rate on one core; cold best under 0.4 s.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from tests.bench import enable
from tests.bench.bench_scrabble import positions
from tests.bench.enable import CONFIG, ENABLE, ROOT, missing
from tests.bench.timing import percentile, process_env, process_seconds

REPEATS = 3
SELFPLAY_GAMES = 400
SELFPLAY_ROUNDS = 3  # one-core rounds, each followed by a wolges run of as many games
COLD_RUNS = 10
COLD_RACK = "AEINRS?"
REFERENCE_GAMES = 20
SEED = 99
WOLGES = ROOT.parent / "shared" / "anchors" / "wolges" / "run.sh"
TARGET_MS = {"without_blank": 0.1, "two_blanks": 1.0}


def _lexicon():
    """ENABLE as a Lexicon, and the variant."""
    from pipeline.core.config import load_config
    from pipeline.scrabble.lexicon.words import Lexicon
    from pipeline.scrabble.rules.variant import variant

    return Lexicon(ENABLE.read_text().upper().split()), variant(load_config(CONFIG), "scrabble")


def _best_ms(generate, board, rack, variant, lexicon) -> float:
    """The median time in ms of one best-play query (the best play's record) over REPEATS runs."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        generate(board, rack, variant, lexicon, keep=1)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _summary(times: list[float]) -> dict:
    """Median and p95 in ms."""
    if not times:
        return {"positions": 0}
    return {
        "positions": len(times),
        "median_ms": round(statistics.median(times), 4),
        "p95_ms": round(percentile(times, 95), 4),
    }


def _two_blanks(rack: str) -> str:
    """The rack with its last two letters (or all, when shorter) turned into blanks."""
    letters = rack.replace("?", "")
    return "".join(sorted(letters[: max(0, len(rack) - 2)])) + "??"


def _selfplay_rate(games: int, first: int = 1) -> float:
    """Greedy GADDAG self-play games per second in this process (the kernels already compiled)."""
    from pipeline.scrabble.play.game import play_game
    from pipeline.scrabble.play.turns import game_rng

    lexicon, variant = _LOADED
    start = time.perf_counter()
    for number in range(first, first + games):
        play_game(variant, lexicon, game_rng(SEED, variant.name, number))
    return games / (time.perf_counter() - start)


_LOADED: tuple = ()


def _worker(args: tuple[int, int]) -> float:
    """One core's share of the two-core run: load the lexicon, warm up, then play."""
    global _LOADED
    os.environ["NUMBA_NUM_THREADS"] = "1"
    lexicon, variant = _lexicon()
    _ = lexicon.gaddag
    _LOADED = (lexicon, variant)
    _selfplay_rate(2, first=10**6)
    games, first = args
    return _selfplay_rate(games, first)


def _wolges(games: int) -> float | None:
    """wolges' greedy self-play games per second on ENABLE, or None when it is not here."""
    if not WOLGES.is_file():
        return None
    out = subprocess.run(["sh", str(WOLGES), str(games)], capture_output=True, text=True, timeout=600)
    found = re.search(r"games/s\s+([\d.]+)", out.stdout + out.stderr)
    return float(found.group(1)) if found else None


def run() -> dict:
    """Every figure of the GADDAG generator beside its baselines."""
    global _LOADED
    if missing():
        return missing()
    from pipeline.scrabble.lexicon.gaddag import build_gaddag, from_table, gaddag_table
    from pipeline.scrabble.movegen.generate import generate
    from pipeline.scrabble.movegen.kernels import layout as gk
    from pipeline.scrabble.play.turns import game_rng
    from pipeline.scrabble.rules.board import Board
    from tests.reference.scrabble import generate_reference, reference_game, trie_of

    lexicon, variant = _lexicon()
    build_gaddag(["AB"])  # compile (or load) the build kernels
    started = time.perf_counter()
    g = build_gaddag(lexicon.words)
    build_seconds = time.perf_counter() - started
    lexicon.__dict__["gaddag"] = g
    buffer = io.BytesIO()
    gaddag_table(g).write_parquet(buffer)
    parquet = buffer.getvalue()
    started = time.perf_counter()
    loaded = from_table(pl.read_parquet(io.BytesIO(parquet)))
    _ = loaded.tilesets
    load_seconds = time.perf_counter() - started
    started = time.perf_counter()
    trie = trie_of(lexicon)
    trie_seconds = time.perf_counter() - started

    for gen in (generate, generate_reference):  # compile (or load) the kernels
        gen(Board(), "AEINST?", variant, lexicon)
        gen(Board(), "AEINST?", variant, lexicon, keep=1)
    games = positions(variant, lexicon)
    best: dict[str, dict[str, list[float]]] = {"gaddag": {}, "reference": {}}
    for name, gen in (("gaddag", generate), ("reference", generate_reference)):
        for board, rack in games:
            part = "with_blank" if "?" in rack else "without_blank"
            best[name].setdefault(part, []).append(_best_ms(gen, board, rack, variant, lexicon))
            best[name].setdefault("two_blanks", []).append(_best_ms(gen, board, _two_blanks(rack), variant, lexicon))
    best_play = {}
    for part in ("without_blank", "with_blank", "two_blanks"):
        new, ref = _summary(best["gaddag"].get(part, [])), _summary(best["reference"].get(part, []))
        best_play[part] = {"gaddag": new, "reference": ref}
        if new.get("positions"):
            best_play[part]["speedup_median"] = round(ref["median_ms"] / new["median_ms"], 2)
            if part in TARGET_MS:
                best_play[part]["target_median_ms"] = TARGET_MS[part]

    plays, new_s, ref_s = 0, 0.0, 0.0
    for board, rack in games:
        started = time.perf_counter()
        _, total = generate(board, rack, variant, lexicon)
        new_s += time.perf_counter() - started
        started = time.perf_counter()
        generate_reference(board, rack, variant, lexicon)
        ref_s += time.perf_counter() - started
        plays += total

    _LOADED = (lexicon, variant)
    _selfplay_rate(3, first=10**6)  # compile (or load) the self-play kernel
    ours, theirs = [], []
    for k in range(SELFPLAY_ROUNDS):
        ours.append(_selfplay_rate(SELFPLAY_GAMES, first=k * SELFPLAY_GAMES + 1))
        rate = _wolges(SELFPLAY_GAMES)
        if rate is not None:
            theirs.append(rate)
    started = time.perf_counter()
    for number in range(1, REFERENCE_GAMES + 1):
        reference_game(variant, lexicon, game_rng(SEED, variant.name, number))
    reference = REFERENCE_GAMES / (time.perf_counter() - started)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        rates = pool.map(_worker, [(SELFPLAY_GAMES, 1), (SELFPLAY_GAMES, SELFPLAY_GAMES + 1)])
    two_cores = sum(rates)
    median_one = statistics.median(ours)
    wolges = statistics.median(theirs) if theirs else None
    cold = _cold(*games[len(games) // 2])
    return {
        "lexicon": f"ENABLE ({len(lexicon.words):,} words of 2-15 letters)",
        "structure": {
            "arcs": len(g.arcs),
            "nodes": g.n_nodes,
            "bytes": g.nbytes,
            "parquet_bytes": len(parquet),
            "build_seconds": round(build_seconds, 3),
            "load_seconds_from_parquet": round(load_seconds, 4),
            "reference_trie_nodes": trie.n_nodes,
            "reference_trie_bytes": int(trie.children.nbytes),
            "reference_trie_build_seconds": round(trie_seconds, 3),
        },
        "best_play": {
            "positions": f"{len(games)} positions of bench_scrabble (turns of seeded greedy games); "
            f"two_blanks: the same positions, two rack tiles turned into blanks; "
            f"median of {REPEATS} runs each",
            **best_play,
        },
        "plays_per_second": {
            "plays": plays,
            "gaddag": round(plays / new_s),
            "reference": round(plays / ref_s),
            "speedup": round(ref_s / new_s, 2),
        },
        "selfplay_games_per_second": {
            "games": SELFPLAY_GAMES,
            "gaddag_one_core": round(median_one, 1),
            "gaddag_one_core_runs": [round(x, 1) for x in ours],
            "gaddag_two_cores": round(two_cores, 1),
            "reference_one_core": round(reference, 2),
            "wolges_one_core": round(wolges, 1) if wolges else None,
            "wolges_one_core_runs": theirs,
            "speedup_over_reference": round(median_one / reference, 2),
            "ratio_to_wolges": round(median_one / wolges, 3) if wolges else None,
            "ratio_to_wolges_per_round": [round(x / y, 3) for x, y in zip(ours, theirs)],
            "target": "at least wolges' rate on one core (moonshot 2x)",
        },
        "cold_best_seconds": cold,
        "mean_score_per_player": _mean_score(lexicon, variant),
        "record_width": gk.RECORD,
    }


def _cold(board, rack: str) -> dict:
    """Median wall times of COLD_RUNS fresh processes, each kind in turn: `wordstats scrabble best` on a
    mid-game board (a benchmark position and its rack) and on the empty board (COLD_RACK), `python -c
    "import polars"`, `import numba`, and numba's import with the first call of a cached kernel (the
    kernels compiled beforehand)."""
    from pipeline.scrabble.engine import kernels

    exe = str(Path(sys.executable).with_name("wordstats"))
    with tempfile.TemporaryDirectory() as tmp:
        data = enable.build(Path(tmp), ["scrabble"])
        board_file = Path(tmp) / "board.txt"
        board_file.write_text(board.text())
        common = ["--lexicon", enable.LEXICON, "--data-dir", str(data), "--config", str(CONFIG)]
        env = process_env()
        kinds = {
            "best_mid_game": [exe, "scrabble", "best", "--board", str(board_file), "--rack", rack, *common],
            "best_empty_board": [exe, "scrabble", "best", "--empty", "--rack", COLD_RACK, *common],
            "import_polars": [sys.executable, "-c", "import polars"],
            "import_numba": [sys.executable, "-c", "import numba"],
            "numba_first_cached_call": [
                sys.executable,
                "-c",
                "import numpy as np; from pipeline.scrabble.movegen.kernels import game; "
                "game.draw(np.zeros(27, dtype=np.int64), np.zeros(1, dtype=np.int64), 0, 7)",
            ],
        }
        for argv in kinds.values():  # compile (or load) every kernel the commands use
            process_seconds(argv, env)
        times: dict[str, list[float]] = {k: [] for k in kinds}
        for _ in range(COLD_RUNS):
            for k, argv in kinds.items():
                times[k].append(process_seconds(argv, env))
    out: dict = {k: round(statistics.median(v), 3) for k, v in times.items()}
    out["runs"] = COLD_RUNS
    out["engine"] = getattr(kernels(), "compiled", "numba, compiled on first use")
    out["racks"] = {"best_mid_game": rack, "best_empty_board": COLD_RACK}
    out["target"] = 0.4
    return out


def _mean_score(lexicon, variant, games: int = 100) -> float:
    """The mean final score per player over the first games of the run (wolges reports about 390)."""
    from pipeline.scrabble.play.game import play_game
    from pipeline.scrabble.play.turns import game_rng

    scores = [
        s
        for n in range(1, games + 1)
        for s in play_game(variant, lexicon, game_rng(SEED, variant.name, n)).scores.tolist()
    ]
    return round(float(np.mean(scores)), 1)
