"""Sheets for the classroom: CSV, Markdown, HTML and PDF."""

from __future__ import annotations

import html
from pathlib import Path

from pipeline.core.errors import WordstatsError
from pipeline.core.store import write_bytes, write_text
from pipeline.wordlists.select import WordList


def save(wl: WordList, path: Path) -> None:
    """Write the list to `path`; the extension picks the format (.csv, .md, .html, .pdf)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        write_text(path, wl.table.write_csv())
    elif suffix == ".md":
        write_text(path, to_markdown(wl))
    elif suffix in (".html", ".htm"):
        write_text(path, to_html(wl))
    elif suffix == ".pdf":
        write_bytes(path, to_pdf(wl))
    else:
        raise WordstatsError(f"{path}: unknown output format {suffix or '(none)'!r} (use .csv, .md, .html or .pdf)")


def blank(word: str) -> str:
    """The Hangman board of a word: one underscore per letter."""
    return " ".join("_" * len(word))


def to_markdown(wl: WordList, columns: int = 4) -> str:
    """The list as Markdown: title, filters, the words in columns, then the test or answer-key page."""
    out = [f"# {wl.title}", ""] + [f"- {f}" for f in wl.filters] + [""]
    words = wl.words
    if wl.hangman:
        out += ["## Puzzles", ""] + [f"{i}. `{blank(w)}` ({len(w)} letters)" for i, w in enumerate(words, 1)]
        out += ["", "## Answer key", ""]
    rows = -(-len(words) // columns)
    cells = [f"{i + 1}. {w}" for i, w in enumerate(words)]
    grid = [[cells[c * rows + r] if c * rows + r < len(cells) else "" for c in range(columns)] for r in range(rows)]
    out += ["| " + " | ".join([" "] * columns) + " |", "|" + "---|" * columns]
    out += ["| " + " | ".join(row) + " |" for row in grid]
    if wl.blanks:
        out += ["", "## Spelling test", "", "Name: ____________________", ""]
        out += [f"{i}. ______________________" for i in range(1, len(words) + 1)]
    return "\n".join(out) + "\n"


HTML_STYLE = """
body { font-family: "Helvetica", "Arial", sans-serif; margin: 2em; color: #111; }
h1 { font-size: 28pt; margin-bottom: 0.2em; }
ul.filters { font-size: 12pt; color: #444; margin-top: 0; }
ol.words { columns: 4 11em; font-size: 24pt; line-height: 1.7; padding-left: 1.6em; }
ol.puzzles { font-size: 22pt; line-height: 2.2; font-family: "Courier New", monospace; }
ol.puzzles small { font-family: "Helvetica", sans-serif; font-size: 11pt; color: #555; }
ol.lines { columns: 2; font-size: 16pt; line-height: 2.6; }
ol.lines li::after { content: ""; display: inline-block; width: 12em; border-bottom: 1px solid #000; }
.page { break-before: page; page-break-before: always; }
@page { margin: 15mm; }
"""


def to_html(wl: WordList) -> str:
    """The list as one print-ready HTML page (large type, columns, page breaks before test and key)."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(wl.title)}</title>",
        f"<style>{HTML_STYLE}</style></head><body>",
        f"<h1>{e(wl.title)}</h1>",
        '<ul class="filters">',
    ]
    parts += [f"<li>{e(f)}</li>" for f in wl.filters] + ["</ul>"]
    words = wl.words
    if wl.hangman:
        parts.append('<ol class="puzzles">')
        parts += [f"<li>{e(blank(w))} <small>({len(w)} letters)</small></li>" for w in words]
        parts += ["</ol>", f'<section class="page"><h1>Answer key: {e(wl.title)}</h1>']
    parts.append('<ol class="words">' + "".join(f"<li>{e(w)}</li>" for w in words) + "</ol>")
    if wl.hangman:
        parts.append("</section>")
    if wl.blanks:
        parts += [
            '<section class="page"><h1>Spelling test</h1>',
            "<p>Name: ______________________</p>",
            '<ol class="lines">' + "<li></li>" * len(words) + "</ol></section>",
        ]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _latin1(text: str) -> str:
    """Text the PDF core fonts can print (characters outside Latin-1 become '?')."""
    return text.encode("latin-1", "replace").decode("latin-1")


def to_pdf(wl: WordList) -> bytes:
    """The list as a printable PDF: title, filters, words in columns in large type, test and key pages."""
    from fpdf import FPDF

    pdf = FPDF(format=wl.paper)
    pdf.set_title(_latin1(wl.title))
    pdf.set_creator("wordstats")
    pdf.set_auto_page_break(False)
    words = wl.words
    if wl.hangman:
        _pdf_header(pdf, wl.title, wl.filters)
        _pdf_puzzles(pdf, words)
        _pdf_header(pdf, f"Answer key: {wl.title}", [])
        _pdf_columns(pdf, words, wl.title)
    else:
        _pdf_header(pdf, wl.title, wl.filters)
        _pdf_columns(pdf, words, wl.title)
    if wl.blanks:
        _pdf_header(pdf, "Spelling test", [])
        _pdf_lines(pdf, len(words))
    return bytes(pdf.output())


def _pdf_header(pdf, title: str, filters: list[str]) -> None:
    """Start a page with a large title and the filters in plain words."""
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 24)
    pdf.multi_cell(0, 11, _latin1(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.set_text_color(80, 80, 80)
    for f in filters:
        pdf.multi_cell(0, 5.5, _latin1(f"- {f}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.ln(6)


def _pdf_columns(pdf, words: list[str], title: str, size: int = 22, row: float = 12.0) -> None:
    """Numbered words in columns, filled down then across, continuing on new pages."""
    pdf.set_font("Helvetica", "", size)
    number_w = 12.0
    widest = max(pdf.get_string_width(w) for w in words) + number_w + 8
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    ncols = max(1, min(4, int(usable // widest)))
    col_w = usable / ncols
    i = 0
    while i < len(words):
        top = pdf.get_y()
        nrows = max(1, int((pdf.h - pdf.b_margin - top) // row))
        chunk = words[i : i + nrows * ncols]
        per_col = -(-len(chunk) // ncols)
        for j, word in enumerate(chunk):
            x = pdf.l_margin + (j // per_col) * col_w
            y = top + (j % per_col) * row
            pdf.set_xy(x, y)
            pdf.set_font("Helvetica", "", 12)
            pdf.set_text_color(110, 110, 110)
            pdf.cell(number_w, row, f"{i + j + 1}.", align="R")
            pdf.set_font("Helvetica", "", size)
            pdf.set_text_color(0, 0, 0)
            pdf.cell(col_w - number_w, row, f" {_latin1(word)}")
        i += len(chunk)
        if i < len(words):
            _pdf_header(pdf, f"{title} (continued)", [])
            pdf.set_font("Helvetica", "", size)


def _pdf_puzzles(pdf, words: list[str], row: float = 13.0) -> None:
    """One Hangman board per line: the blanks and the number of letters."""
    pdf.set_font("Courier", "B", 22)
    board_w = max(pdf.get_string_width(blank(w)) for w in words) + 12
    for i, word in enumerate(words, 1):
        if pdf.get_y() + row > pdf.h - pdf.b_margin:
            _pdf_header(pdf, "Hangman (continued)", [])
        pdf.set_font("Helvetica", "", 12)
        pdf.cell(12, row, f"{i}.", align="R")
        pdf.set_font("Courier", "B", 22)
        pdf.cell(board_w, row, " " + blank(word))
        pdf.set_font("Helvetica", "", 11)
        pdf.cell(0, row, f"({len(word)} letters)", new_x="LMARGIN", new_y="NEXT")


def _pdf_lines(pdf, n: int, row: float = 14.0) -> None:
    """A name line and n numbered blank lines for a spelling test, in two columns."""
    pdf.set_font("Helvetica", "", 14)
    pdf.cell(0, 10, "Name: ______________________________", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    col_w = usable / 2
    i = 0
    while i < n:
        top = pdf.get_y()
        nrows = max(1, int((pdf.h - pdf.b_margin - top) // row))
        chunk = min(n - i, nrows * 2)
        per_col = -(-chunk // 2)
        for j in range(chunk):
            x = pdf.l_margin + (j // per_col) * col_w
            y = top + (j % per_col) * row
            pdf.set_xy(x, y)
            pdf.cell(12, row, f"{i + j + 1}.", align="R")
            pdf.line(x + 14, y + row - 3, x + col_w - 8, y + row - 3)
        i += chunk
        if i < n:
            _pdf_header(pdf, "Spelling test (continued)", [])
            pdf.set_font("Helvetica", "", 14)
