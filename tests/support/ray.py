"""Real Ray for the tests, on the loopback interface only: a local instance, a head in a process group of its own."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

# A fresh home for every Ray process the tests start: the cluster's token is made there by the documented
# `ray get-auth-token --generate`, never taken from the machine's ~/.ray.
FRESH_HOME = tempfile.mkdtemp(prefix="rayhome")
LOOPBACK = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token", "HOME": FRESH_HOME}


def without_token(env) -> dict:
    """An environment without a Ray token of its own (the cluster's token is found in FRESH_HOME)."""
    return {k: v for k, v in env.items() if k != "RAY_AUTH_TOKEN"}


@pytest.fixture(scope="module", name="ray_local")
def ray_local_fixture(request):
    """The `ray_local` fixture: a local Ray instance on 127.0.0.1 with 2 CPUs, in this process. The test module
    using it is pickled by value: its work functions reach the workers without the workers importing the tests."""
    for key, value in LOOPBACK.items():  # before ray is imported: it reads them then
        if key != "HOME":
            os.environ.setdefault(key, value)
    os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))  # a token of this instance's own
    ray = pytest.importorskip("ray")
    temp = tempfile.mkdtemp(prefix="rayt", dir="/tmp")  # a short path: Ray's socket names must stay short
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", _temp_dir=temp, logging_level="WARNING")
    ray.cloudpickle.register_pickle_by_value(request.module)  # workers need not import the tests
    yield ray
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


@contextlib.contextmanager
def ray_head(prefix: str = "rayc"):
    """A Ray head on 127.0.0.1 (2 CPUs, a temporary folder, the token in FRESH_HOME) in a process group of its
    own: (its address, its process); stopped (or found already gone) afterwards."""
    pytest.importorskip("ray")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    temp = tempfile.mkdtemp(prefix=prefix, dir="/tmp")
    ray_cli = str(Path(sys.executable).parent / "ray")
    fresh = {**without_token(os.environ), **LOOPBACK}
    subprocess.run([ray_cli, "get-auth-token", "--generate"], env=fresh, check=True, capture_output=True)
    assert (Path(FRESH_HOME) / ".ray" / "auth_token").is_file()
    args = ["start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port), "--num-cpus", "2"]
    args += ["--include-dashboard", "false", "--disable-usage-stats", "--temp-dir", temp, "--block"]
    head = subprocess.Popen(
        [ray_cli, *args], env=fresh, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert head.poll() is None, "ray start --head ended early"
            time.sleep(0.5)
        else:
            pytest.fail("the Ray head did not listen within 90 s")
        yield f"127.0.0.1:{port}", head
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(1)  # an idle head stops at once; one with workers waits for them, which a test need not
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module", name="ray_cluster")
def ray_cluster_fixture():
    """The `ray_cluster` fixture: a Ray head on 127.0.0.1 for the module's tests: (its address, its process)."""
    with ray_head() as cluster:
        yield cluster


def foreign_sockets(pid: int) -> list[str]:
    """TCP sockets of the process group `pid` (the Ray head's) on an address other than loopback."""
    pgid = os.getpgid(pid)
    group = {p for p in os.listdir("/proc") if p.isdigit() and _pgid(int(p)) == pgid}
    assert len(group) > 2  # the head's gcs_server, raylet, workers...
    lines = subprocess.run(["ss", "-tnap"], capture_output=True, text=True, check=True).stdout.splitlines()[1:]
    seen, foreign = 0, []
    for line in lines:
        pids = set(re.findall(r"pid=(\d+)", line))
        if not pids & group:
            continue
        seen += 1
        local = line.split()[3].rsplit(":", 1)[0].strip("[]").removeprefix("::ffff:")
        if local not in ("127.0.0.1", "::1"):
            foreign.append(line)
    assert seen > 0
    return foreign


def _pgid(pid: int) -> int:
    """The process group of a process (-1 when it is gone)."""
    try:
        return os.getpgid(pid)
    except OSError:
        return -1
