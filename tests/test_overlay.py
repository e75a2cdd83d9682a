"""A config that overlays another (`extends`): its values replace the base's, tables merge key by key unless
`replace` names them, relative paths stay relative to the file that set them, a circle is a one-line error, and
the small test config is the default one with only what differs."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.core.makerules import rules
from tests.conftest import DEFAULT_CONFIG, ROOT, SMALL_CONFIG

BASE = """\
default_lexicon = "a"
[lexicons.a]
sources = [{ path = "words/a.txt" }]
[lexicons.b]
sources = [{ path = "words/b.txt" }]
[hangman]
gallows = 6
prior = "uniform"
[report]
dpi = 100
"""


def write(path: Path, text: str) -> Path:
    """A file with `text`, its folder made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_an_overlay_keeps_the_base_values_it_does_not_set(tmp_path):
    write(tmp_path / "base" / "base.toml", BASE)
    top = write(tmp_path / "top.toml", 'extends = "base/base.toml"\n[hangman]\ngallows = 7\n')
    config = load_config(top)
    assert config.raw["hangman"] == {"gallows": 7, "prior": "uniform"} and config.raw["report"] == {"dpi": 100}
    assert set(config.lexicons) == {"a", "b"} and config.default_lexicon == "a"
    assert config.lexicons["a"].sources[0].path == tmp_path / "base" / "words" / "a.txt"  # the base's folder
    assert config.layers == (top, tmp_path / "base" / "base.toml")
    assert config.path == top and "extends" not in config.raw


def test_replace_declares_a_table_whole_and_paths_follow_their_file(tmp_path):
    write(tmp_path / "base" / "base.toml", BASE)
    top = write(
        tmp_path / "top.toml",
        'extends = "base/base.toml"\nreplace = ["lexicons"]\ndefault_lexicon = "c"\n'
        '[lexicons.c]\nsources = [{ path = "c.txt" }]\n',
    )
    config = load_config(top)
    assert set(config.lexicons) == {"c"} and config.lexicons["c"].sources[0].path == tmp_path / "c.txt"
    assert config.folder("lexicons", "c", "sources") == tmp_path
    assert config.folder("report", "dpi") == tmp_path / "base"


@pytest.mark.parametrize(
    "top, says",
    [
        ('extends = "top.toml"\n', "extend each other in a circle"),
        ('extends = "missing.toml"\n', "config file not found"),
        ("extends = 3\n", "field extends: expected a string"),
        ('extends = "base/base.toml"\nreplace = ["tiles"]\n', "'tiles' is not a table of this config"),
        ('extends = "base/base.toml"\n[hangmn]\nx = 1\n', "field hangmn: unknown field"),
    ],
)
def test_a_bad_overlay_is_one_line_naming_the_field(tmp_path, top, says):
    write(tmp_path / "base" / "base.toml", BASE)
    with pytest.raises(WordstatsError, match=says):
        load_config(write(tmp_path / "top.toml", top))


def test_the_small_config_is_the_default_with_only_what_differs():
    small, default = load_config(SMALL_CONFIG), load_config(DEFAULT_CONFIG)
    own = tomllib.loads(SMALL_CONFIG.read_text())
    assert own["extends"] == "../../configs/default.toml"
    assert set(small.lexicons) == {"moby", "web2"} and small.default_lexicon == small.teacher_lexicon == "moby"
    assert small.raw["boggle"]["boards"] < default.raw["boggle"]["boards"]
    assert small.raw["boggle"]["dice"] == default.raw["boggle"]["dice"]  # inherited
    assert small.tiles == default.tiles
    assert small.folder("wordlists", "file").resolve() == (ROOT / "configs").resolve()  # set by the default


def test_make_rules_follow_the_configs_an_overlay_extends():
    text = rules(load_config(SMALL_CONFIG), str(SMALL_CONFIG))
    assert "$(RULES_MK): configs/default.toml" in text
    assert "$(RULES_MK):" not in rules(load_config(DEFAULT_CONFIG), str(DEFAULT_CONFIG))
