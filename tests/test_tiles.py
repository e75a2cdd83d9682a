"""Tile sets and bag arithmetic: the Zyzzyva check figures, and counts against drawing every set of tiles."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import LETTERS
from pipeline.letters.tiles import (
    BLANK_INDEX,
    combinations,
    draws,
    letter_counts,
    parse_rack,
    probability,
    rack_counts,
    unseen,
)
from pipeline.letters.tilesets import TileSet
from tests.conftest import DEFAULT_CONFIG


@pytest.fixture(scope="module")
def config():
    """The default config."""
    return load_config(DEFAULT_CONFIG)


def test_aeinrst_combinations_match_zyzzyva(config):
    scrabble = config.tiles["scrabble"]
    counts = letter_counts("AEINRST")
    assert combinations(counts, scrabble, use_blanks=False)[0] == 839_808
    assert combinations(counts, scrabble)[0] == 3_006_072
    assert probability(counts, scrabble)[0] == pytest.approx(3_006_072 / math.comb(100, 7))


def test_words_with_friends_bag(config):
    wwf = config.tiles["wwf"]
    assert wwf.size == 104
    # A 9, E 13, I 8, N 5, R 6, S 5, T 7 tiles in the Words With Friends bag
    assert combinations(letter_counts("AEINRST"), wwf, use_blanks=False)[0] == 9 * 13 * 8 * 5 * 6 * 5 * 7
    assert draws(7, wwf) == math.comb(104, 7)


def test_blanks_cover_letters_the_bag_lacks(config):
    scrabble = config.tiles["scrabble"]
    assert combinations(letter_counts("ZZZ"), scrabble)[0] == 1  # the one Z and both blanks
    assert combinations(letter_counts("ZZZ"), scrabble, use_blanks=False)[0] == 0
    assert combinations(letter_counts("QQQQ"), scrabble)[0] == 0


def toy_bag(counts: dict[str, int], blanks: int) -> TileSet:
    """A tile set with these letter counts and blanks, every letter worth 1."""
    full = {c: counts.get(c, 0) for c in LETTERS} | {"?": blanks}
    return TileSet("toy", full, {c: 1 for c in LETTERS} | {"?": 0})


def spells(tiles: tuple[str, ...], word: str) -> bool:
    """Whether these physical tiles (? = blank) can spell the word, using every tile."""
    real = Counter(t for t in tiles if t != "?")
    return len(tiles) == len(word) and not (real - Counter(word))  # blanks cover the rest


@settings(max_examples=60, deadline=None)
@given(
    counts=st.dictionaries(st.sampled_from("ABCDE"), st.integers(0, 3), min_size=1),
    blanks=st.integers(0, 2),
    word=st.text(alphabet="ABCDE", min_size=1, max_size=4),
)
def test_combinations_count_every_draw_of_physical_tiles(counts, blanks, word):
    bag = toy_bag(counts, blanks)
    physical = [c for c, n in sorted(counts.items()) for _ in range(n)] + ["?"] * blanks
    expected = sum(spells(draw, word) for draw in itertools.combinations(physical, len(word)))
    assert combinations(letter_counts(word), bag)[0] == expected
    no_blank = sum(spells(d, word) for d in itertools.combinations([t for t in physical if t != "?"], len(word)))
    assert combinations(letter_counts(word), bag, use_blanks=False)[0] == no_blank


def test_many_rows_at_once_match_one_at_a_time(config):
    scrabble = config.tiles["scrabble"]
    words = ["AA", "QI", "MUUMUU", "RETAINS", "ZZZ", "JINX", "ANTIDISESTABLISHMENTARIANISM"]
    together = combinations(np.array([letter_counts(w) for w in words]), scrabble)
    alone = [combinations(letter_counts(w), scrabble)[0] for w in words]
    assert together.tolist() == alone


def test_unseen_tiles(config):
    scrabble = config.tiles["scrabble"]
    left = unseen(scrabble, parse_rack("QQ?"))
    assert left[LETTERS.index("Q")] == 0 and left[BLANK_INDEX] == 1 and left.sum() == 100 - 2


@pytest.mark.parametrize(
    "rack, message",
    [
        ("AB1", "character 3 ('1')"),
        ("A B", "character 2 (' ')"),
        ("ÉTÉ", "character 1 ('É')"),
        ("STRAßE", "character 5 ('ß')"),  # str.upper would make it STRASSE
        ("ıT", "character 1 ('ı')"),  # and this IT
        ("ABCDEFGHIJKLMNOPQRSTU", "21 tiles, at most 20"),
        ("?????", "5 blanks, at most 4"),
        ("", "empty rack"),
    ],
)
def test_bad_racks_are_one_line_errors(rack, message):
    with pytest.raises(WordstatsError) as err:
        parse_rack(rack)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_rack_is_case_insensitive():
    assert parse_rack("sultna?").tolist() == parse_rack("SULTNA?").tolist()
    assert parse_rack("a?")[BLANK_INDEX] == 1


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ABCQXYZ?ab1 -", max_size=9))
def test_rack_counts_count_each_tile_and_refuse_others(text):
    if set(text) <= set(LETTERS + "?"):
        expected = [text.count(ch) for ch in LETTERS] + [text.count("?")]
        counts = rack_counts(text)
        assert counts.dtype == np.int64 and counts.tolist() == expected
    else:
        with pytest.raises(ValueError, match="a rack holds capitals A-Z and \\? only"):
            rack_counts(text)
