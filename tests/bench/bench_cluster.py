"""Sharded jobs: the local engine against Ray with one and two workers, on this machine, in one run.

Boggle random boards (the new dice, ENABLE2K; each shard rolls, scores and counts words): the local engine
on one and on two cores (numba threads), and a local Ray instance (2 CPUs, 127.0.0.1) running one shard at
a time (1 worker) or two (2 workers), each worker on one core. Repeats are interleaved so that a noisy
machine slows every configuration alike; medians are reported. Then a per-shard overhead (many tiny
shards), from which docs/cluster.md projects 10 and 100 nodes. Then Scrabble self-play games per second:
the local engine (one process, and two worker processes) against Ray with 2 workers.

WORDSTATS_BENCH_BOARDS sets the boards per run (default 2,000,000; the issue names 10,000,000) and
WORDSTATS_BENCH_SHARD the boards per shard (default 250,000).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.jobs import random_job
from pipeline.boggle.settings import boggle_config, dice_seed
from pipeline.core import executor as ex
from pipeline.core.cluster import RayEngine
from pipeline.core.config import PROJECT_ROOT, load_config
from pipeline.core.jobs import Job

ENABLE2K = PROJECT_ROOT.parent / "shared" / "corpora" / "enable2k" / "enable2k.txt"
BOARDS = int(os.environ.get("WORDSTATS_BENCH_BOARDS", 2_000_000))
SHARD = int(os.environ.get("WORDSTATS_BENCH_SHARD", 250_000))
REPEAT = 3
TINY_SHARDS, TINY_SHARD = 64, 1_000  # the per-shard overhead: many shards of almost no work
GAMES, GAME_SHARD = 1000, 100
LOOPBACK = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token"}


def timed(job: Job, engine: ex.Engine, threads: int | None = None) -> float:
    """Seconds to run every shard of `job` on `engine` in a fresh folder (numba `threads` for the local engine)."""
    import numba

    if threads is not None:
        numba.set_num_threads(threads)
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        started = time.perf_counter()
        result = ex.run_job(job, Path(tmp) / job.job_id, engine)
        seconds = time.perf_counter() - started
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert result.computed == len(job.shards())
    return seconds


def run() -> dict:
    """Boards per second on each engine, the ratios the issue asks for, and self-play games per second."""
    if not ENABLE2K.is_file():
        return {"skipped": f"{ENABLE2K} not present"}
    for key, value in LOOPBACK.items():
        os.environ.setdefault(key, value)
    import ray

    config = load_config(PROJECT_ROOT / "configs" / "default.toml")
    bc = boggle_config(config)
    dice = bc.dice_set("new")
    words = sorted(set(ENABLE2K.read_text().upper().split()))
    dictionary = compile_dictionary(words, bc.rules(dice.variant))
    seed = dice_seed(bc.seed, "new")
    job = random_job(dice, dictionary, seed, BOARDS, SHARD)
    tiny = random_job(dice, dictionary, seed, TINY_SHARDS * TINY_SHARD, TINY_SHARD)

    temp = tempfile.mkdtemp(prefix="rayb", dir="/tmp")
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", _temp_dir=temp, logging_level="ERROR")
    try:
        local = ex.LocalEngine()
        ray1, ray2 = RayEngine(None, parallel=1), RayEngine(None)
        configs = {
            "local_1_core": lambda j: timed(j, local, 1),
            "local_2_cores": lambda j: timed(j, local, 2),
            "ray_1_worker": lambda j: timed(j, ray1),
            "ray_2_workers": lambda j: timed(j, ray2),
        }
        small = random_job(dice, dictionary, seed, 4 * TINY_SHARD, TINY_SHARD)
        for measure in configs.values():  # warm up: numba caches, Ray workers
            measure(small)
        seconds: dict[str, list[float]] = {name: [] for name in configs}
        for _ in range(REPEAT):
            for name, measure in configs.items():
                seconds[name].append(measure(job))
        medians = {name: statistics.median(times) for name, times in seconds.items()}
        rates = {name: round(BOARDS / s) for name, s in medians.items()}
        tiny_seconds = {
            name: statistics.median(configs[name](tiny) for _ in range(REPEAT))
            for name in ("local_1_core", "ray_1_worker")
        }
        per_board = medians["ray_1_worker"] / BOARDS
        overhead = (tiny_seconds["ray_1_worker"] - TINY_SHARDS * TINY_SHARD * per_board) / TINY_SHARDS
        local_overhead = tiny_seconds["local_1_core"] - TINY_SHARDS * TINY_SHARD * medians["local_1_core"] / BOARDS
        boggle = {
            "boards": BOARDS,
            "shard_size": SHARD,
            "shards": len(job.shards()),
            "repeat": REPEAT,
            "median_seconds": {k: round(v, 3) for k, v in medians.items()},
            "all_seconds": {k: [round(t, 3) for t in v] for k, v in seconds.items()},
            "boards_per_second": rates,
            "ray_overhead_1_core": round(medians["ray_1_worker"] / medians["local_1_core"] - 1, 4),
            "ray_overhead_2_cores": round(medians["ray_2_workers"] / medians["local_2_cores"] - 1, 4),
            "ray_2_workers_speedup": round(medians["ray_1_worker"] / medians["ray_2_workers"], 3),
            "local_2_cores_speedup": round(medians["local_1_core"] / medians["local_2_cores"], 3),
            "ray_seconds_per_shard_overhead": round(overhead, 4),
            "local_seconds_per_shard_overhead": round(local_overhead / TINY_SHARDS, 4),
            "tiny_job": {
                "shards": TINY_SHARDS,
                "shard_size": TINY_SHARD,
                "median_seconds": {k: round(v, 3) for k, v in tiny_seconds.items()},
            },
        }
        selfplay = selfplay_rates(config, words, ray2)
    finally:
        ray.shutdown()
    return {"boggle_random": boggle, "scrabble_selfplay": selfplay}


def selfplay_rates(config, words: list[str], ray2: ex.Engine) -> dict:
    """Self-play games per second: local (one process; two processes) against Ray with 2 workers."""
    from pipeline.scrabble.lexicon.words import Lexicon
    from pipeline.scrabble.play.jobs import selfplay_job
    from pipeline.scrabble.rules.variant import variant

    job = selfplay_job(variant(config, "scrabble"), Lexicon(words), 8, GAMES, GAME_SHARD)
    warm = selfplay_job(variant(config, "scrabble"), Lexicon(words), 8, 2, 1)
    engines = {
        "local_1_process": ex.LocalEngine(),
        "local_2_processes": ex.LocalEngine(processes=2),
        "ray_2_workers": ray2,
    }
    timed(warm, engines["local_1_process"])
    timed(warm, ray2)
    seconds = {name: timed(job, engine) for name, engine in engines.items()}
    return {
        "games": GAMES,
        "shard_size": GAME_SHARD,
        "seconds": {k: round(v, 2) for k, v in seconds.items()},
        "games_per_second": {k: round(GAMES / v, 3) for k, v in seconds.items()},
        "ray_2_workers_vs_local_1_process": round(seconds["local_1_process"] / seconds["ray_2_workers"], 3),
        "ray_2_workers_vs_local_2_processes": round(seconds["local_2_processes"] / seconds["ray_2_workers"], 3),
    }
