"""Boggle proof speed: the 3×3 ENABLE2K proof at floor 500 on one core, two local cores and Ray with two
workers, and the 3×4 rate with a projection.

Measured in one run, each configuration in a fresh job folder (nothing resumed): the whole 3×3 proof on
one core (this process), on two local worker processes, and on a local Ray instance
(127.0.0.1, 2 CPUs, one shard per worker at a time); CPU and wall seconds, board count and best score (must
be 42 and 545), the bytes of the three job folders compared (boards and classes tables), peak memory, the
split of time between bounding, splitting and scoring, and the tightness of the top-level bounds. Then,
for 3×4 at floor 1500, the CPU seconds of a seeded random sample of top-level classes and the projected
time of the whole proof on this machine's 2 cores and on 10 and 100 nodes. The 3×3 baseline is
hybrid-boggle's `break_all` (C++), quoted at about 610 CPU-seconds on one thread of this machine for the
same proof; bench_prove_hybrid.py runs hybrid-boggle itself beside ours, class by class, in the same run.

First, the start-up of a proof process (`startup`): the whole `wordstats boggle prove` process on trivial jobs
of ENABLE (2×2 and 3×3, one class each, `--workers 1`, a fresh jobs folder each time), BENCH_PROVE_STARTUP_RUNS
times (default 7) each, interleaved with the anchors: `python -c "import numpy, polars, typer"` (what every such
command imports) and, when it is built (bench_prove_hybrid.py: BENCH_HYBRID_BOGGLE, BENCH_HYBRID_PYTHON),
hybrid-boggle's driver on one 3×3 class of ENABLE2K. The start-up is the process's CPU seconds (its rusage) less
the proof's own (the summary's `cpu_seconds`; hybrid-boggle's: its breaker's), medians; and whether the process
imported numba.

BENCH_PROVE_3X4_SAMPLE sets the 3×4 sample (default 48 classes; 0 skips it); BENCH_PROVE_CONFIGS the
configurations (default "startup,one_core,two_cores,ray_2_workers").
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.prove import Problem, default_partition, prove, prove_shard
from pipeline.boggle.rules import Rules
from pipeline.core import executor as ex
from pipeline.core.cluster import RayEngine
from pipeline.core.config import PROJECT_ROOT
from tests.bench.timing import imported_modules

ENABLE2K = PROJECT_ROOT.parent / "shared" / "corpora" / "enable2k" / "enable2k.txt"
STANDARD = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))
HYBRID_BOGGLE_3X3_CPU_SECONDS = 610  # quoted from the issue: break_all, one thread, this machine
HYBRID_BOGGLE_3X4_CPU_SECONDS = 24_300  # quoted from the issue
SAMPLE_3X4 = int(os.environ.get("BENCH_PROVE_3X4_SAMPLE", "48"))
CONFIGS = os.environ.get("BENCH_PROVE_CONFIGS", "startup,one_core,two_cores,ray_2_workers").split(",")
STARTUP_RUNS = int(os.environ.get("BENCH_PROVE_STARTUP_RUNS", "7"))
TRIVIAL_JOBS = {  # a proof process whose proof takes a few milliseconds: its CPU is the start-up
    "2x2_one_class": ["--size", "2x2", "--floor", "6", "--classes", "AE RST", "--class", "AEST"],
    "3x3_one_class": ["--size", "3x3", "--floor", "300", "--classes", "AEIO LNRST", "--class", "SEATLRATE"],
}
HYBRID_TRIVIAL = ("3", "3", "500", "0")  # hybrid-boggle: 3x3 class 0 at floor 500 (every cell a consonant)
SEED = 2025
RAY_OVERHEAD_SECONDS = 0.013  # per shard, measured by bench_cluster (docs/cluster.md)
LOOPBACK = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token"}


def timed_proof(problem: Problem, engine: ex.Engine) -> dict:
    """The whole proof on `engine` in a fresh job folder: its figures, and the folder's tables' bytes."""
    import polars as pl

    with tempfile.TemporaryDirectory(prefix="bench-prove-") as tmp:
        cpu, wall = time.process_time(), time.perf_counter()
        proof = prove(problem, Path(tmp), engine)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        folder = Path(proof.summary["job_folder"])
        tables = {part: pl.read_parquet(folder / f"{part}.parquet") for part in ("boards", "classes")}
    s = proof.summary
    return {
        "boards": s["boards"],
        "best": s["best"],
        "correct": s["boards"] == 42 and s["best"] == 545,
        "wall_seconds": round(wall, 2),
        "shard_cpu_seconds": s["cpu_seconds"],
        "driver_cpu_seconds": round(cpu, 2),
        "shards": s["shards_computed"],
        "peak_rss_mib": s["peak_rss_mib"],
        "summary": s,
        "_tables": tables,
    }


def proofs_3x3(dictionary) -> dict:
    """The 3x3 proof on one core, two local cores and Ray with two workers, in that order."""
    problem = Problem(3, 3, dictionary, default_partition(3, 3), 500)
    prove_shard(problem, problem.space.canonical_ids()[:1])  # load the kernels outside the timing
    out: dict = {}
    if "one_core" in CONFIGS:
        out["one_core"] = timed_proof(problem, ex.LocalEngine())
        one = out["one_core"]
        one["cpu_seconds"] = one["driver_cpu_seconds"]  # everything ran in this process
        one["vs_hybrid_boggle_cpu"] = round(HYBRID_BOGGLE_3X3_CPU_SECONDS / one["cpu_seconds"], 2)
    if "two_cores" in CONFIGS:
        out["two_cores"] = timed_proof(problem, ex.LocalEngine(2))
    if "ray_2_workers" in CONFIGS:
        for key, value in LOOPBACK.items():
            os.environ.setdefault(key, value)
        import ray

        temp = tempfile.mkdtemp(prefix="raybp", dir="/tmp")
        ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", _temp_dir=temp)
        try:
            out["ray_2_workers"] = timed_proof(problem, RayEngine(None))
        finally:
            ray.shutdown()
    runs = list(out.values())
    first = runs[0]["_tables"]
    same = all(all(r["_tables"][p].equals(first[p]) for p in first) for r in runs)
    for r in runs:
        del r["_tables"]
    keep = ("tightness", "seconds", "partition", "top_level_classes", "top_level_dropped", "classes_examined")
    detail = {k: runs[0]["summary"][k] for k in keep}
    detail.update({k: runs[0]["summary"][k] for k in ("classes_eliminated", "boards_scored", "word_paths")})
    for r in runs:
        del r["summary"]
    return {"configurations": out, "same_tables": same, "detail": detail}


def rate_3x4(dictionary) -> dict:
    """CPU seconds per top-level class of the 3x4 proof at floor 1500, on a seeded sample, and projections."""
    partition = default_partition(3, 4)
    problem = Problem(3, 4, dictionary, partition, 1500)
    classes = problem.space.canonical_ids()
    rng = np.random.default_rng(SEED)
    sample = classes[np.sort(rng.choice(classes.shape[0], SAMPLE_3X4, replace=False))]
    prove_shard(problem, sample[:1])  # load the kernels outside the timing
    per_class, bounds, peak = [], [], 0.0
    for row in sample:
        started = time.process_time()
        parts = prove_shard(problem, np.array([row]))
        per_class.append(time.process_time() - started)
        bounds.append(int(parts["classes"]["tree_bound"][0]))
        peak = max(peak, float(parts["timing"]["peak_rss_mib"][0]))
    per = np.array(per_class)
    n = int(classes.shape[0])
    mean = float(per.mean())
    sem = float(per.std(ddof=1) / np.sqrt(per.size)) if per.size > 1 else 0.0
    total = mean * n
    shard = 128  # classes per shard at the default ~1,024 shards
    projections = {}
    for name, cores in (("this_machine_2_cores", 2), ("10_nodes_x_2_cores", 20), ("100_nodes_x_2_cores", 200)):
        shards = -(-n // shard)
        hours = total / cores * (1 + RAY_OVERHEAD_SECONDS * shards / total) / 3600
        projections[name] = {"cores": cores, "hours": round(hours, 2), "shards_per_core": round(shards / cores, 1)}
    projections["100_nodes_x_32_cores"] = {"cores": 3200, "hours": round(total / 3200 / 3600, 3)}
    return {
        "partition": partition.text,
        "floor": 1500,
        "top_level_classes": n,
        "sampled": int(per.size),
        "seconds_per_class": {
            "mean": round(mean, 3),
            "median": round(float(np.median(per)), 3),
            "max": round(float(per.max()), 3),
            "sem": round(sem, 3),
        },
        "sample_tree_bound_median": float(np.median(bounds)),
        "projected_cpu_hours": round(total / 3600, 1),
        "projected_cpu_hours_2sem": [round((mean - 2 * sem) * n / 3600, 1), round((mean + 2 * sem) * n / 3600, 1)],
        "hybrid_boggle_cpu_hours": round(HYBRID_BOGGLE_3X4_CPU_SECONDS / 3600, 1),
        "projections": projections,
        "peak_rss_mib": round(peak, 1),
    }


def child_cpu(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str, str]:
    """The CPU seconds (user and system) of one child process (this process's children's rusage before and after
    it: it is the only one), its output and its error output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd[:4])} failed: {done.stderr.strip()[-300:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, done.stdout, done.stderr


def startup() -> dict:
    """The start-up of a proof process, on trivial jobs, against the anchors, interleaved; medians."""
    from tests.bench import enable
    from tests.bench.bench_prove_hybrid import ENABLE2K as HYBRID_WORDS
    from tests.bench.bench_prove_hybrid import HYBRID, HYBRID_DRIVER, HYBRID_PYTHON, PARTITION, WORD_LISTS
    from tests.bench.bench_prove_hybrid import available as hybrid_missing
    from tests.bench.timing import process_env

    skipped = enable.missing()
    if skipped:
        return skipped
    rows: dict[str, list[tuple[float, float]]] = {name: [] for name in TRIVIAL_JOBS}
    anchors: dict[str, list[float]] = {"import numpy, polars, typer": []}
    hybrid = "hybrid-boggle driver, one 3x3 class" if hybrid_missing() is None and HYBRID_WORDS.is_file() else ""
    if hybrid:
        rows[hybrid] = []
    imports_numba = {}
    with tempfile.TemporaryDirectory(prefix="bench-prove-startup-") as tmp:
        data = enable.build(Path(tmp) / "out", ["ingest", "dictionary"])
        env = process_env()
        shared = ["--workers", "1", "--json", "-q", "--data-dir", str(data), "--lexicon", enable.LEXICON]
        base = [sys.executable, "-m", "pipeline", "boggle", "prove"]
        loads = [os.getloadavg()[0]]
        for _ in range(STARTUP_RUNS):
            for name, args in TRIVIAL_JOBS.items():
                shutil.rmtree(data / enable.LEXICON / "jobs", ignore_errors=True)  # nothing resumed
                cpu, out, _ = child_cpu([*base, *args, *shared], PROJECT_ROOT, env)
                rows[name].append((cpu, json.loads(out)["summary"]["cpu_seconds"]))
            cpu, _, _ = child_cpu([sys.executable, "-c", "import numpy, polars, typer"], PROJECT_ROOT, env)
            anchors["import numpy, polars, typer"].append(cpu)
            if hybrid:
                argv = [str(HYBRID_PYTHON), "-c", HYBRID_DRIVER, *HYBRID_TRIVIAL, PARTITION, WORD_LISTS["enable2k"][1]]
                cpu, out, _ = child_cpu(argv, HYBRID, {**env, "PYTHONPATH": str(HYBRID), "OMP_NUM_THREADS": "1"})
                rows[hybrid].append((cpu, json.loads(out.strip().splitlines()[-1])["cpu"]))
            loads.append(os.getloadavg()[0])
        for name, args in TRIVIAL_JOBS.items():
            shutil.rmtree(data / enable.LEXICON / "jobs", ignore_errors=True)
            _, _, err = child_cpu([sys.executable, "-X", "importtime", *base[1:], *args, *shared], PROJECT_ROOT, env)
            imports_numba[name] = any(m.split(".")[0] in ("numba", "llvmlite") for m in imported_modules(err))

    def medians(runs: list[tuple[float, float]]) -> dict:
        """Process CPU, the proof's own CPU and the start-up (their difference), medians of the runs."""
        return {
            "process_cpu_seconds": round(statistics.median(r[0] for r in runs), 3),
            "proof_cpu_seconds": round(statistics.median(r[1] for r in runs), 4),
            "startup_cpu_seconds": round(statistics.median(r[0] - r[1] for r in runs), 3),
            "process_cpu_each": [round(r[0], 3) for r in runs],
        }

    out: dict = {"runs": STARTUP_RUNS, "load_averages": [round(x, 2) for x in loads]}
    out.update({name: medians(runs) for name, runs in rows.items()})
    for name, flag in imports_numba.items():
        out[name]["imports_numba"] = flag
    out.update({name: {"cpu_seconds": round(statistics.median(v), 3)} for name, v in anchors.items()})
    out["target_startup_cpu_seconds"] = 0.5
    return out


def run() -> dict:
    """The start-up of a proof process, the 3x3 proof on one core, two cores and Ray, and the 3x4 rate."""
    if not ENABLE2K.is_file():
        return {"skipped": f"{ENABLE2K} not present"}
    out: dict = {
        "baseline": "hybrid-boggle break_all, 610 CPU-s on one thread of this machine (quoted; same-run: prove_hybrid)",
        "load_average_before": os.getloadavg(),
    }
    if "startup" in CONFIGS:
        out["startup"] = startup()
    if not set(CONFIGS) - {"startup"}:
        return out
    dictionary = compile_dictionary(ENABLE2K.read_text().upper().split(), STANDARD)
    out["proof_3x3_floor_500"] = proofs_3x3(dictionary)
    if SAMPLE_3X4 > 0:
        out["rate_3x4_floor_1500"] = rate_3x4(dictionary)
    out["load_average_after"] = os.getloadavg()
    return out
