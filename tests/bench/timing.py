"""Timing helpers for benchmarks: medians over repeats, measured in one process."""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], repeat: int = 5, warmup: int = 1) -> float:
    """The median wall time of `fn()` over `repeat` runs after `warmup` unmeasured runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q / 100
    lo, hi = int(pos), min(int(pos) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def process_env(**extra: str) -> dict[str, str]:
    """The environment of a fresh command as a user's shell gives it: quiet, and Python writing its bytecode
    cache (a development shell may set PYTHONDONTWRITEBYTECODE, which makes every start compile the sources)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "WORDSTATS_QUIET": "1", **extra}


def process_seconds(argv: list[str], env: dict[str, str] | None = None) -> float:
    """Wall time of one fresh process, in seconds; a failure is an error, not a figure."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env if env is not None else process_env())
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.decode()[:300]}")
    return elapsed


def imported_modules(importtime: str) -> set[str]:
    """The modules a process imported, from the standard error of `python -X importtime`."""
    return {line.rsplit("|", 1)[-1].strip() for line in importtime.splitlines() if line.startswith("import time:")}
