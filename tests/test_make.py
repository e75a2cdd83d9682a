"""The Makefile: `make all` builds every table, a second run does nothing, touching inputs reruns stages."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from pipeline.core.stages import STAGES
from tests.conftest import ROOT, SMALL_CONFIG

WORDS = [
    "stare",
    "tears",
    "rates",
    "aster",
    "cat",
    "act",
    "dog",
    "god",
    "retains",
    "nastier",
    "stainer",
    "quiz",
    "zoo",
    "ox",
    "boggle",
    "hangman",
    "scrabble",
    "anagram",
    "tiles",
    "islet",
    "stile",
]


def tiny_config(tmp_path: Path) -> Path:
    """The small test config with its lexicons replaced by one tiny list next to it."""
    (tmp_path / "tiny.txt").write_text("\n".join(WORDS) + "\n")
    text = SMALL_CONFIG.read_text()
    start = text.index("[lexicons.")
    end = text.index("# ----", start)
    text = text[:start] + '[lexicons.tiny]\nsources = [{ path = "tiny.txt" }]\nmin_length = 2\n\n' + text[end:]
    path = tmp_path / "tiny.toml"
    path.write_text(text.replace('default_lexicon = "moby"', 'default_lexicon = "tiny"'))
    return path


def make(*args: str, config: Path, out: Path) -> subprocess.CompletedProcess:
    """Run make in the project with another config and data folder."""
    env = {**os.environ, "WORDSTATS_QUIET": "1"}
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), *args, f"CONFIG={config}", f"OUT={out}"],
        capture_output=True,
        text=True,
        env=env,
    )


def age(*paths: Path) -> None:
    """Make files look a minute older, so a touch afterwards is surely newer."""
    old = time.time() - 60
    for p in paths:
        os.utime(p, (old, old))


def test_make_all_is_incremental(tmp_path):
    config, out = tiny_config(tmp_path), tmp_path / "out"
    first = make("all", config=config, out=out)
    assert first.returncode == 0, first.stderr
    every_output = {f for stage in STAGES for f in stage.outputs}  # the Makefile builds every stage's files
    assert every_output <= {p.name for p in (out / "tiny").iterdir()}

    assert make("-q", "all", config=config, out=out).returncode == 0  # up to date
    second = make("all", config=config, out=out)
    assert "wordstats run" not in second.stdout

    built = [p for p in (out / "tiny").iterdir() if p.is_file()]
    age(config, tmp_path / "tiny.txt", *built)
    (tmp_path / "tiny.txt").touch()  # the word list changed: ingest reruns
    plan = make("-n", "all", config=config, out=out).stdout
    assert "--lexicon tiny ingest" in plan

    age(tmp_path / "tiny.txt")
    config.touch()  # the config changed: ingest reruns
    assert "--lexicon tiny ingest" in make("-n", "all", config=config, out=out).stdout


def test_make_help_lists_targets():
    res = subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "help"], capture_output=True, text=True)
    assert res.returncode == 0
    assert {"all", "test", "bench", "clean", "help"} <= {line.split()[0] for line in res.stdout.splitlines()}
