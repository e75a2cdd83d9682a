"""Adding a game touches only its own package and one line of pipeline/games.py: a toy game (tests/toygame)
copied into a copy of the project builds its table through `make` and `run`, which rebuild it alone when its
module changes, and its command reads it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import ROOT, SMALL_CONFIG, project_copy, project_env, run_make

pytestmark = pytest.mark.slow  # make runs in a copy of the project

WORDS = ["cat", "act", "dog", "god", "ox", "quiz", "zoo", "tiles", "islet", "stile", "apple", "ant", "a"]
GAMES_LINE = '    "pipeline.toy",\n'


def add_toy_game(project: Path) -> None:
    """The toy package as pipeline/toy of the project copy, and its one line at the end of the games' list."""
    package = project / "pipeline" / "toy"
    shutil.copytree(ROOT / "tests" / "toygame", package, ignore=shutil.ignore_patterns("__pycache__"))
    games = project / "pipeline" / "games.py"
    text = games.read_text()
    end = text.rindex(")")
    games.write_text(text[:end] + GAMES_LINE + text[end:])


def toy_config(folder: Path, project: Path) -> Path:
    """A config of one tiny lexicon that builds the word facts and the toy game, with a [toy] setting."""
    (folder / "tiny.txt").write_text("\n".join(WORDS) + "\n")
    path = folder / "toy.toml"
    small = project / SMALL_CONFIG.relative_to(ROOT)
    path.write_text(
        f'extends = "{small}"\nreplace = ["lexicons"]\ndefault_lexicon = "tiny"\nteacher_lexicon = "tiny"\n\n'
        '[lexicons.tiny]\nsources = [{ path = "tiny.txt" }]\nstages = ["ingest", "toy"]\n\n[toy]\nmin_length = 2\n'
    )
    return path


def wordstats(project: Path, *args: str) -> subprocess.CompletedProcess:
    """The wordstats command of the project copy."""
    command = [str(Path(sys.prefix) / "bin" / "wordstats"), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=project_env(project), cwd=project)


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> tuple[Path, Path, Path]:
    """A project copy with the toy game added and `make all` run on the toy config: (project, config, data)."""
    where = tmp_path_factory.mktemp("toy")
    project = project_copy(where / "project")
    add_toy_game(project)
    config, out = toy_config(where, project), where / "out"
    made = run_make(project, "all", f"CONFIG={config}", f"OUT={out}")
    assert made.returncode == 0, made.stderr
    return project, config, out


def test_the_game_is_its_package_and_one_line(toy):
    project, _, _ = toy
    before = (ROOT / "pipeline" / "games.py").read_text().splitlines(keepends=True)
    after = (project / "pipeline" / "games.py").read_text().splitlines(keepends=True)
    assert [line for line in after if line not in before] == [GAMES_LINE]
    changed = sorted(str(p.relative_to(project)) for p in (project / "pipeline").rglob("*.py") if differs(project, p))
    toy_files = [f"pipeline/toy/{p.name}" for p in (ROOT / "tests" / "toygame").glob("*.py")]
    assert changed == sorted(["pipeline/games.py", *toy_files])


def differs(project: Path, path: Path) -> bool:
    """Whether a file of the project copy is new or differs from the checkout's."""
    mine = ROOT / path.relative_to(project)
    return not mine.is_file() or mine.read_bytes() != path.read_bytes()


def test_make_builds_the_toy_table(toy):
    _, _, out = toy
    table = pl.read_parquet(out / "tiny" / "initials.parquet")
    counted = Counter(w[0].upper() for w in WORDS if len(w) >= 2)  # the [toy] setting: two letters or more
    assert dict(zip(table["letter"], table["words"])) == dict(counted)
    assert table["letter"].to_list() == sorted(counted)
    assert table.schema == {"letter": pl.String, "words": pl.Int32}  # conformed to its manifest's schema
    manifest = json.loads((out / "tiny" / "manifest.json").read_text())
    assert manifest["tables"]["initials.parquet"]["stage"] == "toy"


def test_make_reruns_the_toy_stage_alone_when_its_module_changes(toy):
    project, config, out = toy
    assert run_make(project, "-q", "all", f"CONFIG={config}", f"OUT={out}").returncode == 0
    (project / "pipeline" / "toy" / "stage.py").touch()
    planned = run_make(project, "-n", "all", f"CONFIG={config}", f"OUT={out}")
    runs = [line for line in planned.stdout.splitlines() if " run " in line]
    assert len(runs) == 1 and runs[0].endswith("--lexicon tiny toy"), planned.stdout
    assert run_make(project, "all", f"CONFIG={config}", f"OUT={out}").returncode == 0


def test_run_and_the_command_of_the_toy_game(toy):
    project, config, out = toy
    table = out / "tiny" / "initials.parquet"
    table.unlink()
    ran = wordstats(project, "run", "toy", "--lexicon", "tiny", "--config", config, "--data-dir", out)
    assert ran.returncode == 0 and table.is_file(), ran.stderr
    shown = wordstats(project, "toy", "--letters", "at", "--config", config, "--data-dir", out, "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == [{"letter": "A", "words": 3}, {"letter": "T", "words": 1}]
    assert "unknown stage 'toy'" in wordstats(ROOT, "run", "toy", "--config", config, "--data-dir", out).stderr
