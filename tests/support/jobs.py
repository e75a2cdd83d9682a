"""Sharded jobs in the tests: the moby data folder, the real `wordstats` command in a new process, a job's files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SMALL_CONFIG
from tests.support.ray import without_token


@pytest.fixture(scope="module", name="data")
def data_fixture(tmp_path_factory) -> Path:
    """The `data` fixture: a data folder with the real moby word list ingested."""
    out = tmp_path_factory.mktemp("executor") / "out"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipeline",
            "run",
            "ingest",
            "--lexicon",
            "moby",
            "--config",
            str(SMALL_CONFIG),
            "--data-dir",
            str(out),
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    return out


def run_wordstats(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """The real `wordstats` command in a new process."""
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**without_token(os.environ), "WORDSTATS_QUIET": "1", **(env or {})},
        timeout=timeout,
    )


def files(folder: Path) -> list[str]:
    """The Parquet files of a job folder, by name."""
    return sorted(p.name for p in folder.glob("*.parquet"))


def cpu_seconds(pid: int) -> float:
    """The user and system CPU seconds a running process has used (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def interrupted(args: list[str], after_cpu: float = 2.5) -> tuple[float, int, str]:
    """Run `python -m pipeline ARGS` in a process of its own (with the default SIGINT: a pytest-xdist worker
    ignores it, and so would its child), press Ctrl-C once it has spent `after_cpu` CPU-seconds, and give the
    seconds it took to end after that, its exit code and its standard error; it is never left running."""
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while cpu_seconds(proc.pid) < after_cpu:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
        return time.monotonic() - sent, proc.returncode, err
    finally:
        proc.kill()
        proc.wait()
