"""Settings declared as data (pipeline/core/settings.py, each package's manifest): the config loader refuses a bad
value or an unknown field of any declared table in one line naming it; configs/default.toml's comments are the
declarations' help; a setting written out at its default changes no stage's fingerprint; `wordstats info
--settings` lists them with the config's values; the Makefile's defaults that are settings come from the config."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as budget
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.core.declared import CORE_SETTINGS
from pipeline.core.errors import WordstatsError
from pipeline.core.fingerprint import stage_fingerprint
from pipeline.core.registry import settings
from pipeline.core.settings import Setting, shown, tables
from pipeline.core.stages import STAGES
from pipeline.wordlists.manifest import FILE_SETTINGS
from pipeline.wordlists.settings import load_settings
from tests.conftest import DEFAULT_CONFIG, ROOT, project_copy, run_make

DECLARED = settings()
VALUES = [s for s in DECLARED if s.kind != "table"]
KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^#]*?)\s*(#.*)?$")


def overlay(folder: Path, text: str, name: str = "c.toml") -> Path:
    """A config that extends the default one with `text`."""
    path = folder / name
    path.write_text(f'extends = "{DEFAULT_CONFIG.resolve()}"\n{text}')
    return path


def header(s: Setting) -> str:
    """The TOML header of a setting's table."""
    return f"[{s.table}]\n"


def bad_values(s: Setting) -> list[object]:
    """Values of the wrong type or outside the range or choices of a setting."""
    wrong_type = "3" if s.kind in ("integer", "number", "flag") else 3
    bad: list[object] = [wrong_type]
    if s.kind in ("integer", "number") and s.lo is not None:
        bad.append(s.lo - 1)
    if s.kind in ("integer", "number") and s.hi is not None:
        bad.append(s.hi + 1)
    if s.kind == "text" and s.choices:
        bad.append("no-such-choice")
    if s.kind == "list" and s.lo is not None:
        bad.append([s.hi + 1])
    return bad


@budget(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setting=st.sampled_from(VALUES), data=st.data())
def test_a_bad_value_of_any_setting_is_one_line_naming_it(tmp_path, setting, data):
    value = data.draw(st.sampled_from(bad_values(setting)))
    path = overlay(tmp_path, f"{header(setting)}{setting.name} = {shown(value)}\n")
    with pytest.raises(WordstatsError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: field {setting.key}: ") and "\n" not in message, message


@pytest.mark.parametrize("table", tables(DECLARED))
def test_an_unknown_field_of_a_declared_table_is_refused(tmp_path, table):
    path = overlay(tmp_path, f"[{table}]\nnot_a_setting = 1\n")
    with pytest.raises(WordstatsError, match=rf"field {re.escape(table)}\.not_a_setting: unknown field"):
        load_config(path)


def test_the_warm_up_and_test_configs_load():
    """Every config the project ships loads (the warm-up's once set a report resolution below the range: its
    report stage never ran, so nothing had read the value)."""
    for path in (ROOT / "configs" / "warm.toml", ROOT / "tests" / "configs" / "small.toml", DEFAULT_CONFIG):
        load_config(path)


def commented(path: Path) -> dict[str, tuple[str, str]]:
    """Each `name = value  # comment` of a config file: its key (table.name) → (value, the comment with its
    continuation lines joined)."""
    found: dict[str, tuple[str, str]] = {}
    lines, table = path.read_text().splitlines(), ""
    for i, line in enumerate(lines):
        head = re.match(r"^\[([^\]]+)\]", line)
        table = head.group(1) if head else table
        m = KEY.match(line)
        if not m:
            continue
        parts = [m.group(3)[1:].strip()] if m.group(3) else []
        column = line.find("#")
        for more in lines[i + 1 :]:
            if not (more.lstrip().startswith("#") and more.find("#") == column and more[:column].strip() == ""):
                break
            parts.append(more[column + 1 :].strip())
        found[f"{table}.{m.group(1)}" if table else m.group(1)] = (m.group(2), " ".join(parts))
    return found


def test_the_default_config_writes_every_setting_of_its_tables_with_its_help():
    written = commented(DEFAULT_CONFIG)
    present = {key.rsplit(".", 1)[0] for key in written}
    for s in VALUES:
        if s.table in present:
            assert s.key in written, f"{s.key} is declared but configs/default.toml's [{s.table}] leaves it out"
            assert written[s.key][1] == s.help, (s.key, written[s.key][1], s.help)
    undeclared = {key for key in written if key.rsplit(".", 1)[0] in tables(DECLARED)} - {s.key for s in VALUES}
    assert undeclared == set()


# the packages' top tables of plain settings (the core's [cluster] is read by no stage: the bytes are the same
# wherever the jobs run)
SCALAR_TABLES = [
    t
    for t in tables(DECLARED)
    if "." not in t
    and t not in tables(CORE_SETTINGS)
    and all(s.kind != "table" for s in DECLARED if s.table == t)
    and any(s.default is not None for s in DECLARED if s.table == t)  # a table of derived defaults has nothing to write
]


@pytest.mark.parametrize("table", SCALAR_TABLES)
def test_a_setting_written_at_its_default_changes_no_fingerprint(tmp_path, table):
    """A table left empty and the same table with each setting written at its default are the same settings to
    every stage; a changed value is not."""
    given = [s for s in VALUES if s.table == table and s.default is not None]
    empty = overlay(tmp_path, f'replace = ["{table}"]\n[{table}]\n', "empty.toml")
    spelled = "".join(f"{s.name} = {shown(s.default)}\n" for s in given)
    written = overlay(tmp_path, f'replace = ["{table}"]\n[{table}]\n{spelled}', "written.toml")
    first = given[0]
    other = other_value(first)
    changed = overlay(tmp_path, f'replace = ["{table}"]\n[{table}]\n{first.name} = {shown(other)}\n', "changed.toml")
    configs = {name: load_config(path) for name, path in (("e", empty), ("w", written), ("c", changed))}
    spec = configs["e"].lexicon("enable")
    prints = {name: [stage_fingerprint(s, c, spec) for s in STAGES] for name, c in configs.items()}
    assert prints["e"] == prints["w"]
    assert prints["e"] != prints["c"]


def other_value(s: Setting) -> object:
    """A valid value of a setting other than its default."""
    if s.kind == "integer":
        return s.default + 1 if s.hi is None or s.default < s.hi else s.default - 1
    if s.kind == "number":
        return s.default + 0.5 if s.hi is None or s.default + 0.5 <= s.hi else s.default - 0.5
    if s.kind == "text" and s.choices:
        return next(c for c in s.choices if c != s.default)
    return s.default + "x"


def test_info_lists_every_setting_with_this_configs_value(cli, tmp_path):
    path = overlay(tmp_path, "[hangman]\ngallows = 8\n[boggle.best]\nruns = 3\n")
    res = cli("info", "--settings", "--json", "--config", path)
    assert res.exit_code == 0, res
    rows = {row["setting"]: row for row in json.loads(res.stdout)}
    assert list(rows) == [s.key for s in DECLARED]
    assert rows["hangman.gallows"]["value"] == "8" and rows["hangman.gallows"]["default"] == "6"
    assert rows["boggle.best.runs"]["value"] == "3" and rows["hangman.bands"]["allowed"] == "one of tertiles, misses"
    assert all(rows[s.key]["help"] == s.help for s in DECLARED)


@pytest.mark.slow
def test_the_makefiles_defaults_that_are_settings_come_from_the_config(tmp_path):
    """`make -n leaves-reference` and `playability-reference` pass the config's seeds and prior weight; `make VAR=`
    still overrides; the Makefile sets no default of its own for them."""
    project = project_copy(tmp_path / "project")
    config = overlay(tmp_path, "[scrabble.leaves]\nseed = 41\nprior_weight = 500\n[scrabble.playability]\nseed = 43\n")
    out = tmp_path / "out"
    leaves = run_make(project, "-n", "leaves-reference", f"CONFIG={config}", f"OUT={out}")
    assert leaves.returncode == 0, leaves.stderr
    assert re.search(r"--seed 41\b", leaves.stdout) and re.search(r"--prior-weight 500\b", leaves.stdout)
    playability = run_make(
        project, "-n", "playability-reference", f"CONFIG={config}", f"OUT={out}", "PLAYABILITY_SEED=5"
    )
    assert re.search(r"--seed 5\b", playability.stdout), playability.stdout
    makefile = (ROOT / "Makefile").read_text()
    assert not [s.make for s in DECLARED if s.make and re.search(rf"^{s.make}\s*\??=", makefile, re.M)]


def test_the_word_list_settings_file_writes_its_settings_with_their_help():
    """configs/wordlists.toml's own settings (pipeline/wordlists/manifest.py FILE_SETTINGS) are each written with
    their help as the comment; a value outside its choices is one line naming the file and the field."""
    written = commented(ROOT / "configs" / "wordlists.toml")
    for s in (s for s in FILE_SETTINGS if s.kind != "table"):
        assert written[s.key][1] == s.help, (s.key, written[s.key][1], s.help)


def test_a_bad_value_of_the_word_list_settings_file_is_one_line(tmp_path):
    settings = tmp_path / "lists.toml"
    settings.write_text((ROOT / "configs" / "wordlists.toml").read_text().replace('paper = "A4"', 'paper = "B5"', 1))
    config = overlay(tmp_path, f'[wordlists]\nfile = "{settings}"\n')
    with pytest.raises(WordstatsError, match=rf"^{re.escape(str(settings))}: field paper: expected one of"):
        load_settings(load_config(config))
