"""Sharded jobs on one machine or a Ray cluster, with the same bytes either way.

A job (pipeline.core.jobs) is a list of shards: shard k covers items start..stop-1 of the job (boards, games,
runs) and has a seed derived from the job seed and k. A pure, module-level `work(shard, shared)` function computes
each shard's tables (named parts); `merge` combines the shards' rows of a part taken in shard order, so the order
in which shards finish never matters; it must be associative (it is applied to batches of shards, then to
the merged batches). `shared` is the job's large read-only input (a compiled dictionary, a trie): the Ray
engine (pipeline.core.cluster) puts it in the object store once per job.

Each finished shard is written as Parquet under the job's folder, `data/out/<lexicon>/jobs/<job-id>/`, with
provenance in the footer; rerunning the same job computes only the missing shards. The job id is a hash of
the job's kind, parameters, shard layout and the package's code, so a stale shard is never reused.

Adopting it for a new job: write `work` (and `merge` if a plain concatenation is not the answer), build a
`Job`, and call `run(job, data_dir, lexicon, engine, progress)` inside `engine_session(address)`.
See docs/cluster.md.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import polars as pl

from pipeline.core.cluster import ClusterLost, RayEngine, split_address
from pipeline.core.errors import WordstatsError
from pipeline.core.jobs import (
    JOB_FILE,
    POLL,
    Job,
    Parts,
    Shard,
    WorkFn,
    finished,
    job_folder,
    result_path,
    run_shard,
    shard_path,
    write_checksum,
)

MERGE_BATCH = 64  # shards read at once while merging


# ---- engines ------------------------------------------------------------------------------------


class Engine(Protocol):
    """Runs shards of a job and yields each shard's parts as it finishes (in any order)."""

    name: str
    address: str

    def map(self, job: Job, shards: list[Shard], stop: Callable[[], bool]) -> Iterator[tuple[Shard, Parts]]:
        """Run `shards` of `job`, yielding (shard, parts) as each finishes; return early once `stop()`."""
        ...

    def start(self) -> None:
        """Get ready to run shards (connect to a cluster); an error if that is impossible."""
        ...

    def close(self) -> None:
        """Release what the engine started."""
        ...


_SHARED: dict[str, Any] = {}  # a local worker process's copy of the job's shared input


def _init_process(shared: Any) -> None:
    """Keep the job's shared input in a local worker process, which leaves Ctrl-C to the driver."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _SHARED["value"] = shared


def _process_shard(work: WorkFn, shard: Shard) -> Parts:
    """Compute one shard in a local worker process (one numba thread)."""
    return run_shard(work, shard, _SHARED["value"], 1)


class LocalEngine:
    """This machine: shards one after another on every core (numba threads), or in worker processes."""

    name = "local"
    address = ""

    def __init__(self, processes: int | None = None):
        self.processes = processes  # None: one process, numba threads; N: N worker processes

    def map(self, job: Job, shards: list[Shard], stop: Callable[[], bool]) -> Iterator[tuple[Shard, Parts]]:
        """Run the shards here, in order (threads), or in a pool of processes (pure-Python work)."""
        if not self.processes or self.processes < 2 or len(shards) < 2:
            for shard in shards:
                if stop():
                    return
                yield shard, run_shard(job.work, shard, job.shared)
            return
        import concurrent.futures as cf
        import multiprocessing

        pool = cf.ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_process,
            initargs=(job.shared,),
        )
        try:
            running = {pool.submit(_process_shard, job.work, s): s for s in shards}
            while running and not stop():
                done, _ = cf.wait(running, timeout=POLL, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def start(self) -> None:
        """Nothing to start."""

    def close(self) -> None:
        """Nothing to release."""


def engine_for(address: str | None, processes: int | None = None) -> Engine:
    """The engine of an address: empty or None is this machine, anything else Ray (local, auto, HOST:PORT)."""
    if not address:
        return LocalEngine(processes)
    return RayEngine(address)


# ---- running a job ------------------------------------------------------------------------------


@dataclass
class JobResult:
    """A finished job: its merged tables, its folder, and how many shards this run computed and reused."""

    job: Job
    folder: Path
    tables: Parts
    computed: int
    reused: int
    items_computed: int
    seconds: float

    @property
    def items_per_second(self) -> float | None:
        """Items of the shards computed by this run, per second (None when nothing was computed)."""
        return self.items_computed / self.seconds if self.items_computed and self.seconds > 0 else None

    def summary(self) -> str:
        """One line: the job, shards computed and reused, and where it lives."""
        return (
            f"job {self.job.job_id}: {self.computed:,} shard{'s' if self.computed != 1 else ''} computed, "
            f"{self.reused} reused ({self.folder})"
        )


def provenance(job: Job, engine: Engine, shard: Shard | None = None) -> dict[str, Any]:
    """The footer of a shard's or a merged table's Parquet file."""
    from pipeline import __version__

    meta: dict[str, Any] = {
        "stage": job.kind,
        "job": job.job_id,
        "params": job.params,
        "items": job.items,
        "shard_size": job.shard_size,
        "seed": job.seed,
        "version": __version__,
        "engine": engine.name,
        "address": engine.address,
    }
    if shard is not None:
        meta.update(shard=shard.index, start=shard.start, stop=shard.stop, shard_seed=shard.seed)
    return meta


@contextlib.contextmanager
def _locked(folder: Path, job: Job):
    """Hold the job folder's lock: one run of a job at a time; a second run waits for the first, then reuses the
    shards it finished."""
    import fcntl

    from pipeline.core.errors import note

    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            note(f"job {job.job_id} is running in another process ({folder}); waiting for it")
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def run_job(job: Job, folder: Path, engine: Engine | None = None, progress=None) -> JobResult:
    """Run the job's missing shards on `engine` (default local), write each as it finishes, and merge.

    Ctrl-C stops the job: finished shards stay in `folder`, and running the same job again resumes."""
    from pipeline.core.files import write_json, write_parquet

    engine = engine or LocalEngine()
    folder = Path(folder)
    shards = job.shards()
    started = time.perf_counter()
    if not all(finished(folder, job, s, repair=False) for s in shards):  # not under the lock: look, touch nothing
        engine.start()  # a cluster that cannot be reached fails here, before anything is written
    with _locked(folder, job):
        if not (folder / JOB_FILE).is_file():
            write_json(folder / JOB_FILE, job.describe())
        todo = [s for s in shards if not finished(folder, job, s)]
        computed = items = 0
        with _job_bar(progress, job, len(shards), len(shards) - len(todo)) as bar, _CtrlC() as ctrl_c:
            try:
                for shard, parts in engine.map(job, todo, ctrl_c.pressed):
                    missing = [p for p in job.parts if p not in parts]
                    if missing:
                        raise WordstatsError(f"{job.kind}: shard {shard.index} returned no table {missing[0]!r}")
                    for part in job.parts:
                        target = shard_path(folder, shard.index, part)
                        write_parquet(target, parts[part].rechunk(), provenance(job, engine, shard))
                        write_checksum(target)
                    computed += 1
                    items += shard.size
                    bar.advance(shard.size)
            except KeyboardInterrupt:  # a second Ctrl-C: stop now
                ctrl_c.count += 1
            except ClusterLost as exc:
                kept = sum(finished(folder, job, s) for s in shards)
                raise ClusterLost(
                    f"{exc} during job {job.job_id}: {kept} of {len(shards)} shards are kept in {folder}; start "
                    f"the cluster again (or leave out --ray) and run the same command to resume"
                ) from None
            if ctrl_c.count:
                kept = sum(finished(folder, job, s) for s in shards)
                raise WordstatsError(
                    f"interrupted: {kept} of {len(shards)} shards of job {job.job_id} are kept "
                    f"in {folder}; run the same command again to resume",
                    exit_code=130,
                )
        tables = merge_shards(job, folder)
        for part, table in tables.items():
            write_parquet(result_path(folder, part), table, provenance(job, engine))
    return JobResult(job, folder, tables, computed, len(shards) - len(todo), items, time.perf_counter() - started)


class _CtrlC:
    """While a job runs, Ctrl-C asks it to stop after the shard in hand (a second Ctrl-C stops at once)."""

    def __init__(self):
        self.count = 0
        self.previous: Any = None

    def pressed(self) -> bool:
        """Whether Ctrl-C was pressed."""
        return self.count > 0

    def _handle(self, signum, frame) -> None:
        """Count a Ctrl-C; the second one interrupts."""
        self.count += 1
        if self.count > 1:
            raise KeyboardInterrupt

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def merge_shards(job: Job, folder: Path) -> Parts:
    """Each part of every shard, read in shard order and merged a batch of shards at a time (the merge is
    associative: merging merged batches gives the merge of everything), so memory stays bounded."""
    shards = job.shards()
    tables = {}
    for part in job.parts:
        merged: pl.DataFrame | None = None
        for first in range(0, len(shards), MERGE_BATCH):
            frames = [pl.read_parquet(shard_path(folder, s.index, part)) for s in shards[first : first + MERGE_BATCH]]
            merged = job.merge(part, pl.concat(([] if merged is None else [merged]) + frames, how="vertical"))
        tables[part] = (merged if merged is not None else pl.DataFrame()).rechunk()
    return tables


@contextlib.contextmanager
def engine_session(address: str | None, processes: int | None = None) -> Iterator[Engine]:
    """The engine of `address` for the duration of the block (one connection for several jobs)."""
    engine = engine_for(address, processes)
    try:
        yield engine
    finally:
        engine.close()


def run(job: Job, data_dir: Path | None, lexicon: str, engine: Engine | None = None, progress=None) -> JobResult:
    """Run `job` for a lexicon in its job folder (a temporary one when `data_dir` is None)."""
    if data_dir is None:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="wordstats-job-") as tmp:
            return run_job(job, Path(tmp), engine, progress)
    return run_job(job, job_folder(data_dir, lexicon, job), engine, progress)


def cluster_address(config, given: str | None = None) -> str:
    """Where jobs run: `given` (from --ray) if any, else the config's [cluster] address ("" = this machine)."""
    from pipeline.core.declared import CORE_SETTINGS
    from pipeline.core.settings import read

    sec = config.section("cluster")
    address = read(sec, CORE_SETTINGS)["address"]
    if address not in ("", "local", "auto"):
        try:
            split_address(address)
        except WordstatsError as exc:
            sec.fail("address", str(exc))
    return address if given is None else given


# ---- progress -----------------------------------------------------------------------------------


class _NoBar:
    """A progress bar that shows nothing."""

    def advance(self, items: int) -> None:
        """Count one more shard of `items` items done."""


class _Bar:
    """Shards done, items per second and time left, on stderr."""

    def __init__(self, bar, task_id, unit: str):
        self.bar, self.task_id, self.unit = bar, task_id, unit
        self.items, self.started = 0, time.perf_counter()

    def advance(self, items: int) -> None:
        """Count one more shard of `items` items done."""
        self.items += items
        rate = self.items / max(time.perf_counter() - self.started, 1e-9)
        self.bar.update(self.task_id, advance=1, rate=f"{rate:,.0f} {self.unit}/s")


@contextlib.contextmanager
def _job_bar(progress, job: Job, total: int, done: int):
    """A progress bar for a job's shards, unless `progress` is None or quiet."""
    if progress is None or getattr(progress, "quiet", True) or done == total:
        yield _NoBar()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.progress import Progress as RichProgress

    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("shards"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    ]
    with RichProgress(*columns, console=Console(file=sys.stderr)) as bar:
        yield _Bar(bar, bar.add_task(job.kind, total=total, completed=done, rate=""), job.unit)
