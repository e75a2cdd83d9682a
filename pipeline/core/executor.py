"""Sharded jobs on one machine or a Ray cluster, with the same bytes either way.

A job is a list of shards: shard k covers items start..stop-1 of the job (boards, games, runs) and has a
seed derived from the job seed and k. A pure, module-level `work(shard, shared)` function computes each
shard's tables (named parts); `merge` combines the shards' rows of a part taken in shard order, so the order
in which shards finish never matters; it must be associative (it is applied to batches of shards, then to
the merged batches). `shared` is the job's large read-only input (a compiled dictionary, a trie): the Ray
engine puts it in the object store once per job.

Each finished shard is written as Parquet under the job's folder, `data/out/<lexicon>/jobs/<job-id>/`, with
provenance in the footer; rerunning the same job computes only the missing shards. The job id is a hash of
the job's kind, parameters, shard layout and the package's code, so a stale shard is never reused.

Adopting it for a new job: write `work` (and `merge` if a plain concatenation is not the answer), build a
`Job`, and call `run(job, data_dir, lexicon, engine, progress)` inside `engine_session(address)`.
See docs/cluster.md.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import ipaddress
import json
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import polars as pl

from pipeline.core.errors import WordstatsError

Parts = dict[str, pl.DataFrame]
WorkFn = Callable[["Shard", Any], Parts]
MergeFn = Callable[[str, pl.DataFrame], pl.DataFrame]

JOBS = "jobs"  # a lexicon's folder of jobs: data/out/<lexicon>/jobs/<job-id>/
JOB_FILE = "job.json"
ENGINE_KEYS = ("engine", "address")  # footer keys that name where a shard ran (the only bytes that may differ)
MAX_SHARDS = 1_000_000
LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token"}  # Ray binds to 127.0.0.1
CONNECT_TIMEOUT = 5.0  # seconds to reach a cluster's address before giving up
HEAD_CHECK_SECONDS = 1.0  # while a job runs on Ray, how often the cluster's head is looked at
HEAD_LOST_AFTER = 2  # looks in a row that find no head: the cluster is gone
MERGE_BATCH = 64  # shards read at once while merging
POLL = 0.25  # seconds between looks at Ctrl-C while shards run elsewhere


# ---- jobs and shards ----------------------------------------------------------------------------


def shard_seed(job_seed: int, index: int) -> int:
    """The seed of shard `index`: a 63-bit hash of the job seed and the index (numpy's SeedSequence)."""
    state = np.random.SeedSequence([int(job_seed), int(index)]).generate_state(1, dtype=np.uint64)[0]
    return int(state >> np.uint64(1))


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
    """A hash of the package's Python sources: a job run by other code gets another id."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
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


def finished(folder: Path, job: Job, shard: Shard) -> bool:
    """Whether every part of the shard has been written."""
    return all(shard_path(folder, shard.index, part).is_file() for part in job.parts)


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


def _run_shard(work: WorkFn, shard: Shard, shared: Any, threads: int | None = None) -> Parts:
    """Compute one shard (on numba `threads` threads when given) and check it returned tables."""
    if threads is not None:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    parts = work(shard, shared)
    if not isinstance(parts, dict) or not all(isinstance(v, pl.DataFrame) for v in parts.values()):
        raise TypeError(f"{work.__name__} must return a dict of polars DataFrames, got {type(parts).__name__}")
    return parts


_SHARED: dict[str, Any] = {}  # a local worker process's copy of the job's shared input


def _init_process(shared: Any) -> None:
    """Keep the job's shared input in a local worker process, which leaves Ctrl-C to the driver."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _SHARED["value"] = shared


def _process_shard(work: WorkFn, shard: Shard) -> Parts:
    """Compute one shard in a local worker process (one numba thread)."""
    return _run_shard(work, shard, _SHARED["value"], 1)


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
                yield shard, _run_shard(job.work, shard, job.shared)
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


def split_address(address: str) -> tuple[str, int]:
    """(host, port) of a cluster address written HOST:PORT."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise WordstatsError(f"bad Ray address {address!r}: write HOST:PORT (e.g. 127.0.0.1:6379), auto or local")
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine's loopback interface."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_reachable(host: str, port: int, timeout: float = CONNECT_TIMEOUT) -> None:
    """An error unless something listens at host:port (so that a wrong address fails in seconds)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise WordstatsError(
            f"cannot reach the Ray cluster at {host}:{port} "
            f"({exc.strerror or type(exc).__name__}); start it with `ray start --head` "
            f"or check the address"
        ) from None


def import_ray():
    """The ray module, or an error that says how to install it."""
    try:
        import ray
    except ImportError:
        raise WordstatsError("Ray is not installed: pip install 'wordstats[ray]'") from None
    return ray


_WORKER_SHARED: dict[str, Any] = {}  # a Ray worker's copy of the current job's shared input, by object id


def _ray_shard(work: WorkFn, shard: Shard, boxed: list[Any], threads: int) -> Parts:
    """A shard on a Ray worker: the job's shared input is read from the object store once per worker (not once
    per task), and numba uses the cores the task asked for."""
    import ray

    ref = boxed[0]  # boxed, so that Ray hands over the reference rather than a fresh copy for every task
    if ref.hex() not in _WORKER_SHARED:
        _WORKER_SHARED.clear()  # one job's input at a time
        _WORKER_SHARED[ref.hex()] = ray.get(ref)
    return _run_shard(work, shard, _WORKER_SHARED[ref.hex()], threads)


class RayEngine:
    """A Ray cluster: `local` starts a private one on this machine (loopback only), `auto` joins the
    cluster this machine belongs to, HOST:PORT joins that head; None uses the Ray already initialised."""

    name = "ray"

    def __init__(self, address: str | None = "local", num_cpus: int | None = None, parallel: int | None = None):
        self.address = address or "current"
        self.num_cpus = num_cpus  # CPUs of a local instance (default: all)
        self.parallel = parallel  # at most this many shards at once (default: as many as the cluster runs)
        self.owned = False
        self.lost = False  # the cluster went away while a job ran
        self.native_stderr = NativeStderr()
        if address is None and not _ray_running():
            raise WordstatsError("Ray is not initialised: give an address (local, auto or HOST:PORT)")
        if address not in (None, "local", "auto"):
            split_address(address)

    def start(self) -> None:
        """Connect (or start the local instance) unless Ray is already initialised in this process."""
        if not _ray_running():
            connect(self.address, self.num_cpus)
            self.owned = True
            self.native_stderr.silence()

    def map(self, job: Job, shards: list[Shard], stop: Callable[[], bool]) -> Iterator[tuple[Shard, Parts]]:
        """Submit the shards as Ray tasks (a bounded number in flight) and yield each as it finishes."""
        if not shards:
            return
        self.start()
        import ray

        shared = ray.put(job.shared)  # once per job: every task reads the same object
        task = ray.remote(_ray_shard).options(
            num_cpus=job.cpus_per_shard, max_retries=job.retries, retry_exceptions=False
        )
        window = self.parallel or max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        todo = list(reversed(shards))
        running: dict[Any, Shard] = {}
        head = HeadWatch(self.address, ray.get_runtime_context().gcs_address)
        try:
            while (todo or running) and not stop():
                head.check()
                while todo and len(running) < window:
                    shard = todo.pop()
                    running[task.remote(job.work, shard, [shared], job.cpus_per_shard)] = shard
                ready, _ = ray.wait(list(running), num_returns=1, timeout=POLL)
                for ref in ready:
                    shard = running.pop(ref)
                    yield shard, _ray_result(ray, ref, job, shard)
        except ClusterLost:
            self.lost = True  # nothing to cancel or disconnect from: the cluster is gone
            raise
        finally:
            for ref in running if not self.lost else ():
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)

    def close(self) -> None:
        """Disconnect from (or stop) the Ray instance this engine started (not from a cluster that is gone)."""
        if self.owned and not self.lost:
            import ray

            ray.shutdown()
            self.owned = False
        self.native_stderr.restore()


class NativeStderr:
    """While connected to Ray, what native code writes to file descriptor 2 is dropped: Ray's C++ core worker
    logs its own lines there (as a lost head goes, say), where the command says what happened in one line and
    Ray keeps them in its session's log files. Python's sys.stderr moves to a copy of the descriptor first, so
    the command's own lines, progress bars and the workers' output still show."""

    def __init__(self):
        self.saved: int | None = None  # a copy of descriptor 2 as it was
        self.python: Any = None  # sys.stderr as it was

    def silence(self) -> None:
        """Point descriptor 2 at /dev/null, and sys.stderr at a copy of the old descriptor if it wrote there."""
        if self.saved is not None:
            return
        try:
            sys.stderr.flush()
            shares = sys.stderr.fileno() == 2
        except (AttributeError, OSError, ValueError):  # a captured or replaced stream: it does not write to fd 2
            shares = False
        self.saved = os.dup(2)
        if shares:
            self.python = sys.stderr
            stream = open(os.dup(self.saved), "w", encoding=sys.stderr.encoding, errors=sys.stderr.errors)
            stream.reconfigure(line_buffering=True)
            sys.stderr = stream
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)

    def restore(self) -> None:
        """Descriptor 2 and sys.stderr as they were."""
        if self.saved is None:
            return
        if self.python is not None:
            sys.stderr.flush()
            sys.stderr.close()
            sys.stderr, self.python = self.python, None
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.saved = None


class ClusterLost(WordstatsError):
    """The Ray cluster stopped answering while a job ran (its head was killed or its machine lost). The command
    leaves at once once it has said so: Ray's threads would keep the process waiting a minute for the cluster
    and print their own log."""

    leave_at_once = True


class HeadWatch:
    """Looks at the cluster's head (its GCS port) every HEAD_CHECK_SECONDS while a job runs; ClusterLost once
    HEAD_LOST_AFTER looks in a row find nothing listening."""

    def __init__(self, address: str, gcs_address: str):
        self.address = address
        self.host, self.port = split_address(gcs_address)
        self.misses, self.last = 0, time.monotonic()

    def check(self) -> None:
        """Look at the head if it is time to; ClusterLost when it is gone."""
        if time.monotonic() - self.last < HEAD_CHECK_SECONDS:
            return
        self.last = time.monotonic()
        try:
            with socket.create_connection((self.host, self.port), timeout=HEAD_CHECK_SECONDS / 2):
                self.misses = 0
        except OSError:
            self.misses += 1
            if self.misses >= HEAD_LOST_AFTER:
                raise ClusterLost(f"the Ray cluster at {self.address} stopped answering (its head is gone)") from None


def _ray_running() -> bool:
    """Whether this process is connected to Ray (ray is imported only after the loopback settings are set)."""
    ray = sys.modules.get("ray")
    return ray is not None and ray.is_initialized()


def _ray_result(ray, ref, job: Job, shard: Shard) -> Parts:
    """A finished task's tables; a failed shard is a one-line error naming it."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, WordstatsError):
            raise cause from None
        raise WordstatsError(f"{job.kind}: shard {shard.index} failed: {_first_line(cause or exc)}") from None
    except ray.exceptions.RayError as exc:
        raise WordstatsError(
            f"{job.kind}: shard {shard.index} failed after {job.retries} retries: {_first_line(exc)}"
        ) from None


def _first_line(exc: BaseException) -> str:
    """The first line of an exception's message."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def ray_token_configured() -> bool:
    """Whether Ray's token authentication can find a token: RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or
    ~/.ray/auth_token (what `ray get-auth-token --generate` writes)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    return Path(path).is_file()


def need_token(address: str) -> None:
    """A one-line error when joining a cluster under token authentication without its token."""
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token" and not ray_token_configured():
        raise WordstatsError(
            f"the Ray cluster at {address} uses token authentication and no token was found here: copy the head's "
            f"~/.ray/auth_token to this machine or set RAY_AUTH_TOKEN (docs/cluster.md)"
        )


def connect(address: str, num_cpus: int | None = None) -> None:
    """ray.init for `address`: local (a private instance on 127.0.0.1, with a token of its own when none is
    configured), auto, or HOST:PORT (checked first)."""
    import logging

    kwargs: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": True}
    if address == "local":
        for key, value in LOOPBACK_ENV.items():
            os.environ.setdefault(key, value)
        if not ray_token_configured():
            os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)  # this process and its private instance only
        kwargs.update(
            address="local", num_cpus=num_cpus or os.cpu_count(), include_dashboard=False, _node_ip_address="127.0.0.1"
        )
    elif address == "auto":
        kwargs.update(address="auto")
    else:
        host, port = split_address(address)
        check_reachable(host, port)
        if is_loopback(host):
            for key, value in LOOPBACK_ENV.items():
                os.environ.setdefault(key, value)
            kwargs["_node_ip_address"] = "127.0.0.1"
        kwargs["address"] = f"{host}:{port}"
        need_token(kwargs["address"])
    ray = import_ray()
    try:
        ray.init(**kwargs)
    except Exception as exc:  # ray raises ConnectionError, RuntimeError, ValueError... for a bad cluster
        raise WordstatsError(f"cannot connect to the Ray cluster at {address}: {_first_line(exc)}") from None


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
    """Hold the job folder's lock: one run of a job at a time."""
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise WordstatsError(f"job {job.job_id} is running in another process ({folder})") from None
        yield


def run_job(job: Job, folder: Path, engine: Engine | None = None, progress=None) -> JobResult:
    """Run the job's missing shards on `engine` (default local), write each as it finishes, and merge.

    Ctrl-C stops the job: finished shards stay in `folder`, and running the same job again resumes."""
    from pipeline.core.store import write_json, write_parquet

    engine = engine or LocalEngine()
    folder = Path(folder)
    shards = job.shards()
    started = time.perf_counter()
    if not all(finished(folder, job, s) for s in shards):
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
                        write_parquet(
                            shard_path(folder, shard.index, part), parts[part].rechunk(), provenance(job, engine, shard)
                        )
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
    sec = config.section("cluster")
    sec.allow("address")
    address = sec.text("address", "")
    if address not in ("", "local", "auto"):
        try:
            split_address(address)
        except WordstatsError as exc:
            sec.fail("address", str(exc))
    return address if given is None else given


def remote_calls(address: str, fn: Callable[..., Any], calls: list[tuple], cpus: int = 1) -> Iterator[tuple[int, Any]]:
    """Run fn(*args) for each args of `calls` as a Ray task (`cpus` cores each) on the cluster of `address`,
    yielding (index, result) as each finishes; Ctrl-C or an error cancels the tasks still running."""
    engine = RayEngine(address)
    try:
        engine.start()
        import ray

        task = ray.remote(fn).options(num_cpus=cpus, max_retries=1, retry_exceptions=False)
        running = {task.remote(*args): index for index, args in enumerate(calls)}
        head = HeadWatch(engine.address, ray.get_runtime_context().gcs_address)
        try:
            while running:
                try:
                    head.check()
                except ClusterLost as exc:
                    engine.lost, running = True, {}
                    raise ClusterLost(
                        f"{exc}: the stages that finished are committed; start the cluster again (or leave out "
                        f"--ray) and run the command again (`make all` builds only what is stale)"
                    ) from None
                ready, _ = ray.wait(list(running), num_returns=1, timeout=POLL)
                for ref in ready:
                    index = running.pop(ref)
                    try:
                        value = ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        cause = getattr(exc, "cause", None)
                        if isinstance(cause, WordstatsError):
                            raise cause from None
                        raise WordstatsError(
                            f"{fn.__name__}{calls[index]!r} failed: {_first_line(cause or exc)}"
                        ) from None
                    except ray.exceptions.RayError as exc:
                        raise WordstatsError(f"{fn.__name__}{calls[index]!r} failed: {_first_line(exc)}") from None
                    yield index, value
        finally:
            for ref in running:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
    finally:
        engine.close()


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
