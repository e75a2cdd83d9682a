"""The files of a build compiled ahead of time, as a hostile or unlucky hand leaves them: a pipe, a device, a
folder, a file cut short (even with a record made to match), a record that lies about its size. The loader
checks the file's type and size before reading it and the whole module before loading it, and falls back to
numba in each case, at once; `make install` builds again a build whose record or file is wrong. Every case
works on a copy of the build (the environment's own is never touched)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.core.aot import ENGINES, MAX_BUILD_BYTES, engine_named, load_build, record_path, status
from tests.conftest import ROOT
from tests.test_engines import current_build

QUICK = 5  # seconds a refused build may take at most (a limit for a hang, not a benchmark)


def some_engine() -> str:
    """The name of an engine compiled ahead of time (the first), or the test is skipped when no game has one."""
    if not ENGINES:
        pytest.skip("no game declares kernels compiled ahead of time")
    return sorted(ENGINES)[0]


def whole_copy(name: str, folder: Path) -> Path:
    """A copy of the environment's build of engine `name` with its record: the path of the copied module."""
    engine = engine_named(name)
    current_build(engine)
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / engine.build_path().name
    shutil.copyfile(engine.build_path(), copy)
    shutil.copyfile(record_path(engine.build_path()), record_path(copy))
    return copy


def record(path: Path) -> dict:
    """A build's record."""
    return json.loads(record_path(path).read_text())


def forge(path: Path) -> None:
    """Make the record match whatever bytes are at `path` now (as a hand that edits both would)."""
    data = path.read_bytes()
    record_path(path).write_text(
        json.dumps({**record(path), "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)})
    )


def fifo(path: Path) -> None:
    """A named pipe in place of the module."""
    path.unlink()
    os.mkfifo(path)


def dev_zero(path: Path) -> None:
    """A link to the endless device in place of the module, the record claiming its size."""
    path.unlink()
    path.symlink_to("/dev/zero")


def folder(path: Path) -> None:
    """A folder in place of the module."""
    path.unlink()
    path.mkdir()


def huge(path: Path) -> None:
    """A sparse file far larger than any build, with a record made to match its size."""
    with open(path, "r+b") as fh:
        fh.truncate(MAX_BUILD_BYTES * 4)
    record_path(path).write_text(json.dumps({**record(path), "bytes": MAX_BUILD_BYTES * 4}))


def cut_short_forged(path: Path) -> None:
    """The module cut to half, and its record made to match (the dynamic loader would fault on the rest)."""
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    forge(path)


def cut_short(path: Path) -> None:
    """The module cut to half, the record as it was."""
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def flipped(path: Path) -> None:
    """One byte of the module changed."""
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0xFF
    path.write_bytes(bytes(data))


def lying_size(path: Path) -> None:
    """A record that gives another size."""
    record_path(path).write_text(json.dumps({**record(path), "bytes": path.stat().st_size + 1}))


def record_a_fifo(path: Path) -> None:
    """A named pipe in place of the record."""
    record_path(path).unlink()
    os.mkfifo(record_path(path))


def record_garbage(path: Path) -> None:
    """A record that is not JSON."""
    record_path(path).write_text("{garbage")


def another_machine(path: Path) -> None:
    """A record of another processor."""
    record_path(path).write_text(json.dumps({**record(path), "processor": "another"}))


def record_gone(path: Path) -> None:
    """No record."""
    record_path(path).unlink()


def module_gone(path: Path) -> None:
    """No module, its record left."""
    path.unlink()


DAMAGES = (
    fifo,
    dev_zero,
    folder,
    huge,
    cut_short_forged,
    cut_short,
    flipped,
    lying_size,
    record_a_fifo,
    record_garbage,
    another_machine,
    record_gone,
    module_gone,
)

LOAD = """
import sys
from pathlib import Path
from pipeline.core.aot import engine_named, load_build, status
engine = engine_named(sys.argv[1])
for path in map(Path, sys.argv[2:]):
    print(load_build(engine, path) is None, status(engine, path), flush=True)
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_damaged_build_falls_back_to_numba_at_once(name, tmp_path):
    paths = []
    for damage in DAMAGES:
        path = whole_copy(name, tmp_path / damage.__name__)
        damage(path)
        paths.append(path)
    started = time.monotonic()
    loaded = subprocess.run(  # a process of its own: a loader that faults or hangs cannot take the suite with it
        [sys.executable, "-c", LOAD, name, *map(str, paths)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    answers = loaded.stdout.splitlines()
    assert loaded.returncode == 0, f"died loading {DAMAGES[len(answers)].__name__}: {loaded}"
    for damage, answer in zip(DAMAGES, answers, strict=True):
        refused, words = answer.split(" ", 1)
        assert refused == "True" and words.startswith("numba (") and "make install" in words, (damage, answer)
    assert time.monotonic() - started < QUICK + 5  # every case, and the process's own start


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_whole_copy_loads(name, tmp_path):
    path = whole_copy(name, tmp_path)
    assert load_build(engine_named(name), path) is not None
    assert status(engine_named(name), path) == "ahead of time"


# ---- make install --------------------------------------------------------------------------------


def venv_with_builds(tmp_path: Path) -> Path:
    """A Python environment folder for make (VENV=...): this interpreter and the wordstats command (which
    writes the engine rules), installed, with copies of the builds made after every source (so that make has
    nothing to do)."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    (venv / "bin" / "wordstats").symlink_to(Path(sys.executable).parent / "wordstats")
    (venv / "wordstats").mkdir()
    for name in ENGINES:
        whole_copy(name, venv / "wordstats")
    (venv / ".installed").touch()
    made_after_everything(venv)
    return venv


def made_after_everything(venv: Path) -> None:
    """Date the environment's install and its builds' files after every source (damage keeps make's view of
    time: only what the files hold can make a build stale)."""
    later = time.time() + 5
    os.utime(venv / ".installed", (later, later))
    for path in (venv / "wordstats").iterdir():
        os.utime(path, (later + 1, later + 1), follow_symlinks=False)


def make_would(venv: Path) -> list[str]:
    """The engines `make install` would build (a dry run)."""
    res = subprocess.run(
        ["make", "-n", "install", f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr
    return sorted(line.split()[3] for line in res.stdout.splitlines() if "-m pipeline.core.aot" in line)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(d, marks=pytest.mark.slow)
        for d in (cut_short, flipped, cut_short_forged, another_machine, record_garbage, module_gone, fifo, lying_size)
    ],
    ids=lambda d: d.__name__,
)
def test_make_install_builds_again_a_build_whose_record_or_file_is_wrong(damage, tmp_path):
    name = some_engine()
    venv = venv_with_builds(tmp_path)
    assert make_would(venv) == []
    damage(venv / "wordstats" / engine_named(name).build_path().name)
    made_after_everything(venv)
    assert make_would(venv) == [name]


@pytest.mark.slow
def test_make_install_keeps_a_record_of_a_build_that_could_not_be_made(tmp_path):
    venv = venv_with_builds(tmp_path)
    built = venv / "wordstats" / engine_named(some_engine()).build_path().name
    built.unlink()
    record_path(built).write_text(json.dumps({"source_key": None, "reason": "no C compiler (cc, gcc, clang)"}))
    made_after_everything(venv)
    assert make_would(venv) == []  # make tries again when the sources change, not on every run
