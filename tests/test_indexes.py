"""The indexes stage: anagram families with probabilities, prefixes and hooks, against direct references."""

from __future__ import annotations

import math
from collections import defaultdict

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.anagrams.indexes import anagram_table, hook_table, prefix_table
from pipeline.core.config import load_config
from pipeline.core.files import read_provenance, sha256_file
from pipeline.letters.tiles import combinations, letter_counts
from tests.conftest import SMALL_CONFIG, config_with, corpus

WORDS = [
    "AA",
    "AAH",
    "AAHS",
    "AH",
    "AHA",
    "ASH",
    "HA",
    "HAS",
    "HAH",
    "SH",
    "SHA",
    "ACT",
    "CAT",
    "TAC",
    "ACTS",
    "CATS",
    "SCAT",
    "CAST",
    "TACS",
    "RETAINS",
    "NASTIER",
    "STAINER",
    "RETINAS",
    "SULTANA",
    "A",
    "I",
]

words_lists = st.lists(st.text(alphabet="ABCEHST", min_size=1, max_size=6), min_size=1, max_size=40, unique=True)


def frame(words: list[str]) -> pl.DataFrame:
    """A words table with the columns the stage reads."""
    words = sorted(set(words))
    return pl.DataFrame(
        {"word": words, "length": [len(w) for w in words], "alphagram": ["".join(sorted(w)) for w in words]},
        schema={"word": pl.String, "length": pl.UInt32, "alphagram": pl.String},
    )


@pytest.fixture(scope="module")
def scrabble():
    """The Scrabble tile set of the small test config."""
    return load_config(SMALL_CONFIG).tiles["scrabble"]


def reference_anagrams(words: list[str], tiles) -> dict[str, dict]:
    """Each alphagram's words, combinations (one at a time) and rank within its length, computed directly."""
    families = defaultdict(list)
    for w in words:
        families["".join(sorted(w))].append(w)
    rows = {
        a: {"words": sorted(ws), "combinations": int(combinations(letter_counts(a), tiles)[0])}
        for a, ws in families.items()
    }
    by_length = defaultdict(list)
    for a, row in rows.items():
        by_length[len(a)].append((-row["combinations"], a))
    for group in by_length.values():
        for rank, (_, a) in enumerate(sorted(group), 1):
            rows[a]["probability_order"] = rank
    return rows


@settings(max_examples=40, deadline=None)
@given(words=words_lists)
def test_anagram_table_matches_reference(words, scrabble):
    table = anagram_table(frame(words), scrabble)
    expected = reference_anagrams(sorted(set(words)), scrabble)
    assert table["alphagram"].to_list() == sorted(expected)
    for row in table.iter_rows(named=True):
        want = expected[row["alphagram"]]
        assert row["words"] == want["words"] and row["n_words"] == len(want["words"])
        assert row["length"] == len(row["alphagram"])
        assert row["combinations"] == want["combinations"]
        assert row["probability"] == pytest.approx(want["combinations"] / math.comb(100, row["length"]))
        assert row["probability_order"] == want["probability_order"]


@settings(max_examples=40, deadline=None)
@given(words=words_lists)
def test_prefix_table_matches_reference(words):
    words = sorted(set(words))
    table = prefix_table(frame(words))
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    assert table["prefix"].to_list() == sorted(prefixes)
    for row in table.iter_rows(named=True):
        p = row["prefix"]
        starting = [w for w in words if w.startswith(p)]
        assert row["length"] == len(p)
        assert row["is_word"] == (p in words)
        assert row["n_words"] == len(starting)
        assert row["next_letters"] == sorted({w[len(p)] for w in starting if len(w) > len(p)})


@settings(max_examples=40, deadline=None)
@given(words=words_lists)
def test_hook_table_matches_reference(words):
    words = sorted(set(words))
    lexicon = set(words)
    table = hook_table(frame(words))
    assert table["word"].to_list() == words
    for row in table.iter_rows(named=True):
        w = row["word"]
        assert row["front_hooks"] == [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c + w in lexicon]
        assert row["back_hooks"] == [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if w + c in lexicon]
        assert row["front_inner"] == (w[1:] in lexicon)
        assert row["back_inner"] == (w[:-1] in lexicon)


def test_stage_writes_sorted_tables_with_provenance(build):
    data = build(WORDS, "indexes")
    root = data / "t"
    anagrams = pl.read_parquet(root / "anagrams.parquet")
    assert anagrams["alphagram"].is_sorted()
    retains = anagrams.filter(pl.col("alphagram") == "AEINRST").row(0, named=True)
    assert retains["words"] == ["NASTIER", "RETAINS", "RETINAS", "STAINER"] and retains["combinations"] == 3_006_072
    hooks = pl.read_parquet(root / "hooks.parquet").filter(pl.col("word") == "AH").row(0, named=True)
    # AAH, HAH; AHA; H is no word; A is
    assert hooks == {
        "word": "AH",
        "front_hooks": ["A", "H"],
        "back_hooks": ["A"],
        "front_inner": False,
        "back_inner": True,
    }
    prefixes = pl.read_parquet(root / "prefixes.parquet")
    assert prefixes.filter(pl.col("prefix") == "").row(0, named=True)["n_words"] == len(WORDS)
    provenance = read_provenance(root / "anagrams.parquet")
    assert provenance["stage"] == "indexes" and provenance["params"]["tiles"] == "scrabble"


def test_rebuild_is_byte_identical(build):
    data = build(WORDS, "indexes", "stems", lexicon="one")
    files = ("anagrams.parquet", "prefixes.parquet", "hooks.parquet", "stems.parquet")
    hashes = {f: sha256_file(data / "one" / f) for f in files}
    first = {f: (data / "one" / f).stat().st_ino for f in files}
    assert build(WORDS, "indexes", "stems", lexicon="one") == data  # rebuilt in place
    assert all((data / "one" / f).stat().st_ino != first[f] for f in files)  # every file written anew
    assert hashes == {f: sha256_file(data / "one" / f) for f in files}


def test_words_with_friends_tiles_from_config(build, tmp_path):
    config = config_with(tmp_path, '[indexes]\ntiles = "scrabble"', '[indexes]\ntiles = "wwf"')
    data = build(WORDS, "indexes", config=config)
    row = pl.read_parquet(data / "t" / "anagrams.parquet").filter(pl.col("alphagram") == "AEINRST").row(0, named=True)
    wwf = load_config(config).tiles["wwf"]
    assert row["combinations"] == combinations(letter_counts("AEINRST"), wwf)[0] != 3_006_072
    assert row["probability"] == pytest.approx(row["combinations"] / math.comb(104, 7))


def test_unknown_tile_set_is_a_config_error(cli, tmp_path, word_file):
    config = config_with(tmp_path, '[indexes]\ntiles = "scrabble"', '[indexes]\ntiles = "bananagrams"')
    res = cli(
        "run",
        "indexes",
        "--source",
        word_file(WORDS),
        "--lexicon",
        "t",
        "--data-dir",
        tmp_path / "out",
        "--config",
        config,
        "--quiet",
    )
    assert res.exit_code == 2
    assert "indexes.tiles" in res.stderr and "bananagrams" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_norvig_words4k_has_6475_proper_prefixes(build):
    data = build(corpus("norvig-words4k/words4k.txt"), "indexes")
    prefixes = pl.read_parquet(data / "t" / "prefixes.parquet")
    # a proper prefix (the empty string up to the word minus its last letter) is one that leads on to a word
    assert prefixes.filter(pl.col("next_letters").list.len() > 0).height == 6_475
    assert prefixes.filter(pl.col("is_word")).height == 3_892
    assert prefixes.filter(pl.col("prefix") == "UNDERSTANDIN")["next_letters"].to_list() == [["G"]]
