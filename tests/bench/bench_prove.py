"""Boggle proof speed: the 3×3 ENABLE2K proof at floor 500 on one core, and the 3×4 rate with a projection.

Measured in one run: CPU and wall seconds of the whole 3×3 proof on one worker (fresh job folder, nothing
resumed), its board count and best score (must be 42 and 545), peak memory, the split of time between
bounding, splitting and scoring, and the tightness of the top-level bounds; then, for 3×4 at floor 1500,
the CPU seconds of a seeded random sample of top-level classes and the projected CPU time of the whole
proof (classes × mean seconds per class). The baseline is hybrid-boggle's `break_all` (C++), which the
issue measured at about 610 CPU-seconds on one thread of this machine for the same 3×3 proof; it cannot be
built here (no network beyond package registries), so its figure is quoted, not rerun.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import numpy as np

from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.prove import Problem, default_partition, prove, prove_shard, top_classes
from pipeline.boggle.rules import Rules
from pipeline.core.config import PROJECT_ROOT

ENABLE2K = PROJECT_ROOT.parent / "shared" / "corpora" / "enable2k" / "enable2k.txt"
STANDARD = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))
HYBRID_BOGGLE_3X3_CPU_SECONDS = 610  # quoted from the issue: break_all, one thread, this machine
SAMPLE_3X4 = int(os.environ.get("BENCH_PROVE_3X4_SAMPLE", "12"))
SEED = 2025


def proof_3x3(dictionary) -> dict:
    """The whole 3x3 proof on one worker, timed."""
    problem = Problem(3, 3, dictionary, default_partition(3, 3), 500)
    with tempfile.TemporaryDirectory() as tmp:
        cpu, wall = time.process_time(), time.perf_counter()
        proof = prove(problem, Path(tmp), workers=1)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    s = proof.summary
    return {
        "boards": s["boards"],
        "best": s["best"],
        "expected": {"boards": 42, "best": 545},
        "correct": s["boards"] == 42 and s["best"] == 545,
        "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(wall, 2),
        "vs_hybrid_boggle_cpu": round(HYBRID_BOGGLE_3X3_CPU_SECONDS / cpu, 2),
        "seconds": s["seconds"],
        "peak_rss_mib": s["peak_rss_mib"],
        "tightness": s["tightness"],
        "partition": s["partition"],
        "top_level_classes": s["top_level_classes"],
        "top_level_dropped": s["top_level_dropped"],
        "classes_examined": s["classes_examined"],
        "classes_eliminated": s["classes_eliminated"],
        "boards_scored": s["boards_scored"],
        "word_paths": s["word_paths"],
        "tree_nodes": s["tree_nodes"],
        "top_boards": proof.boards.head(5).to_dicts(),
    }


def rate_3x4(dictionary) -> dict:
    """CPU seconds per top-level class of the 3x4 proof at floor 1500, on a seeded sample, and the projection."""
    partition = default_partition(3, 4)
    problem = Problem(3, 4, dictionary, partition, 1500)
    classes = top_classes(len(partition.groups), 3, 4)
    rng = np.random.default_rng(SEED)
    sample = classes[np.sort(rng.choice(classes.shape[0], SAMPLE_3X4, replace=False))]
    prove_shard(problem, sample[:1])  # compile outside the timing
    per_class = []
    peak = 0.0
    for row in sample:
        started = time.process_time()
        result = prove_shard(problem, row[None, :])
        per_class.append(time.process_time() - started)
        peak = max(peak, result.stats["peak_rss_mib"])
    per = np.array(per_class)
    mean = float(per.mean())
    sem = float(per.std(ddof=1) / np.sqrt(per.size)) if per.size > 1 else 0.0
    return {
        "partition": partition.text,
        "floor": 1500,
        "top_level_classes": int(classes.shape[0]),
        "sampled": int(per.size),
        "seconds_per_class": {
            "mean": round(mean, 3),
            "median": round(float(np.median(per)), 3),
            "max": round(float(per.max()), 3),
            "sem": round(sem, 3),
        },
        "classes_per_second": round(1 / mean, 3) if mean else None,
        "projected_cpu_hours": round(mean * classes.shape[0] / 3600, 1),
        "projected_cpu_hours_2sem": [
            round((mean - 2 * sem) * classes.shape[0] / 3600, 1),
            round((mean + 2 * sem) * classes.shape[0] / 3600, 1),
        ],
        "hybrid_boggle_cpu_hours": round(24_300 / 3600, 1),
        "peak_rss_mib": peak,
    }


def run() -> dict:
    """The 3x3 proof on one core, and the 3x4 rate."""
    import numba

    if not ENABLE2K.is_file():
        return {"skipped": f"{ENABLE2K} not present"}
    numba.set_num_threads(1)
    dictionary = compile_dictionary(ENABLE2K.read_text().upper().split(), STANDARD)
    out = {
        "baseline": "hybrid-boggle break_all, 610 CPU-s on one thread of this machine (quoted from the issue)",
        "proof_3x3_floor_500": proof_3x3(dictionary),
    }
    if SAMPLE_3X4 > 0:
        out["rate_3x4_floor_1500"] = rate_3x4(dictionary)
    return out
