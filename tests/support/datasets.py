"""The default config's lexicons, built once per test session for every pytest-xdist worker: one data folder,
each lexicon's stages built on first demand under a lock of its own (a stage already built is not run again).
Tests read it and never write into it; a test that rebuilds or damages a table works on `private_copy`."""

from __future__ import annotations

import contextlib
import fcntl
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import DEFAULT_CONFIG, run_cli


def session_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder every worker of this session shares (a worker's own base folder sits inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if base.name.startswith("popen-gw") else base


@contextlib.contextmanager
def locked(path: Path):
    """Hold an exclusive lock on `path` (created if need be) for the block."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def default_data(tmp_path_factory: pytest.TempPathFactory, stages: dict[str, tuple[str, ...]]) -> Path:
    """The session's data folder of the default config, with at least these stages of each named lexicon built
    (`make all`'s way: `wordstats run STAGE... --lexicon NAME`); other stages of other tests may be there too."""
    root = session_root(tmp_path_factory) / "default-config"
    root.mkdir(exist_ok=True)
    data = root / "out"
    for lexicon, wanted in stages.items():
        with locked(root / f"{lexicon}.lock"):
            done_file = root / f"{lexicon}.built.json"
            done = set(json.loads(done_file.read_text())) if done_file.exists() else set()
            missing = [s for s in wanted if s not in done]
            if missing:
                res = run_cli(
                    "run", *missing, "--lexicon", lexicon, "--data-dir", data, "--config", DEFAULT_CONFIG, "--quiet"
                )
                assert res.exit_code == 0, res
                done_file.write_text(json.dumps(sorted(done | set(missing))))
    return data


def private_copy(data: Path, lexicons: tuple[str, ...], into: Path) -> Path:
    """A data folder of one's own holding copies of these lexicons' folders of `data`."""
    into.mkdir(parents=True, exist_ok=True)
    for lexicon in lexicons:
        shutil.copytree(data / lexicon, into / lexicon)
    return into
