"""The word-list choices are parsed once, at the edge: a value's text (a form's, a preset's, the command line's)
parses into its typed value, and that value's text parses back to the same value; every preset of the shipped
settings holds typed values; the filters never parse text again; the page, the command line and a Python
program given the same text make the same choices."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.core.errors import FieldError
from pipeline.web.requests import BadRequest, list_request
from pipeline.wordlists.api import FIELDS, Choices, WordListRequest
from pipeline.wordlists.choices import merge
from pipeline.wordlists.settings import load_settings
from pipeline.wordlists.values import Grades, ListPattern, Span, Swaps
from tests.conftest import DEFAULT_CONFIG, ROOT

LETTERS = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=6)
RANGES = st.tuples(st.integers(1, 30), st.integers(0, 10)).map(lambda p: (p[0], p[0] + p[1]))


def range_text(lo: int, hi: int, low_name=str) -> str:
    """A range as a teacher types it: "5" or "4-6"."""
    return low_name(lo) if lo == hi else f"{low_name(lo)}-{hi}"


TEXTS = {  # a field → what a teacher may type in it
    "length": RANGES.map(lambda r: range_text(*r)),
    "syllables": RANGES.filter(lambda r: r[1] <= 12).map(lambda r: range_text(*r)),
    "grade": st.tuples(st.integers(0, 5), st.integers(0, 5)).map(
        lambda p: range_text(min(p), max(p), lambda g: "K" if g == 0 else str(g))
    ),
    "starts_with": LETTERS,
    "ends_with": LETTERS,
    "contains": LETTERS,
    "pattern": st.text("ABCdefg?*", min_size=1, max_size=8).filter(lambda t: any(c.isalpha() for c in t)),
    "swap": st.lists(LETTERS, min_size=1, max_size=5).map(",".join),
    "phase": st.sampled_from(["uk-2", "uk-3", "uk-4", "uk-5", "us-1", "us-4", "us-7"]),
    "vowel": st.sampled_from("aeiouAEIOU"),
    "sound": st.sampled_from(["ch", "SH", "Th", "AE"]),
    "min_zipf": st.floats(0, 8, allow_nan=False),
    "count": st.integers(1, 10_000),
}


@given(st.sampled_from(sorted(TEXTS)).flatmap(lambda name: st.tuples(st.just(name), TEXTS[name])))
@settings(max_examples=300, deadline=None)
def test_a_value_parses_once_and_its_text_gives_it_again(case):
    name, text = case
    once = Choices.of({name: text})
    again = Choices.of({name: once.text(name)})
    assert once[name] == again[name]
    assert not isinstance(once[name], str) or once.text(name).upper() == once[name].upper()


def test_parsed_values_are_typed():
    chosen = Choices.of(
        {"length": "4-6", "grade": "K-2", "syllables": "2", "pattern": "*ight", "swap": "cat, Dog", "starts_with": "ch"}
    )
    assert chosen["length"] == Span(4, 6) and chosen["grade"] == Grades(0, 2) and chosen["syllables"] == Span(2, 2)
    assert chosen["pattern"] == ListPattern("*IGHT", chosen["pattern"].regex) and chosen["pattern"].regex.startswith(
        "^"
    )
    assert chosen["swap"] == Swaps(("CAT", "DOG")) and chosen["starts_with"] == "CH"
    assert chosen.texts() == {
        "length": "4-6", "grade": "K-2", "syllables": "2", "pattern": "*IGHT", "swap": "cat,dog", "starts_with": "ch"
    }  # fmt: skip


def test_every_shipped_preset_holds_typed_values():
    presets = load_settings(load_config(DEFAULT_CONFIG)).presets
    assert presets
    for name, chosen in presets.items():
        assert isinstance(chosen, Choices), name
        assert Choices.of(chosen.texts()) == chosen, name  # its text, parsed again, is the same preset


def test_the_filters_never_parse_text():
    """filters.py and select.py read the typed values: no parser of the vocabulary is called there."""
    parsers = {
        "parse_length",
        "parse_range",
        "parse_grade",
        "letters",
        "pattern_for_list",
        "check_option",
    }
    for module in ("filters", "select"):
        tree = ast.parse((ROOT / "pipeline" / "wordlists" / f"{module}.py").read_text())
        called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        called |= {n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
        assert not called & parsers, (module, called & parsers)


def test_the_page_the_command_line_and_a_program_make_the_same_choices():
    texts = {"length": "4-5", "grade": "k-2", "starts_with": "Ch", "swap": "chin", "sort": "Frequency"}
    page = list_request({**texts, "preset": "spelling-k2"}, 100).given
    program = WordListRequest(preset="spelling-k2", given=texts).given
    assert page == program
    assert page["sort"] == "frequency" and page["grade"] == Grades(0, 2)


@pytest.mark.parametrize(
    ("given", "field"),
    [({"length": "6-4"}, "--length"), ({"grade": "K-9"}, "--grade"), ({"pattern": "???"}, "--pattern"),
     ({"swap": "c@t"}, "--swap"), ({"phase": "uk-9"}, "--phase"), ({"starts_with": "c4"}, "--starts-with")],
)  # fmt: skip
def test_a_bad_value_is_refused_where_it_is_given_naming_its_field(given, field):
    with pytest.raises(FieldError) as refused:
        WordListRequest(given=given)
    assert str(refused.value).startswith(field)
    with pytest.raises(BadRequest) as on_page:
        list_request(given, 100)
    label = next(f.label for f in FIELDS if f.name == next(iter(given)))
    assert f"“{label}”" in str(on_page.value) and "--" not in str(on_page.value)


def test_a_preset_is_replaced_field_by_field():
    presets = {"p": Choices.of({"length": "3-5", "common": True, "sort": "alpha"})}
    merged = merge(presets, "P", Choices.of({"min_zipf": 4.0, "length": "6"}))
    assert dict(merged) == {"length": Span(6, 6), "sort": "alpha", "min_zipf": 4.0}  # min_zipf replaces common
    with pytest.raises(FieldError, match="--common or --min-zipf"):
        merge(presets, None, Choices.of({"common": True, "min_zipf": 3.0}))


def test_a_bad_preset_value_names_the_settings_file_and_field(tmp_path):
    settings_file = tmp_path / "wordlists.toml"
    shipped = (ROOT / "configs" / "wordlists.toml").read_text()
    settings_file.write_text(shipped + '\n[presets.broken]\nlength = "9-2"\n')
    config = tmp_path / "config.toml"
    config.write_text(Path(DEFAULT_CONFIG).read_text().replace('file = "wordlists.toml"', f'file = "{settings_file}"'))
    with pytest.raises(Exception) as refused:
        load_settings(load_config(config))
    assert str(settings_file) in str(refused.value) and "presets.broken.length" in str(refused.value)


def test_a_yes_or_no_field_takes_only_yes_or_no():
    with pytest.raises(FieldError, match="--blanks: expected true or false, got 'no'"):
        WordListRequest(given={"blanks": "no"})
    assert WordListRequest(given={"blanks": False}).given["blanks"] is False  # --no-blanks: a choice, kept


def test_parsed_values_given_again_are_the_same_choices():
    """A program may build a request from a preset's choices and more: the parsed values read as their text."""
    chosen = Choices.of({"pattern": "*ight", "phase": "uk-3", "swap": "cat", "length": "4-6", "grade": "K"})
    assert WordListRequest(given={**chosen, "count": 5}).given == Choices.of({**chosen.texts(), "count": 5})
