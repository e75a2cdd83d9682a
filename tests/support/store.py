"""The store's tests' helpers: word lists, a folder's hashes, consistency checks, kills between renames, a tmpfs."""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from pipeline.core.files import read_provenance
from pipeline.core.layout import MANIFEST
from tests.conftest import SMALL_CONFIG

WORDS_A = ["stare", "tears", "rates", "aster", "cat", "act", "retains", "nastier", "stainer", "tiles", "islet"]
WORDS_B = ["dog", "god", "quiz", "zoo", "ox", "boggle", "hangman", "scrabble", "anagram", "stile", "stone"]


def digest(path: Path) -> str:
    """The sha256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(folder: Path) -> dict[str, str]:
    """Every visible file of a folder (recursively) and its sha256."""
    return {
        str(p.relative_to(folder)): digest(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".") and ".make" not in p.parts
    }


def assert_manifest_matches(root: Path) -> None:
    """The manifest lists files that are there, with their hashes."""
    manifest = json.loads((root / MANIFEST).read_text())
    for name, entry in manifest["tables"].items():
        assert (root / name).is_file(), name
        assert entry["sha256"] == digest(root / name), name


def assert_consistent(root: Path) -> None:
    """The manifest agrees with the files, and every table was built from the input files beside it."""
    assert_manifest_matches(root)
    for table in root.glob("*.parquet"):
        for name, sha in read_provenance(table).get("inputs", {}).items():
            if (root / name).is_file():
                assert digest(root / name) == sha, f"{table.name} was built from another {name}"


def write_words(path: Path, words: list[str]) -> Path:
    """A word list file."""
    path.write_text("\n".join(words) + "\n")
    return path


KILL_BETWEEN_RENAMES = """
import os, signal, sys
real, count = os.replace, [0]
def replace(src, dst):
    real(src, dst)
    if str(dst).endswith(".parquet"):
        count[0] += 1
        if count[0] == 2:
            os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
sys.argv = ["wordstats", *sys.argv[1:]]
from pipeline.cli import main
main()
"""


def built_twice(cli, tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """A lexicon with words and indexes from list A, then words from list B: indexes are due to be rebuilt."""
    data = tmp_path / "out"
    a, b = write_words(tmp_path / "a.txt", WORDS_A), write_words(tmp_path / "b.txt", WORDS_B)
    base = ["--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG]
    assert cli("run", "ingest", "indexes", "--source", a, *base).exit_code == 0
    assert cli("run", "ingest", "--source", b, "--force", *base).exit_code == 0
    return data, data / "t", ["run", "indexes", *map(str, base)]


@contextlib.contextmanager
def tmpfs(where: Path, size: str):
    """A small tmpfs mounted at `where` (skips the test where mounting is not allowed)."""
    where.mkdir(parents=True, exist_ok=True)
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({res.stderr.decode().strip()})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
