"""Classroom sheets: every kind to PDF, HTML and Markdown; word search checked by an independent search;
answer keys; letter and A4 paper; PDF pages rendered to images when poppler is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.wordlists.fields import SHEETS
from pipeline.wordlists.puzzles import (
    DIFFICULTY,
    DIRECTIONS,
    GRID_WORDS,
    MAX_SIDE,
    scrambles,
    word_search,
    word_searches,
)
from pipeline.wordlists.select import WordList
from pipeline.wordlists.sheets import scrambled, to_html, to_markdown, to_pdf

WORDS = ["cat", "frog", "lamp", "tree", "ship", "cake", "bird", "night", "rain", "sun", "jump", "duck"]
POINTS_PER_MM = 72 / 25.4


def sheet(kind: str, words=WORDS, paper: str = "Letter", difficulty: str = "medium", seed: int = 1) -> WordList:
    """A word list printed as sheet `kind`."""
    table = pl.DataFrame({"word": words, "length": [len(w) for w in words], "zipf": [4.0] * len(words)})
    return WordList(
        title="Week 3 words",
        lexicon="test",
        filters=["from the test word list", "grade 1", f"{len(words)} words picked at random (set {seed})"],
        table=table,
        sheet=kind,
        paper=paper,
        difficulty=difficulty,
        seed=seed,
    )


def find_in_grid(grid: tuple[str, ...], word: str) -> list[tuple[int, int, int, int]]:
    """Every (row, col, dr, dc) where `word` reads in the grid, by brute force in all 8 directions."""
    n = len(grid)
    hits = []
    for r in range(n):
        for c in range(n):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr, dc) == (0, 0):
                        continue
                    cells = [(r + i * dr, c + i * dc) for i in range(len(word))]
                    if all(0 <= y < n and 0 <= x < n for y, x in cells):
                        if "".join(grid[y][x] for y, x in cells) == word:
                            hits.append((r, c, dr, dc))
    return hits


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9), min_size=1, max_size=14, unique=True),
    difficulty=st.sampled_from(sorted(DIFFICULTY)),
    seed=st.integers(0, 10**6),
)
def test_word_search_words_are_found_by_an_independent_search(words, difficulty, seed):
    """Every word lies in the grid where the answer key says, in an allowed direction."""
    ws = word_search(words, difficulty, seed)
    allowed = {DIRECTIONS[d] for d in DIFFICULTY[difficulty][0]}
    assert all(len(row) == ws.size for row in ws.grid) and all(row.isupper() for row in ws.grid)
    assert [p.word for p in ws.placements] == [w.upper() for w in words]
    for p in ws.placements:
        hits = find_in_grid(ws.grid, p.word)
        assert (p.row, p.col, *DIRECTIONS[p.direction]) in hits
        assert DIRECTIONS[p.direction] in allowed


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    words=st.lists(st.text("abcdeilmnorst", min_size=3, max_size=12), min_size=1, max_size=70, unique=True),
    difficulty=st.sampled_from(sorted(DIFFICULTY)),
    seed=st.integers(0, 10**6),
)
def test_any_list_makes_word_searches_where_each_word_reads_once(words, difficulty, seed):
    """Any list of words of three letters or more goes into as few grids as hold it (at most GRID_WORDS words and
    MAX_SIDE cells a side each, one grid when one holds it): every word in exactly one grid, and it reads there
    once, where the key says, except inside another of the grid's words (checked by brute force)."""
    grids = word_searches(words, difficulty, seed)
    placed = [p.word for g in grids for p in g.placements]
    assert sorted(placed) == sorted(w.upper() for w in words)
    assert all(len(g.placements) <= GRID_WORDS and g.size <= MAX_SIDE for g in grids)
    if len(words) <= GRID_WORDS and sum(map(len, words)) * 2.2 <= 12**2:
        assert len(grids) == 1 and grids[0] == word_search(words, difficulty, seed)
    for g in grids:
        for p in g.placements:
            others = [q for q in g.placements if q.word != p.word and p.word in q.word + " " + q.word[::-1]]
            hits = find_in_grid(g.grid, p.word)
            inside = {h for h in hits for q in others if set(cell_run(h, len(p.word))) <= set(q.cells())}
            palindrome = p.word == p.word[::-1]
            assert (p.row, p.col, *DIRECTIONS[p.direction]) in hits
            assert len(set(hits) - inside) == (2 if palindrome and len(p.word) > 1 else 1), (p, hits)


def cell_run(hit: tuple[int, int, int, int], n: int) -> list[tuple[int, int]]:
    """The cells of a word of n letters read from a hit (row, column, row step, column step)."""
    r, c, dr, dc = hit
    return [(r + i * dr, c + i * dc) for i in range(n)]


@pytest.mark.slow
def test_the_same_sheet_is_the_same_bytes_and_a_title_the_font_cannot_print_is_refused():
    """A sheet made twice, a second apart, is byte for byte the same (PDF and HTML: no timestamps); a title in a
    script the font lacks is a one-line error before anything is drawn, one in a script it has prints."""
    import time

    from pipeline.core.errors import WordstatsError

    wl = sheet("word-search")
    first = (to_pdf(wl), to_html(wl))
    time.sleep(1.1)
    assert (to_pdf(wl), to_html(wl)) == first
    for title in ("\u8a5e\u8a9e", "\u05de\u05d9\u05dc\u05d9\u05dd \u8a5e"):
        with pytest.raises(WordstatsError, match="--title: the font DejaVu Sans has no letters for"):
            to_pdf(replace(wl, title=title))
    assert to_pdf(replace(wl, title="\u039b\u03ad\u03be\u03b5\u03b9\u03c2")).startswith(b"%PDF")


def test_word_search_is_reproducible_and_hard_uses_backwards_words():
    """The same seed gives the same grid; the hard level places some words backwards or upwards."""
    a = word_search(WORDS, "hard", 7)
    assert a == word_search(WORDS, "hard", 7) and a != word_search(WORDS, "hard", 8)
    many = [word_search(WORDS, "hard", s) for s in range(5)]
    used = {p.direction for ws in many for p in ws.placements}
    assert {"left", "up", "up-left", "down-left"} & used
    easy = {p.direction for s in range(5) for p in word_search(WORDS, "easy", s).placements}
    assert easy <= {"right", "down"}


def test_scrambles_are_anagrams_and_differ():
    """Each scramble holds the word's letters in another order; a word of one repeated letter cannot be
    scrambled (ValueError naming it), and a sheet prints it as it is."""
    for w, s in zip(WORDS, scrambles(WORDS, 3)):
        assert sorted(w.upper()) == sorted(s) and s != w.upper()
    assert scrambles(WORDS, 3) == scrambles(WORDS, 3)
    with pytest.raises(ValueError, match="aaa"):
        scrambles(["aaa"], 3)
    assert scrambled(sheet("scramble", words=["aaa", "cat"]))[0] == "AAA"


def pdf_text(data: bytes) -> str:
    """The text drawing operators of a PDF's content streams (inflated)."""
    out = []
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out.append(zlib.decompress(match.group(1)).decode("latin-1"))
        except zlib.error:
            out.append(match.group(1).decode("latin-1"))
    return "\n".join(out)


def page_sizes(data: bytes) -> list[tuple[float, float]]:
    """The MediaBox of each page, in points."""
    return [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)]


@pytest.mark.parametrize("kind", [k if k == "list" else pytest.param(k, marks=pytest.mark.slow) for k in SHEETS])
def test_every_sheet_kind_as_pdf_html_markdown(kind):
    """Each kind renders in the three formats; the student page has the title and a name line, and the
    teacher's note (source, set number) is printed too."""
    wl = sheet(kind)
    data = to_pdf(wl)
    assert data.startswith(b"%PDF") and b"DejaVu" in data
    html = to_html(wl)
    assert "<h1>Week 3 words</h1>" in html and ("Name:" in html) == (kind != "flashcards") and "set 1" in html
    assert "@page { size: letter" in html and "break-before: page" in html
    md = to_markdown(wl)
    teacher = "## Answer key" if kind in ("word-search", "scramble", "hangman") else "## For the teacher"
    assert md.startswith("# Week 3 words\n") and teacher in md
    student = md.split(teacher)[0]
    assert "seed" not in student and "test word list" not in student  # technical text only for the teacher
    if kind in ("list", "spelling-test"):
        assert "| Words 1–" in md and "|  |" not in md.splitlines()[0]
    if kind in ("word-search", "scramble", "hangman"):
        assert "Answer key" in html
        assert all(f"<li>{w}</li>" in html for w in WORDS)
    if kind == "spelling-test":
        assert md.count("______________________") == len(WORDS) + 2 and "Spelling test" in html  # and two name lines
    if kind == "hangman":
        assert all(" ".join("_" * len(w)) in md for w in WORDS) and html.count('aria-label="gallows"') == len(WORDS)
    if kind == "flashcards":
        assert html.count('class="card"') == len(WORDS)


def test_word_search_answer_key_matches_the_grid():
    """The Markdown answer key's positions are where the words are."""
    wl = sheet("word-search", difficulty="hard")
    md = to_markdown(wl)
    grid = [line.replace(" ", "") for line in md.split("```")[1].strip().splitlines()]
    for word, row, col, direction in re.findall(r"- (\w+): row (\d+), column (\d+), ([\w-]+)", md):
        assert (int(row) - 1, int(col) - 1, *DIRECTIONS[direction]) in find_in_grid(tuple(grid), word.upper())
    assert len(re.findall(r"- (\w+): row", md)) == len(WORDS)


@pytest.mark.slow
@pytest.mark.parametrize(("paper", "size_mm"), [("Letter", (215.9, 279.4)), ("A4", (210.0, 297.0))])
def test_paper_sizes(paper, size_mm):
    """Every page of every kind is the paper asked for."""
    for kind in SHEETS:
        sizes = page_sizes(to_pdf(sheet(kind, paper=paper)))
        assert sizes
        for w, h in sizes:
            assert abs(w - size_mm[0] * POINTS_PER_MM) < 0.5 and abs(h - size_mm[1] * POINTS_PER_MM) < 0.5
        html = to_html(sheet(kind, paper=paper))
        assert f"size: {'letter' if paper == 'Letter' else 'A4'}" in html


def pdf_to_text(data: bytes, tmp_path: Path) -> str:
    """The PDF's text as poppler's pdftotext reads it."""
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True).stdout.decode()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) not installed")
def test_unicode_words_print_in_the_pdf(tmp_path):
    """Words outside Latin-1 print with the DejaVu font, as themselves (no '?')."""
    words = ["café", "naïve", "Ωmega", "ŝip"]
    text = pdf_to_text(to_pdf(sheet("list", words=words)), tmp_path)
    assert all(w in text for w in words) and "?" not in text


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) not installed")
@pytest.mark.parametrize("kind", ["word-search", "scramble", "hangman"])
def test_pdf_answer_key_follows_the_puzzle(kind, tmp_path):
    """The PDF's last pages carry the answer key with every word; the student pages do not."""
    text = pdf_to_text(to_pdf(sheet(kind)), tmp_path)
    student, _, key = text.partition("Answer key")
    assert key and all(re.search(rf"\b{w}\b", key) for w in WORDS)
    assert "Name:" in student and "seed" not in student
    if kind == "scramble":
        assert all(s in re.sub(r"\s", "", student) for s in scrambled(sheet(kind)))


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) not installed")
@pytest.mark.parametrize("kind", SHEETS)
def test_sheet_pages_render_to_images(kind, tmp_path: Path):
    """pdftoppm turns every page into an image of the page's size with ink on it."""
    from PIL import Image

    pdf = tmp_path / f"{kind}.pdf"
    pdf.write_bytes(to_pdf(sheet(kind)))
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert pages
    for page in pages:
        im = Image.open(page).convert("L")
        assert abs(im.width / im.height - 215.9 / 279.4) < 0.01
        dark = sum(im.histogram()[:128])
        assert dark > 200  # text and lines, not a blank page
