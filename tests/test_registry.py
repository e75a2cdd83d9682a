"""The packages' manifests gathered by the core: every table has its schema, the registry refuses manifests
that contradict each other, and the core names no game."""

from __future__ import annotations

import re

import polars as pl
import pytest

from pipeline import games
from pipeline.core import registry
from pipeline.core.manifest import Manifest, Stage, Table
from pipeline.core.modules import PACKAGE_DIR
from pipeline.core.schemas import TABLES, column_type, type_name
from pipeline.core.stages import STAGES


def test_every_package_of_the_list_has_a_manifest():
    found = registry.manifests()
    assert [m.name for m in found] == [p.rpartition(".")[2] for p in games.GAMES]
    assert all(s.manifest == f"{p}.manifest" for p, m in zip(games.GAMES, found) for s in m.stages)


def test_every_parquet_output_has_its_schema():
    parquet = {name.removesuffix(".parquet") for s in STAGES for name in s.outputs if name.endswith(".parquet")}
    assert parquet == set(TABLES)
    assert {"phonics", "leaves", "gaddag", "boggle_dictionary"} <= set(TABLES)


def test_column_types_read_as_tables_md_writes_them():
    for text in ("str", "i32", "list[str]", "list[u64]", "list[struct{letter: str, words: list[str]}]"):
        assert type_name(column_type(text)) == text
    assert column_type("list[struct{letter: str, words: list[str]}]") == pl.List(
        pl.Struct({"letter": pl.String(), "words": pl.List(pl.String())})
    )
    with pytest.raises(ValueError, match="unknown column type"):
        column_type("string")


def test_config_sections_are_the_core_s_and_the_packages():
    sections = registry.sections()
    assert sections[: len(registry.CORE_SECTIONS)] == registry.CORE_SECTIONS
    assert {"boggle", "hangman", "scrabble", "indexes", "stems", "phonics", "report", "wordlists"} <= set(sections)
    assert len(sections) == len(set(sections))


WORDS = Stage("w", "m", (), ("words.parquet",))
WORDS_TABLE = Table("words", {"word": ("str", "the word")})


@pytest.mark.parametrize(
    "manifests, says",
    [
        ([Manifest("a", stages=(WORDS,), tables=(WORDS_TABLE,)), Manifest("a")], "two packages"),
        ([Manifest("a", sections=("x",)), Manifest("b", sections=("x",))], "declared twice"),
        ([Manifest("a", sections=("lexicons",))], "declared twice"),
        ([Manifest("a", stages=(WORDS,))], "has no schema"),
        ([Manifest("a", tables=(WORDS_TABLE,))], "no stage of the package writes"),
        ([Manifest("a", stages=(Stage("x", "m", ("words",), ("x.json",)),))], "which no stage before it writes"),
        (
            [
                Manifest("a", stages=(WORDS,), tables=(WORDS_TABLE,)),
                Manifest("b", stages=(Stage("v", "m", (), ("words.parquet",)),)),
            ],
            "which stage 'w' writes",
        ),
        (
            [Manifest("a", stages=(WORDS, Stage("w", "m", (), ("x.json",))), tables=(WORDS_TABLE,))],
            "declared twice",
        ),
        ([Manifest("a", stages=(Stage("x", "m", (), ("x.json",), optional_inputs=("nothing",)),))], "no stage writes"),
    ],
)
def test_contradicting_manifests_are_refused(manifests, says):
    with pytest.raises(RuntimeError, match=says):
        registry.check(manifests)


def test_the_core_names_no_game():
    """The core and the build commands learn the packages from the list and their manifests only."""
    names = "|".join(re.escape(p) for p in games.GAMES)
    core = sorted((PACKAGE_DIR / "core").glob("*.py")) + [PACKAGE_DIR / "cli" / n for n in ("__init__.py", "app.py")]
    named = [f"{p.name}: {m.group(0)}" for p in core for m in re.finditer(rf"\b(?:{names})\b", p.read_text())]
    assert named == []
