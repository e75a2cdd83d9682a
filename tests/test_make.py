"""The Makefile: `make all` builds every table, a second run does nothing; touching a module a stage runs, or
changing a setting it reads, reruns that stage and those downstream of it and nothing else; a failing stage
changes no file. Make runs in a copy of the project (tests/conftest.py project_copy): the checkout's files and
their times are never touched."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.core.config import load_config
from pipeline.core.makerules import make_rules, stage_files, warm_rules, warmed_games
from pipeline.core.makerules import rules as make_rules_text
from pipeline.core.registry import manifest_module
from pipeline.core.stages import STAGES, producer
from pipeline.games import GAMES
from tests.conftest import ROOT, SMALL_CONFIG, edit_config, project_copy, project_env, run_make

pytestmark = pytest.mark.slow  # real servers, browsers or make runs

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
    """The small test config (an overlay of the default one) with its lexicons replaced by one tiny list next to
    it: an overlay of the project copy's small config."""
    (tmp_path / "tiny.txt").write_text("\n".join(WORDS) + "\n")
    small = tmp_path / "project" / SMALL_CONFIG.relative_to(ROOT)
    path = tmp_path / "tiny.toml"
    path.write_text(
        f'extends = "{small}"\nreplace = ["lexicons"]\ndefault_lexicon = "tiny"\nteacher_lexicon = "tiny"\n\n'
        '[lexicons.tiny]\nsources = [{ path = "tiny.txt" }]\nmin_length = 2\n'
    )
    return path


def make(*args: str, config: Path, out: Path) -> subprocess.CompletedProcess:
    """Run make in the project copy that `config` sits in, with that config and data folder."""
    return run_make(config.parent / "project", *args, f"CONFIG={config}", f"OUT={out}")


def project_of(config: Path) -> Path:
    """The project copy a test config sits beside."""
    return config.parent / "project"


def age(*paths: Path) -> None:
    """Make files look a minute older, so a touch afterwards is surely newer."""
    old = time.time() - 60
    for p in paths:
        os.utime(p, (old, old))


STAGE_NAMES = [s.name for s in STAGES]


def downstream(names: set[str]) -> set[str]:
    """The stages `names` and every stage that reads a table of theirs, transitively."""
    result = set(names)
    for s in STAGES:  # registry order is dependency order
        if any(producer(t).name in result for t in s.inputs + s.optional_inputs):
            result.add(s.name)
    return result


def planned(res: subprocess.CompletedProcess) -> set[str]:
    """The stages a `make -n` would run."""
    return {m.group(1) for m in re.finditer(r"wordstats run .*--lexicon tiny (\w+)$", res.stdout, re.M)}


def outputs(out: Path) -> list[Path]:
    """Every output file of the tiny lexicon (fingerprints and the rules file included)."""
    root = out / "tiny"
    return [p for p in root.iterdir() if p.is_file()] + list((root / ".make").iterdir()) + [out / ".rules.mk"]


def snapshot(folder: Path) -> dict[str, str]:
    """Every table and report file of a folder and its sha256."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir() if p.is_file()}


def set_time(paths, when: float) -> None:
    """Give files one modification time."""
    for p in paths:
        os.utime(p, (when, when))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The tiny config built once with `make all` in a copy of the project beside it: (config, data folder)."""
    where = tmp_path_factory.mktemp("make")
    project_copy(where / "project")
    config, out = tiny_config(where), where / "out"
    first = make("all", config=config, out=out)
    assert first.returncode == 0, first.stderr
    return config, out


@pytest.fixture
def copy(built, tmp_path) -> tuple[Path, Path]:
    """A copy of the built tiny project (the project, config, word list, outputs, times kept) that a test may
    change."""
    config, out = built
    shutil.copytree(project_of(config), tmp_path / "project", symlinks=True)
    shutil.copy2(config, tmp_path / config.name)
    shutil.copy2(config.parent / "tiny.txt", tmp_path / "tiny.txt")
    shutil.copytree(out, tmp_path / "out", symlinks=True)
    (tmp_path / "out" / ".rules.mk").unlink()  # written again for this copy's paths
    new_config, new_out = tmp_path / config.name, tmp_path / "out"
    assert make("all", config=new_config, out=new_out).returncode == 0
    return new_config, new_out


def in_project(config: Path, files: list[str]) -> set[Path]:
    """Project-relative source files as paths of the project copy beside `config`."""
    return {project_of(config) / f for f in files}


def test_make_all_builds_every_output_and_a_second_run_does_nothing(built):
    config, out = built
    every_output = {f for stage in STAGES for f in stage.outputs}  # the Makefile builds every stage's files
    assert every_output <= {p.name for p in (out / "tiny").iterdir()}
    assert make("-q", "all", config=config, out=out).returncode == 0  # up to date
    second = make("all", config=config, out=out)
    assert second.returncode == 0 and "wordstats run" not in second.stdout
    json.loads((out / "tiny" / "manifest.json").read_text())


def stage_rules(text: str) -> dict[str, set[str]]:
    """Each stage's prerequisites in the generated rules (order-only ones left out), by stage name."""
    by_output = {f"$(OUT)/%/{name}": s.name for s in STAGES for name in s.outputs}
    found = {}
    for line in text.splitlines():
        targets, sep, rest = line.partition(" &: ")
        if sep:
            found[by_output[targets.split()[0]]] = set(rest.partition(" | ")[0].split())
        elif line.startswith("$(OUT)/") and ": $(OUT)/" in line:  # a lexicon's optional tables
            target, _, tables = line.partition(": ")
            stage = by_output["$(OUT)/%/" + target.rpartition("/")[2]]
            found[stage] |= {"$(OUT)/%/" + t.rpartition("/")[2] for t in tables.split()}
    return found


def rerun_by_rules(prerequisites: dict[str, set[str]], module: str) -> set[str]:
    """The stages the rules rerun when `module` changes: those naming it, then those reading their tables."""
    stale = {name for name, words in prerequisites.items() if module in words}
    for s in STAGES:  # dependency order
        tables = {f"$(OUT)/%/{f}" for name in stale for f in next(t for t in STAGES if t.name == name).outputs}
        if prerequisites[s.name] & tables:
            stale.add(s.name)
    return stale


def test_the_rules_rerun_exactly_the_stages_that_import_a_module():
    """Checked in Python for every module of the package: the generated rules rerun the stages whose import
    closure holds it and those downstream, and a game's module reruns no other game (the closure itself is
    checked against what each stage really imports below, and make's reading of the rules once per stage)."""
    prerequisites = stage_rules(make_rules_text(load_config(SMALL_CONFIG), str(SMALL_CONFIG)))
    runs = {s.name: set(stage_files(s)) for s in STAGES}
    modules = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pipeline").rglob("*.py"))
    assert len(modules) > 40
    for module in modules:
        expected = downstream({name for name, files in runs.items() if module in files})
        assert rerun_by_rules(prerequisites, module) == expected, module
        game = Path(module).parts[1]
        if game in ("boggle", "hangman", "scrabble"):
            assert not expected & ({"boggle", "hangman", "scrabble"} - {game}), module


def test_touching_each_stage_module_reruns_exactly_its_stages(built):
    """One real `make` per stage: its own module touched, make plans that stage and those downstream."""
    config, out = built
    project = project_of(config)
    runs = {s.name: in_project(config, stage_files(s)) for s in STAGES}
    installed = max((ROOT / f).stat().st_mtime for f in (".venv/.installed", "pyproject.toml", "requirements.lock"))
    start = max(time.time() - 400, installed + 1)  # every time below is after the install and not in the future
    modules = sorted({project.joinpath(*s.module.split(".")).with_suffix(".py") for s in STAGES})
    everything = sorted((project / "pipeline").rglob("*.py")) + [config, config.parent / "tiny.txt"]
    time.sleep(max(0.0, start + 30 + len(modules) - time.time()))
    set_time(everything, start)
    set_time(outputs(out), start + 10)
    assert make("-q", "all", config=config, out=out).returncode == 0
    for i, module in enumerate(modules):
        expected = downstream({name for name, files in runs.items() if module in files})
        set_time(outputs(out), start + 10)
        set_time([module], start + 20 + i)
        set_time([out / ".rules.mk"], start + 21 + i)  # as `make` leaves it: imports did not change
        plan = planned(make("-n", "all", config=config, out=out))
        set_time([module], start)
        assert expected and plan == expected, module


def test_each_warm_up_rule_names_the_files_its_package_runs():
    text = warm_rules()
    for manifest in warmed_games():
        target = f"$(KERNEL_DIR)/warm-{manifest.name}"
        rule = next(line for line in text.splitlines() if line.startswith(f"{target}:"))
        words = set(rule.split()[1:])
        assert {f for s in manifest.stages for f in stage_files(s) if f.endswith(".py")} <= words
        assert "pipeline/core/warm.py" in words and target in text.partition("\n\n")[2].splitlines()[0]
    makefile = (ROOT / "Makefile").read_text().splitlines()
    assert "-include $(KERNELS_MK)" in makefile and "/warm-" not in "\n".join(makefile)  # generated only


def test_a_stage_depends_on_the_c_sources_of_the_extensions_it_loads():
    dictionary = next(s for s in STAGES if s.name == "dictionary")
    assert "pipeline/boggle/native/solve.c" in stage_files(dictionary)
    assert not any("/native/" in f for s in STAGES if s.name in ("ingest", "phonics") for f in stage_files(s))


@pytest.mark.slow
def test_every_stage_depends_on_the_modules_it_really_runs(built, tmp_path):
    """The static import closure and its package's manifest cover each module a stage loads when it runs (lazy
    imports included), save the other packages' manifests (and their packages): declarations the runner reads
    (which stages exist, the schemas of their tables), none of which changes this stage's outputs."""
    config, out = built
    shutil.copytree(out, tmp_path / "out", symlinks=True)
    project = project_of(config)
    env = {**project_env(project), "NUMBA_NUM_THREADS": "1"}
    res = subprocess.run(
        [sys.executable, "-c", EACH_STAGE_ALONE, str(config), str(tmp_path / "out"), *(s.name for s in STAGES)],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
    )
    assert res.returncode == 0, res.stderr
    runs = dict(json.loads(line) for line in res.stdout.splitlines() if line.startswith("["))
    assert set(runs) == set(STAGE_NAMES)
    manifests = {project.joinpath(*m.split(".")) for p in GAMES for m in (p, manifest_module(p))}
    for s in STAGES:
        loaded = {project.joinpath(*m.split(".")) for m in runs[s.name]}
        files = {p.with_suffix("") if p.name != "__init__.py" else p.parent for p in in_project(config, stage_files(s))}
        extensions = {p for p in loaded if p.name == "_native"}  # compiled: their C sources are prerequisites
        assert all(any(f.parent == p.parent / "native" for f in files) for p in extensions), s.name
        assert loaded - manifests - extensions <= files, (s.name, sorted(map(str, loaded - manifests - files)))


# Each stage run alone in a child forked once the runner is imported and the config loaded (what a fresh process
# running only that stage holds then): the pipeline modules it has loaded once the stage is done.
EACH_STAGE_ALONE = """
import json, os, sys, traceback
from pathlib import Path
from pipeline.core.config import load_config
from pipeline.core.progress import Progress
from pipeline.core.stages import run
config = load_config(sys.argv[1])
for name in sys.argv[3:]:
    pid = os.fork()
    if pid == 0:
        try:
            r = run(config, Path(sys.argv[2]), "tiny", [name], progress=Progress(True))
            params, build = r[-1]["reads"]
            assert params.covers(build), "build reads more"
            print(json.dumps([name, sorted(m for m in sys.modules if m.startswith("pipeline"))]), flush=True)
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
    if os.waitpid(pid, 0)[1]:
        sys.exit(f"stage {name} failed")
"""


def test_a_setting_reruns_only_the_stages_that_read_it(copy):
    config, out = copy
    words = config.parent / "tiny.txt"
    was = words.stat().st_mtime
    words.touch()  # the word list: every stage
    assert planned(make("-n", "all", config=config, out=out)) == set(STAGE_NAMES)
    set_time([words], was)
    config.write_text(config.read_text() + "\n# a comment only\n")
    assert make("-q", "all", config=config, out=out).returncode == 0  # comments are not settings
    cases = [
        ("gallows = 6 ", "gallows = 7 ", {"hangman"}),
        ("dpi = 60", "dpi = 61", {"report"}),
        ("[tiles.wwf]\ncounts = { A = 9,", "[tiles.wwf]\ncounts = { A = 10,", {"scrabble"}),
        ("games = 2 ", "games = 3 ", {"scrabble", "leaves"}),  # a fingerprint holds whole top-level tables
        ("games = 4", "games = 5", {"scrabble", "leaves"}),
        ("runs = 2\n", "runs = 3\n", {"boggle", "dictionary"}),  # [boggle.best] is in [boggle], as its variants
        ('[stems]\ntiles = "scrabble"', '[stems]\ntiles = "wwf"', {"stems"}),
        ('[indexes]\ntiles = "scrabble"', '[indexes]\ntiles = "wwf"', {"indexes", "stems"}),
        ("values = { A = 1, B = 3,", "values = { A = 2, B = 3,", set(STAGE_NAMES)),  # the Scrabble tile values
    ]
    fingerprints = sorted((out / "tiny" / ".make").iterdir())
    times = [p.stat().st_mtime for p in fingerprints]
    held = [p.read_bytes() for p in fingerprints]

    def rules() -> None:
        """What `make` runs first when the config changed (here in-process, to keep the test quick: the rules
        name the project's files relative to it, the same in its copy)."""
        make_rules(load_config(config), str(config), out, out / ".rules.mk")

    for old, new, stages in cases:
        edit_config(config, old, new)
        rules()
        plan = planned(make("-n", "all", config=config, out=out))
        edit_config(config, new, old)
        assert plan == downstream(stages), (new, plan)
        rules()  # back as it was: the fingerprints hold what they held (rewritten: their stages would run again)
        assert [p.read_bytes() for p in fingerprints] == held
        for p, when in zip(fingerprints, times):
            os.utime(p, (when, when))
    assert planned(make("-n", "all", config=config, out=out)) == set()


def test_a_failing_stage_changes_no_file(copy):
    config, out = copy
    before = snapshot(out / "tiny")
    edit_config(config, '[indexes]\ntiles = "scrabble"', '[indexes]\ntiles = "bogus"')
    res = make("all", config=config, out=out)
    assert res.returncode != 0
    errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "indexes" in errors[0], res.stderr
    assert "Traceback" not in res.stderr
    assert snapshot(out / "tiny") == before
    edit_config(config, '[indexes]\ntiles = "bogus"', '[indexes]\ntiles = "scrabble"')

    edit_config(config, "[hangman]", "[hangman")  # not TOML: make stops before any stage
    res = make("all", config=config, out=out)
    assert res.returncode != 0 and "invalid TOML" in res.stderr and "wordstats run" not in res.stdout
    assert snapshot(out / "tiny") == before
    edit_config(config, "[hangman", "[hangman]")

    (config.parent / "tiny.txt").write_text("")  # an empty word list
    res = make("all", config=config, out=out)
    assert res.returncode != 0 and "empty" in res.stderr
    assert snapshot(out / "tiny") == before
    manifest = json.loads((out / "tiny" / "manifest.json").read_text())
    for name, entry in manifest["tables"].items():
        assert entry["sha256"] == before[name]
    assert not list((out / "tiny").glob(".*.tmp"))


def test_make_reruns_a_touched_stage_and_those_downstream_for_real(copy):
    config, out = copy
    module = project_of(config) / "pipeline" / "hangman" / "solver.py"
    times = {p.name: p.stat().st_mtime_ns for p in (out / "tiny").iterdir() if p.is_file()}
    module.touch()
    res = make("all", config=config, out=out)
    assert res.returncode == 0, res.stderr
    # the children's pool is solved by the same solver, and the gallery's lists read both Hangman tables
    assert planned(subprocess.CompletedProcess([], 0, res.stdout, "")) == {
        "hangman",
        "hangman_children",
        "gallery",
        "report",
    }
    changed = {p.name for p in (out / "tiny").iterdir() if p.is_file() and p.stat().st_mtime_ns != times[p.name]}
    rebuilt = {"hangman.parquet", "hangman_summary.json", "hangman_children.parquet", "gallery.parquet", "report.html"}
    assert changed - {"manifest.json"} == rebuilt
    assert make("-q", "all", config=config, out=out).returncode == 0


def test_a_forced_ad_hoc_list_on_a_config_lexicon_is_rebuilt_by_make(copy, cli):
    config, out = copy
    other = config.parent / "other.txt"
    other.write_text("zebra\nquagga\n")
    res = cli("run", "ingest", "--source", other, "-l", "tiny", "--force", "--config", config, "--data-dir", out)
    assert res.exit_code == 0, res
    shown = cli("info", "-l", "tiny", "--config", config, "--data-dir", out, "--json")
    assert {row["source"] for row in json.loads(shown.stdout)} == {"ad hoc: other.txt"}
    assert planned(make("-n", "all", config=config, out=out)) == set(STAGE_NAMES)  # make puts the config's back


def test_make_rules_are_generated_not_kept_by_hand():
    text = (ROOT / "Makefile").read_text()
    assert ".DELETE_ON_ERROR" not in text
    for s in STAGES:
        assert f" {s.name}\n" not in text and f"{s.outputs[0]}" not in text  # names come from the registry


def test_make_help_lists_targets():
    res = subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "help"], capture_output=True, text=True)
    assert res.returncode == 0
    assert {"all", "test", "bench", "clean", "help"} <= {line.split()[0] for line in res.stdout.splitlines()}
