"""The Ray cluster: its addresses, connecting to it (loopback only for a private one), the Ray engine that runs a
job's shards as tasks, and plain remote calls (a build's stages, one lexicon each). See docs/cluster.md."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pipeline.core.errors import WordstatsError
from pipeline.core.fields import is_loopback
from pipeline.core.jobs import POLL, Job, Parts, Shard, WorkFn, run_shard

LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token"}  # Ray binds to 127.0.0.1
CONNECT_TIMEOUT = 5.0  # seconds to reach a cluster's address before giving up
HEAD_CHECK_SECONDS = 1.0  # while a job runs on Ray, how often the cluster's head is looked at
HEAD_LOST_AFTER = 2  # looks in a row that find no head: the cluster is gone
DYING_SECONDS = 2.0  # after an error of Ray's sockets, how long the head may take to stop listening as it dies


def split_address(address: str) -> tuple[str, int]:
    """(host, port) of a cluster address written HOST:PORT."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise WordstatsError(f"bad Ray address {address!r}: write HOST:PORT (e.g. 127.0.0.1:6379), auto or local")
    return host.strip("[]"), int(port)


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
    return run_shard(work, shard, _WORKER_SHARED[ref.hex()], threads)


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
        except OSError:  # Ray's sockets to a head that went away before the watch looked (a broken pipe)
            if not head.gone():
                raise
            self.lost = True
            raise head.lost() from None
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
        if not self.lost:  # a lost cluster's threads log until the process leaves (at once): fd 2 stays silenced
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
                raise self.lost() from None

    def gone(self) -> bool:
        """Whether nothing listens at the head, looked at for up to DYING_SECONDS: what an error of Ray's sockets
        (a broken pipe, a connection reset) means when the head went away between two checks; a head being killed
        can reset its connections a moment before its port closes."""
        until = time.monotonic() + DYING_SECONDS
        while True:
            try:
                with socket.create_connection((self.host, self.port), timeout=HEAD_CHECK_SECONDS / 2):
                    pass
            except OSError:
                return True
            if time.monotonic() >= until:
                return False
            time.sleep(HEAD_CHECK_SECONDS / 5)

    def lost(self) -> ClusterLost:
        """The one-line error of a head that is gone."""
        return ClusterLost(f"the Ray cluster at {self.address} stopped answering (its head is gone)")


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
                    ready, _ = ray.wait(list(running), num_returns=1, timeout=POLL)
                except (ClusterLost, OSError) as exc:
                    if isinstance(exc, OSError) and not head.gone():
                        raise
                    lost = exc if isinstance(exc, ClusterLost) else head.lost()
                    engine.lost, running = True, {}
                    raise ClusterLost(
                        f"{lost}: the stages that finished are committed; start the cluster again (or leave out "
                        f"--ray) and run the command again (`make all` builds only what is stale)"
                    ) from None
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
