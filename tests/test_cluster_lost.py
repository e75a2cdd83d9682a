"""A Ray cluster killed while a job runs on it: the command ends within seconds with one line saying what
happened and how to resume (no minute's wait, no Ray log), the finished shards are kept, and the same command
resumes from them. The head runs as its own process group on 127.0.0.1 and only it is ended."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, SMALL_CONFIG
from tests.support.jobs import data_fixture  # noqa: F401  (the data fixture)
from tests.support.ray import LOOPBACK, ray_head, without_token

RAY_CORE_LOG = re.compile(r"\[\d{4}-\d\d-\d\d [\d:,]+ [DIWEF] \d+ \d+\] \S+\.cc:\d+: ")  # Ray's C++ log lines
BOARDS, SHARD = 1_000_000, 25_000  # a job of 40 shards: long enough to be cut short on two cores
LOST_WITHIN = 15  # seconds from the kill to the command's end (Ray alone waits 60)


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
def test_a_cluster_killed_mid_job_is_one_line_at_once_and_the_job_resumes(data, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(data, out)
    env = {**without_token(os.environ), **LOOPBACK, "WORDSTATS_QUIET": "1"}  # the head's token, in FRESH_HOME
    with ray_head("raylost") as (address, head):
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
    # ours is the one line of the command: none of Ray's C++ log lines ("[date time E pid tid] file.cc:N: ...")
    # that its core worker may write as the head goes
    assert not any(RAY_CORE_LOG.match(line) for line in stderr.splitlines()), stderr
    lines = stderr.strip().splitlines()
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


def test_a_socket_error_means_the_head_is_lost_only_when_nothing_listens_there():
    """An error of Ray's sockets (a broken pipe) is the cluster lost when the head's port no longer answers, and
    stays what it is while the head listens."""
    import socket

    from pipeline.core.cluster import HeadWatch

    server = socket.create_server(("127.0.0.1", 0))
    address = f"127.0.0.1:{server.getsockname()[1]}"
    watch = HeadWatch(address, address)
    assert not watch.gone()
    server.close()
    assert watch.gone()
    assert str(watch.lost()) == f"the Ray cluster at {address} stopped answering (its head is gone)"
