"""Handwriting sheets on classroom ruling, measured on the rendered page: the dashed midline halfway between the
top line and the baseline, the x-height filling the lower half, ascenders above the midline and within the top
line, descenders below the baseline and within the descender line, in the PDF (rendered by poppler) and in the
HTML (printed by headless Chromium, then rendered by poppler)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

from pipeline.wordlists.select import WordList
from pipeline.wordlists.sheets import to_html, to_pdf

pytestmark = pytest.mark.slow  # real servers, browsers or make runs

DPI = 200
PX_PER_MM = DPI / 25.4
TOLERANCE_MM = 0.45  # a little over two pixels at 200 dpi, and antialiasing
WORDS = ["lll", "xxx", "gjpqy"]  # ascenders, the x-height, descenders
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-pdf-header-footer",
]

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")


def handwriting(font: str, paper: str = "Letter") -> WordList:
    """A handwriting sheet of the measuring words."""
    table = pl.DataFrame({"word": WORDS, "length": [len(w) for w in WORDS], "zipf": [4.0] * len(WORDS)})
    return WordList("Handwriting", "test", ["test"], table, sheet="handwriting", paper=paper, font=font)


def first_page(pdf: Path, tmp_path: Path):
    """The first page of a PDF as a grey image at DPI."""
    from PIL import Image

    subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-f", "1", "-l", "1", "-png", str(pdf), str(tmp_path / "p")], check=True
    )
    return Image.open(next(tmp_path.glob("p*.png"))).convert("L")


def print_html(html: str, tmp_path: Path) -> Path:
    """The HTML page printed to PDF by headless Chromium."""
    page = tmp_path / "sheet.html"
    page.write_text(html)
    out = tmp_path / "sheet.pdf"
    profile = tmp_path / "profile"
    subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={out}", page.as_uri()],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


def guide_lines(im) -> list[float]:
    """The rows (px) of the horizontal guide lines, found in a column to the right of every word."""
    x = int(im.width * 0.8)
    dark = [y for y in range(im.height) if min(im.getpixel((x + dx, y)) for dx in range(0, 40)) < 235]
    bands: list[list[int]] = []
    for y in dark:
        if bands and y - bands[-1][-1] <= 1:
            bands[-1].append(y)
        else:
            bands.append([y])
    return [sum(b) / len(b) for b in bands]


def ink(im, top: float, bottom: float, lines: list[float]) -> tuple[float, float]:
    """The highest and lowest row of grey trace letters between two rows, at the left of the page, rows on a
    guide line left out."""
    rows = []
    for y in range(int(top) - 3, int(bottom) + 4):
        if any(abs(y - line) <= 2 for line in lines):
            continue
        if any(im.getpixel((x, y)) < 215 for x in range(int(im.width * 0.08), int(im.width * 0.5))):
            rows.append(y)
    return min(rows), max(rows)


def check_ruling(im) -> None:
    """Each row's four guide lines evenly spaced, and each traced word against them."""
    lines = guide_lines(im)
    rows = [lines[i : i + 4] for i in range(0, 4 * len(WORDS) * 2, 4)][::2]  # a traced row, then an empty one
    assert len(lines) >= 4 * 2 * len(WORDS), lines
    tol = TOLERANCE_MM * PX_PER_MM
    for top, mid, base, desc in rows:
        assert abs((mid - top) - (base - mid)) <= tol and abs((desc - base) - (base - mid)) <= tol, (top, mid, base)
    (top, mid, base, desc) = rows[0]
    hi, lo = ink(im, top, desc, lines)
    assert top - tol <= hi < mid - tol and abs(lo - base) <= tol, ("lll", hi, lo, rows[0])
    (top, mid, base, desc) = rows[1]
    hi, lo = ink(im, top, desc, lines)
    assert abs(hi - mid) <= tol and abs(lo - base) <= tol, ("xxx", hi, lo, rows[1])
    (top, mid, base, desc) = rows[2]
    hi, lo = ink(im, top, desc, lines)
    assert base + tol < lo <= desc + tol, ("gjpqy", lo, rows[2])


@needs_poppler
@pytest.mark.parametrize("font", ["andika", "dejavu", "atkinson"])
def test_pdf_handwriting_is_on_classroom_ruling(font, tmp_path):
    """The PDF's traced letters fit their guide lines, measured on the page image."""
    pdf = tmp_path / "hand.pdf"
    pdf.write_bytes(to_pdf(handwriting(font)))
    check_ruling(first_page(pdf, tmp_path))


@needs_poppler
@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
@pytest.mark.parametrize("font", ["andika", "dejavu", "atkinson"])
def test_html_handwriting_is_on_classroom_ruling(font, tmp_path):
    """The HTML sheet, printed by Chromium, fits its guide lines the same way."""
    check_ruling(first_page(print_html(to_html(handwriting(font)), tmp_path), tmp_path))
