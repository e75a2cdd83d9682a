"""The look-up of a word on the teacher's page and `wordstats lookup`: one use case (anagrams.api.look_up), the
same sentences from both clients; its Hangman sentence for each band, and the words not for the classroom."""

from __future__ import annotations

import polars as pl
import pytest
from markupsafe import escape

from tests.conftest import DEFAULT_CONFIG, run_cli
from tests.support.web import get, page_data_fixture, server_fixture  # noqa: F401  (the data and server fixtures)

pytestmark = pytest.mark.slow  # a real server

HEADINGS = ("Words with the same letters", "Add one letter", "Hangman", "Sounds")  # the look-up's sections


@pytest.mark.parametrize(
    "word, every",
    [("stain", False), ("spine", False), ("penis", False), ("penis", True), ("kill", False), ("qzxv", False)],
)
def test_the_page_says_what_wordstats_lookup_says(server, data, word, every):
    """Every sentence of `wordstats lookup` is on the page under the same heading (its --every the page's box),
    and the page says nothing the command does not."""
    asked = ("--every",) if every else ()
    res = run_cli("lookup", word, *asked, "--lexicon", "scowl", "--data-dir", data, "--config", DEFAULT_CONFIG)
    assert res.exit_code == 0, res.stderr
    status, _, body = get(server, f"/lookup?word={word}" + ("&every=1" if every else ""))
    html = body.decode()
    assert status == 200
    lines = res.stdout.splitlines()
    for line in lines:
        heading = next((h for h in HEADINGS if line.startswith(h + ": ")), "")
        sentence = line.removeprefix(heading + ": ") if heading else line
        if heading:
            assert f"<h3>{heading}</h3>" in html, (word, heading)
        assert f"<p>{escape(sentence.replace('--every', '“Show every word”'))}</p>" in html, (word, sentence)
    shown = [h for h in HEADINGS if f"<h3>{h}</h3>" in html]
    assert shown == [h for h in HEADINGS if any(line.startswith(h + ": ") for line in lines)]


def test_lookup_a_word(server):
    """The look-up page: is it a word, its anagrams, hooks, Hangman difficulty and sounds."""
    status, _, body = get(server, "/lookup?word=stain")
    html = body.decode()
    assert status == 200 and "is a word in the scowl word list" in html
    assert "SATIN" in html and "SAINT" in html and "Hangman" in html and "syllable" in html


def test_lookup_names_each_hangman_band_in_a_sentence(server, data):
    """The look-up's Hangman sentence reads right for a word of each band ("an easy word", "a hard word")."""
    table = pl.read_parquet(data / "scowl" / "hangman.parquet", columns=["word", "band", "length"])
    words = ["STAIN", "WATER", "JAZZ"]  # easy, medium and hard by the hangman table
    bands = table.filter(pl.col("word").is_in(words)).group_by("band").agg(pl.col("word").min())
    assert bands.height == 3, bands
    for band, word in bands.iter_rows():
        html = get(server, f"/lookup?word={word.lower()}")[2].decode()
        article = "an" if band[0] in "aeiou" else "a"
        assert f"equally likely: {article} {band} word." in html, (word, band)


@pytest.mark.parametrize("word, why", [("penis", "offensive"), ("kill", "violence"), ("god", "religion")])
def test_lookup_withholds_a_word_not_for_the_classroom(server, word, why):
    """A word no classroom list shows gets no entry (anagrams, hooks, Hangman, sounds) unless every word is asked
    for, and is never counted among its own anagrams not shown."""
    status, _, body = get(server, f"/lookup?word={word}")
    html = body.decode()
    assert status == 200 and "not for the classroom" in html and why in html
    assert "Hangman" not in html and "Add one letter" not in html and "not shown" not in html
    status, _, body = get(server, f"/lookup?word={word}&every=1")
    assert status == 200 and "Hangman" in body.decode() and "not for the classroom (" not in body.decode()
