"""A Ray cluster killed while a job runs on it: the command ends within seconds with one line saying what
happened and how to resume (no minute's wait, no Ray log), the finished shards are kept, and the same command
resumes from them. The head runs as its own process group on 127.0.0.1 and only it is ended."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, SMALL_CONFIG
from tests.test_executor import FRESH_HOME, LOOPBACK, data, without_token  # noqa: F401  (data: a fixture)

RAY_CORE_LOG = re.compile(r"\[\d{4}-\d\d-\d\d [\d:,]+ [DIWEF] \d+ \d+\] \S+\.cc:\d+: ")  # Ray's C++ log lines
BOARDS, SHARD = 4_000_000, 100_000  # a job of 40 shards: long enough to be cut short on two cores
LOST_WITHIN = 15  # seconds from the kill to the command's end (Ray alone waits 60)


@contextlib.contextmanager
def ray_head() -> Iterator[tuple[str, subprocess.Popen]]:
    """A Ray head on 127.0.0.1 (2 CPUs) in a process group of its own: (its address, its process)."""
    pytest.importorskip("ray")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    temp = tempfile.mkdtemp(prefix="raylost", dir="/tmp")
    fresh = {**without_token(os.environ), **LOOPBACK}
    ray_cli = str(Path(sys.executable).parent / "ray")
    subprocess.run([ray_cli, "get-auth-token", "--generate"], env=fresh, check=True, capture_output=True)
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
            os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def boggle_job(out: Path, *extra: str) -> list[str]:
    """The command line of a sharded `boggle random` job on the test lexicon."""
    return [
        *(sys.executable, "-m", "pipeline", "boggle", "random", "--summary", "--json"),
        *("--sample", str(BOARDS), "--shard-size", str(SHARD)),
        *("--lexicon", "moby", "--config", str(SMALL_CONFIG), "--data-dir", str(out), *extra),
    ]


def shards_written(out: Path) -> int:
    """Shard files the job has written so far."""
    return len(list((out / "moby" / "jobs").glob("*/shard-*.scores.parquet")))


@pytest.mark.ray
@pytest.mark.slow
def test_a_cluster_killed_mid_job_is_one_line_at_once_and_the_job_resumes(data, tmp_path):  # noqa: F811
    out = tmp_path / "out"
    shutil.copytree(data, out)
    env = {**without_token(os.environ), **LOOPBACK, "WORDSTATS_QUIET": "1"}  # the head's token, in FRESH_HOME
    with ray_head() as (address, head):
        job = subprocess.Popen(
            boggle_job(out, "--ray", address),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while shards_written(out) < 2 and job.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert job.poll() is None, job.communicate()
        os.killpg(head.pid, signal.SIGKILL)  # the whole cluster: head, raylet, workers
        killed = time.monotonic()
        stdout, stderr = job.communicate(timeout=90)
        took = time.monotonic() - killed
    assert job.returncode == 2, stderr
    # Ray's C++ core worker may log its own lines as the head goes ("[date time E pid tid] file.cc:N: ...");
    # ours is the one line of the command
    lines = [line for line in stderr.strip().splitlines() if not RAY_CORE_LOG.match(line)]
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"error: the Ray cluster at {address} stopped answering"), stderr
    assert "shards are kept in" in lines[0] and "run the same command to resume" in lines[0]
    assert took < LOST_WITHIN, took
    kept = shards_written(out)
    assert kept >= 2
    again = subprocess.run(boggle_job(out), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    import json

    facts = json.loads(again.stdout)
    assert facts["shards_reused"] == kept and facts["shards"] == BOARDS // SHARD
