"""Jobs and their shards: what a job computes, how it splits, where its files live, and one shard's work.

A job is a list of shards: shard k covers items start..stop-1 of the job (boards, games, runs) and has a seed
derived from the job seed and k. Each finished shard is a Parquet file per part under the job's folder,
`data/out/<lexicon>/jobs/<job-id>/`; the job id hashes the job's kind, parameters, shard layout and the
package's code, so a stale shard is never reused. The engines that run shards: pipeline.core.executor (this
machine) and pipeline.core.cluster (Ray)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError

Parts = dict[str, pl.DataFrame]
WorkFn = Callable[["Shard", Any], Parts]
MergeFn = Callable[[str, pl.DataFrame], pl.DataFrame]

JOBS = "jobs"  # a lexicon's folder of jobs: data/out/<lexicon>/jobs/<job-id>/
JOB_FILE = "job.json"
ENGINE_KEYS = ("engine", "address")  # footer keys that name where a shard ran (the only bytes that may differ)
MAX_SHARDS = 1_000_000
POLL = 0.25  # seconds between an engine's looks at Ctrl-C while shards run elsewhere


def shard_seed(job_seed: int, index: int) -> int:
    """The seed of shard `index`: a 63-bit hash of the job seed and the index, numpy's
    `SeedSequence([job_seed, index]).generate_state(1, np.uint64)[0] >> 1`, computed here (importing numpy.random
    costs a process 10 ms, and the executor names every shard's seed; a test checks the two agree)."""
    return _seed_state([int(job_seed), int(index)]) >> 1


_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED  # SeedSequence's constants
_MIX_L, _MIX_R, _POOL = 0xCA01F9DD, 0x4973F715, 4


def _seed_state(entropy: list[int]) -> int:
    """SeedSequence(entropy).generate_state(1, np.uint64)[0] for non-negative ints, as numpy computes it: each int
    as its 32-bit words (least significant first), mixed into a pool of 4 words, two words drawn from it."""
    if min(entropy) < 0:
        raise ValueError("expected non-negative integer")  # as numpy says
    words = [w for n in entropy for w in ([(n >> s) & _M32 for s in range(0, max(n.bit_length(), 1), 32)])]
    hash_const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value ^= hash_const
        hash_const = (hash_const * _MULT_A) & _M32
        value = (value * hash_const) & _M32
        return value ^ (value >> 16)

    def mix(x: int, y: int) -> int:
        result = (_MIX_L * x - _MIX_R * y) & _M32
        return result ^ (result >> 16)

    pool = [hashmix(words[i] if i < len(words) else 0) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL, len(words)):
        for dst in range(_POOL):
            pool[dst] = mix(pool[dst], hashmix(words[src]))
    state, const = [], _INIT_B
    for value in pool[:2]:
        value ^= const
        const = (const * _MULT_B) & _M32
        value = (value * const) & _M32
        state.append(value ^ (value >> 16))
    return state[0] | state[1] << 32


@dataclass(frozen=True)
class Shard:
    """One piece of a job: items start..stop-1 and the shard's own seed."""

    index: int
    start: int
    stop: int
    seed: int

    @property
    def size(self) -> int:
        """How many items the shard covers."""
        return self.stop - self.start


def concat(part: str, frames: pl.DataFrame) -> pl.DataFrame:
    """The default merge: the shards' rows in shard order, unchanged."""
    return frames


@dataclass(frozen=True)
class Job:
    """A sharded computation: what it is (kind, params), how it splits, and the function of one shard."""

    kind: str  # e.g. "boggle-random"; names the job in its folder and provenance
    params: dict[str, Any]  # everything the result depends on besides the code (JSON), hashed into the id
    items: int  # boards, games or runs in all
    shard_size: int  # items per shard (the last shard may be smaller)
    seed: int  # the job seed; shard seeds derive from it
    work: WorkFn  # module-level pure function: (shard, shared) -> {part: DataFrame}
    parts: tuple[str, ...]  # the names of the tables each shard returns
    shared: Any = field(default=None, compare=False, repr=False)  # large read-only input, shipped once
    merge: MergeFn = concat  # (part, rows of shards in order) -> merged table; associative (applied in batches)
    unit: str = "items"  # what an item is, for the progress bar ("boards", "games")
    cpus_per_shard: int = 1  # cores a shard uses on a Ray worker (numba threads)
    retries: int = 3  # Ray re-runs a shard whose worker died this many times

    def __post_init__(self):
        if self.items < 0:
            raise WordstatsError(f"{self.kind}: the number of {self.unit} must be at least 0, got {self.items}")
        if self.shard_size < 1:
            raise WordstatsError(f"{self.kind}: the shard size must be at least 1, got {self.shard_size}")
        if -(-self.items // self.shard_size) > MAX_SHARDS:
            raise WordstatsError(
                f"{self.kind}: {self.items:,} {self.unit} in shards of {self.shard_size:,} is more "
                f"than {MAX_SHARDS:,} shards; use a larger shard size"
            )

    @cached_property
    def job_id(self) -> str:
        """A hash of the kind, parameters, shard layout and code: the name of the job's folder."""
        text = json.dumps(
            {
                "kind": self.kind,
                "params": self.params,
                "items": self.items,
                "shard_size": self.shard_size,
                "seed": self.seed,
                "parts": list(self.parts),
                "code": code_digest(),
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        return f"{self.kind}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"

    def shards(self) -> list[Shard]:
        """Every shard of the job, in order."""
        return [
            Shard(k, start, min(start + self.shard_size, self.items), shard_seed(self.seed, k))
            for k, start in enumerate(range(0, self.items, self.shard_size))
        ]

    def describe(self) -> dict[str, Any]:
        """What job.json records about the job."""
        return {
            "job": self.job_id,
            "kind": self.kind,
            "params": self.params,
            "items": self.items,
            "shard_size": self.shard_size,
            "shards": len(self.shards()),
            "seed": self.seed,
            "parts": list(self.parts),
            "unit": self.unit,
        }


def words_digest(words: Sequence[str]) -> str:
    """A hash of a word list (a job's input, recorded in its parameters)."""
    return hashlib.sha256("\n".join(words).encode()).hexdigest()


@functools.cache
def code_digest() -> str:
    """A hash of the package's sources (Python, and the C of its compiled extensions): a job run by other code gets
    another id."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".c", ".h")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def job_folder(data_dir: Path, lexicon: str, job: Job) -> Path:
    """Where a lexicon's job keeps its shards and merged tables: data/out/<lexicon>/jobs/<job-id>/."""
    return Path(data_dir) / lexicon / JOBS / job.job_id


def shard_path(folder: Path, index: int, part: str) -> Path:
    """The Parquet file of one part of one shard."""
    return folder / f"shard-{index:06d}.{part}.parquet"


def result_path(folder: Path, part: str) -> Path:
    """The Parquet file of one merged part."""
    return folder / f"{part}.parquet"


def finished(folder: Path, job: Job, shard: Shard, repair: bool = True) -> bool:
    """Whether every part of the shard has been written, matches the checksum written after it and reads as
    Parquet. With `repair` (only under the job's lock: another run may be writing the shard), a part that does not
    (a crash before it reached the disk leaves an empty or partial file, or no checksum; a bad disk changes its
    bytes) is named on stderr and set aside as NAME.damaged, so that the shard is computed again."""
    paths = [shard_path(folder, shard.index, part) for part in job.parts]
    if not all(p.is_file() for p in paths):
        return False
    if not repair:
        return not any(shard_damage(p) for p in paths)
    damaged = [(p, why) for p in paths if (why := shard_damage(p))]
    for p, why in damaged:
        aside = p.with_name(p.name + ".damaged")
        os.replace(p, aside)
        checksum_path(p).unlink(missing_ok=True)
        sys.stderr.write(f"note: {p} {why}: set aside as {aside.name}, computed again\n")
    return not damaged


def checksum_path(path: Path) -> Path:
    """The checksum written beside a shard's part: NAME.sha256 (its size and sha256)."""
    return path.with_name(path.name + ".sha256")


def write_checksum(path: Path) -> None:
    """Write the checksum of a shard's part beside it, once the part is on disk."""
    from pipeline.core.files import sha256_file, write_text

    write_text(checksum_path(path), f"{path.stat().st_size} {sha256_file(path)}\n")


def shard_damage(path: Path) -> str:
    """What is wrong with a shard's part ("" when nothing): no checksum, bytes that do not match it, or no
    Parquet footer."""
    from pipeline.core.files import sha256_file

    try:
        size, digest = checksum_path(path).read_text().split()
    except (OSError, ValueError):
        return "has no checksum (written when a crash cut it short?)"
    if path.stat().st_size != int(size) or sha256_file(path) != digest:
        return "does not match its checksum"
    if not reads_as_parquet(path):
        return "does not read as Parquet"
    return ""


def reads_as_parquet(path: Path) -> bool:
    """Whether a file's Parquet footer reads (its schema)."""
    import polars as pl

    try:
        pl.read_parquet_schema(path)
    except Exception:  # noqa: BLE001 (any failure to read is a damaged file)
        return False
    return True


def run_shard(work: WorkFn, shard: Shard, shared: Any, threads: int | None = None) -> Parts:
    """Compute one shard (on numba `threads` threads when given) and check it returned tables."""
    if threads is not None:
        numba_threads(threads)
    parts = work(shard, shared)
    if not isinstance(parts, dict) or not all(isinstance(v, pl.DataFrame) for v in parts.values()):
        raise TypeError(f"{work.__name__} must return a dict of polars DataFrames, got {type(parts).__name__}")
    return parts


def numba_threads(threads: int) -> None:
    """Run numba's kernels on `threads` threads in this process: at once when numba is loaded; else as numba's
    thread count when the work loads it (NUMBA_NUM_THREADS, read as numba is imported), so that a worker whose
    work needs no numba (the Boggle proof's C kernels) never loads it (0.3 s and more of its start-up)."""
    threads = max(1, threads)
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    else:
        os.environ["NUMBA_NUM_THREADS"] = str(threads)


def strip_engine(meta: dict[bytes, bytes] | None) -> dict[bytes, bytes]:
    """A Parquet footer's key-value metadata without the keys that name the engine (for comparisons)."""
    drop = {f"wordstats.{k}".encode() for k in ENGINE_KEYS}
    return {k: v for k, v in (meta or {}).items() if k not in drop}


def same_bytes(a: Path, b: Path) -> bool:
    """Whether two Parquet files hold the same bytes apart from the footer keys that name the engine."""
    import pyarrow.parquet as pq

    def body(path: Path) -> bytes:
        data = path.read_bytes()
        footer = int.from_bytes(data[-8:-4], "little")
        return data[: len(data) - 8 - footer]

    meta_a, meta_b = pq.read_metadata(a), pq.read_metadata(b)
    return (
        body(a) == body(b)
        and strip_engine(meta_a.metadata) == strip_engine(meta_b.metadata)
        and meta_a.to_dict()["row_groups"] == meta_b.to_dict()["row_groups"]
    )
