"""Memory estimated before allocating: a command whose memory grows with a count option checks its estimate
against the memory available and refuses in one line, before any work, when it would not fit."""

from __future__ import annotations

import os

from pipeline.core.errors import FieldError, escaped

SHARE = 0.8  # the share of the available memory a command may plan to use
SHARD_BYTES = 4096  # one shard of a job held in memory while it runs: its description, file names, results
ROW_BYTES = 64  # the overhead of one row of a small result table (polars columns, Python objects on the way)
WORKER_BYTES = 300 * 2**20  # one worker process: Python, numpy, numba and a compiled kernel


def available_bytes() -> int | None:
    """The memory this machine can still give (MemAvailable of /proc/meminfo), or None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def human(n: float) -> str:
    """A byte count for people: 512 MB, 3.2 GB, 40 TB."""
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:,.0f} {unit}" if unit in ("bytes", "KB", "MB") or n >= 100 else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:,.0f} TB"


def check_memory(needed: float, what: str, available: int | None = None) -> None:
    """Refuse, in one line naming the request's fields, a plan that needs more than SHARE of the memory available;
    `what` is a FieldError template ("{sample} 1,000,000")."""
    available = available_bytes() if available is None else available
    if available is not None and needed > SHARE * available:
        raise FieldError(
            what
            + escaped(
                f" needs about {human(needed)} of memory, more than the {human(SHARE * available)} this machine "
                f"can give now: ask for less"
            )
        )


def job_bytes(items: int, shard_size: int, shard_item_bytes: float = 0.0, kept_item_bytes: float = 0.0) -> float:
    """A sharded job's memory: its shards' bookkeeping, one shard's working arrays, and the rows it keeps."""
    shards = -(-items // shard_size)
    return shards * SHARD_BYTES + min(shard_size, items) * shard_item_bytes + items * kept_item_bytes
