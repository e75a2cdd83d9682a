"""Expected misses over fair tie-breaks (pipeline/hangman/expected.py): equal to the obvious per-word recursion in
exact fractions (tests/reference/hangman_expected.py) on random lexicons, and to pillowfication's published
values on SOWPODS: every length's five-number summary and ten hardest words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.hangman.expected import expected_misses
from tests.conftest import corpus_words
from tests.reference.hangman_expected import expected_misses as reference

PUBLISHED = Path(__file__).parent / "data" / "pillowfication-hangman-strategy1.json"
WORDS = st.lists(st.text("ABCDEIRST", min_size=1, max_size=5), min_size=1, max_size=30, unique=True)


@settings(max_examples=60, deadline=None)
@given(words=WORDS)
def test_equal_to_the_per_word_recursion_in_fractions(words):
    found = expected_misses(words)
    for word, value in zip(words, found):
        assert value == pytest.approx(float(reference(word, words)), abs=1e-9), word


def test_a_family_told_apart_by_one_letter_each():
    """BAT, CAT, HAT, MAT: after A and T, each guess names one word; the target's letter is equally likely to
    come first, second, third or fourth, so each word misses (0 + 1 + 2 + 3) / 4 = 1.5 times."""
    assert expected_misses(["BAT", "CAT", "HAT", "MAT"]) == [1.5, 1.5, 1.5, 1.5]


def box(values: list[float]) -> list[float]:
    """The published five-number summary: min, the sorted values at n/4, n/2 and 3n/4 (rounded down), max."""
    s = sorted(values)
    n = len(s)
    return [s[0], s[n // 4], s[n // 2], s[n * 3 // 4], s[-1]]


@pytest.mark.slow
def test_sowpods_matches_the_published_table():
    published = json.loads(PUBLISHED.read_text())
    words = [w for w in corpus_words("princeton-boggle/dictionary-sowpods.txt") if w.isalpha()]
    found = dict(zip(words, expected_misses(words)))
    for length, summary in published["diff"].items():
        values = [v for w, v in found.items() if len(w) == int(length)]
        assert box(values) == pytest.approx(summary, abs=1e-9), length
        hardest = sorted((w for w in found if len(w) == int(length)), key=lambda w: (-found[w], w))[:10]
        assert [[w, found[w]] for w in hardest] == [
            [w, pytest.approx(v, abs=1e-9)] for w, v in published["words"][length]
        ], length
    assert found["ZILL"] == 12.5 and found["AY"] == 8.0  # the examples
