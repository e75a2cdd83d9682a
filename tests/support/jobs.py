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
