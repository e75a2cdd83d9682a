"""Every HTML sheet kind laid out as it prints, in real Chromium: numbered items of one sheet line up whatever
their number's width (Hangman's gallows, the scramble's letters and answer lines), nothing runs off the paper,
and each kind's words are on its pages."""

from __future__ import annotations

import random

import polars as pl
import pytest

from pipeline.wordlists.select import TITLES, WordList
from pipeline.wordlists.sheets import to_html

pytestmark = pytest.mark.slow  # a real browser

WORDS = ["cat", "planet", "garden", "jump", "bright", "seven", "under", "window", "basket", "friend", "yellow", "quiet"]
PAPERS = {"A4": (210, 297), "Letter": (216, 279)}  # mm
PX_PER_MM = 96 / 25.4


def sheet(kind: str, paper: str) -> WordList:
    """A sheet of WORDS of one kind on one paper (the scramble's letters shuffled reproducibly)."""
    table = pl.DataFrame({"word": WORDS, "length": [len(w) for w in WORDS], "zipf": [4.0] * len(WORDS)})
    shuffled = ["".join(random.Random(w).sample(w.upper(), len(w))) for w in WORDS]
    return WordList(TITLES[kind], "test", ["test"], table, sheet=kind, paper=paper, scrambled=shuffled)


def lefts(page, selector: str) -> list[float]:
    """The left edge (px) of every element the selector finds."""
    return page.eval_on_selector_all(selector, "els => els.map(e => e.getBoundingClientRect().left)")


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_sheet_kind_prints_aligned_and_inside_the_paper(browser, paper):
    """Laid out at the paper's printable width (15 mm margins), for every kind: no element wider than the page;
    Hangman's gallows in one column for items 1 to 12; the scramble's letters and answer lines each in one
    column; every word of the list on the teacher's page."""
    width_mm = PAPERS[paper][0] - 2 * 15
    page = browser.new_page(viewport={"width": round(width_mm * PX_PER_MM), "height": 1200})
    page.emulate_media(media="print")
    for kind in TITLES:
        page.set_content(to_html(sheet(kind, paper)))
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (kind, overflow)
        teacher = page.inner_text("section.teacher").lower()
        assert all(w in teacher for w in WORDS), kind
        if kind == "hangman":
            assert len(set(lefts(page, "div.hangman svg"))) == 1, kind
            assert len(set(lefts(page, "div.hangman .board"))) == 1, kind
        if kind == "scramble":
            assert len(lefts(page, "div.scramble span.line")) == len(WORDS)
            assert len(set(lefts(page, "div.scramble span.letters"))) == 1, kind
            assert len(set(lefts(page, "div.scramble span.line"))) == 1, kind
    page.close()
