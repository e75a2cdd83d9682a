"""A sheet as a PDF: student pages, then the teacher's page (the answer key, or the words and how the list was
made). The sheet's font is embedded; arrows and boxes come from DejaVu Sans."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pipeline.wordlists.fonts import font, fonts
from pipeline.wordlists.puzzles import WordSearch
from pipeline.wordlists.sheets.content import (
    GALLOWS_MISSES,
    NAME_LINE,
    NAMELESS,
    STUDENT_PT,
    TEACHER_PT,
    TEST_INSTRUCTION,
    TEST_TITLE,
    check_fonts,
    grid_words,
    guides,
    hangman_board,
    instruction,
    key_lines,
    numbered,
    puzzles,
    scrambled,
    sheet_metrics,
    shown,
    teacher_note,
    teacher_title,
)

if TYPE_CHECKING:
    from pipeline.wordlists.select import WordList

MARGIN_MM = 18.0
FOOT_MM = 12.0  # kept clear at the foot of every page
HAND_GAP_MM = 9.0  # handwriting: space above each row
SHEET_DATE = datetime(2000, 1, 1, tzinfo=UTC)  # every sheet's creation date (a sheet is made of its inputs)


def new_pdf(wl: WordList):
    """An FPDF document for the list's paper with the sheet's font (regular, bold) and DejaVu's symbols."""
    from fpdf import FPDF

    pdf = FPDF(format=wl.paper, unit="mm")
    chosen, dejavu = font(wl.font), fonts()["dejavu"]
    pdf.add_font("Sheet", "", str(chosen.regular))
    pdf.add_font("Sheet", "B", str(chosen.bold))
    pdf.add_font("Symbols", "", str(dejavu.regular))
    pdf.add_font("Symbols", "B", str(dejavu.bold))
    pdf.set_fallback_fonts(["Symbols"])
    pdf.set_title(wl.title)
    pdf.set_creator("wordstats")
    pdf.set_creation_date(SHEET_DATE)  # the same sheet for the same request, byte for byte
    pdf.set_auto_page_break(False)
    pdf.set_margins(MARGIN_MM, 16, MARGIN_MM)
    return pdf


def to_pdf(wl: WordList) -> bytes:
    """The sheet as a PDF: student pages, then the teacher's page."""
    check_fonts(wl)
    pdf = new_pdf(wl)
    words = wl.words
    grids = puzzles(wl)
    for i, grid in enumerate(grids, 1):
        _student(pdf, numbered(wl.title, i, len(grids)), instruction(wl, grid))
        _grid(pdf, wl, grid, hits=False)
        _bank(pdf, wl, grid_words(wl, grid))
    if not grids:
        _student(pdf, wl.title, instruction(wl), wl.sheet not in NAMELESS)
    if wl.sheet == "scramble":
        _scramble(pdf, wl, scrambled(wl))
    elif wl.sheet == "hangman":
        _hangman(pdf, wl, words)
    elif wl.sheet == "handwriting":
        _handwriting(pdf, wl, words)
    elif wl.sheet == "flashcards":
        _flashcards(pdf, wl, words)
    elif not grids:
        _columns(pdf, words)
    if wl.test_page:
        _student(pdf, TEST_TITLE, TEST_INSTRUCTION)
        _lines(pdf, len(words))
    _teacher(pdf, wl, grids)
    return bytes(pdf.output())


def _student(pdf, title: str, how: str, name: bool = True) -> None:
    """Start a student page: large title, name and date line, the instruction."""
    pdf.add_page()
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Sheet", "B", 24)
    pdf.multi_cell(0, 11, title, new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.ln(1)
    pdf.set_font("Sheet", "", STUDENT_PT)
    if name:
        pdf.cell(0, 9, NAME_LINE, new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.set_text_color(30, 30, 30)
    pdf.multi_cell(0, 7, how, new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.set_text_color(0, 0, 0)
    pdf.ln(4)


def _bottom(pdf) -> float:
    """The lowest y the activity may use."""
    return pdf.h - FOOT_MM


def _teacher(pdf, wl: WordList, grids: tuple[WordSearch, ...]) -> None:
    """The teacher's page: the answer key (each grid marked, on a page of its own when there are several; each
    word, a scramble's other answers) or the words to read out, and how the list was made."""
    keys: tuple[WordSearch | None, ...] = grids or (None,)
    for i, key in enumerate(keys, 1):
        pdf.add_page()
        pdf.set_font("Sheet", "B", 18)
        pdf.multi_cell(0, 9, numbered(teacher_title(wl), i, len(keys)), new_x="LMARGIN", new_y="NEXT", align="L")
        pdf.ln(3)
        if key is not None:
            _grid(pdf, wl, key, hits=True)
    _columns(pdf, [line.split(". ", 1)[1] for line in key_lines(wl)], size=13, row=7.5, cols=2)
    pdf.ln(4)
    pdf.set_font("Sheet", "", TEACHER_PT)
    pdf.set_text_color(90, 90, 90)
    pdf.multi_cell(0, 4.2, teacher_note(wl), new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.set_text_color(0, 0, 0)


def _columns(pdf, words: list[str], size: int = 22, row: float = 12.0, cols: int = 3) -> None:
    """Numbered words in columns, filled down then across, continuing on new pages."""
    pdf.set_font("Sheet", "", size)
    number_w = 12.0
    widest = max(pdf.get_string_width(w) for w in words) + number_w + 8
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    ncols = max(1, min(cols, int(usable // widest)))
    col_w = usable / ncols
    i = 0
    while i < len(words):
        top = pdf.get_y()
        nrows = max(1, int((_bottom(pdf) - top) // row))
        chunk = words[i : i + nrows * ncols]
        per_col = -(-len(chunk) // ncols)
        for j, word in enumerate(chunk):
            pdf.set_xy(pdf.l_margin + (j // per_col) * col_w, top + (j % per_col) * row)
            pdf.set_font("Sheet", "", STUDENT_PT)
            pdf.set_text_color(90, 90, 90)
            pdf.cell(number_w, row, f"{i + j + 1}.", align="R")
            pdf.set_font("Sheet", "", size)
            pdf.set_text_color(0, 0, 0)
            pdf.cell(col_w - number_w, row, f" {word}")
        pdf.set_xy(pdf.l_margin, top + per_col * row)
        i += len(chunk)
        if i < len(words):
            pdf.add_page()


def _lines(pdf, n: int, row: float = 14.0) -> None:
    """n numbered writing lines for a spelling test, in two columns."""
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    col_w = usable / 2
    i = 0
    while i < n:
        top = pdf.get_y()
        nrows = max(1, int((_bottom(pdf) - top) // row))
        chunk = min(n - i, nrows * 2)
        per_col = -(-chunk // 2)
        pdf.set_font("Sheet", "", STUDENT_PT)
        pdf.set_line_width(0.3)
        for j in range(chunk):
            x = pdf.l_margin + (j // per_col) * col_w
            y = top + (j % per_col) * row
            pdf.set_xy(x, y)
            pdf.cell(12, row, f"{i + j + 1}.", align="R")
            pdf.line(x + 14, y + row - 3, x + col_w - 8, y + row - 3)
        i += chunk
        if i < n:
            pdf.add_page()


def _grid(pdf, wl: WordList, grid: WordSearch, hits: bool) -> None:
    """The word search grid, centred; with `hits`, each placed word marked by a rounded band."""
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    cell = min(11.0, usable / grid.size, (_bottom(pdf) - pdf.get_y() - 45) / grid.size)
    x0 = pdf.l_margin + (usable - cell * grid.size) / 2
    y0 = pdf.get_y()
    if hits:
        pdf.set_line_width(cell * 0.72)
        pdf.set_draw_color(255, 214, 102)
        for p in grid.placements:
            (r1, c1), (r2, c2) = p.cells()[0], p.cells()[-1]
            pdf.line(x0 + (c1 + 0.5) * cell, y0 + (r1 + 0.5) * cell, x0 + (c2 + 0.5) * cell, y0 + (r2 + 0.5) * cell)
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.3)
    pdf.rect(x0, y0, cell * grid.size, cell * grid.size)
    pdf.set_font("Sheet", "B", cell * 1.55)
    for r, line in enumerate(grid.grid):
        for c, ch in enumerate(line):
            pdf.set_xy(x0 + c * cell, y0 + r * cell)
            pdf.cell(cell, cell, shown(wl, ch), align="C")
    pdf.set_draw_color(0, 0, 0)
    pdf.set_xy(pdf.l_margin, y0 + cell * grid.size + 6)


def _bank(pdf, wl: WordList, words: list[str]) -> None:
    """The words to find in three columns under the grid, each with a box to tick."""
    pdf.set_font("Sheet", "B", 15)
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    col_w = usable / 3
    per_col = -(-len(words) // 3)
    top = pdf.get_y()
    for j, w in enumerate(words):
        pdf.set_xy(pdf.l_margin + (j // per_col) * col_w, top + (j % per_col) * 8.5)
        pdf.cell(col_w, 8.5, "☐ " + shown(wl, w))
    pdf.set_xy(pdf.l_margin, top + per_col * 8.5 + 4)


def _scramble(pdf, wl: WordList, letters: list[str], row: float = 17.0) -> None:
    """Numbered scrambled words, each with a line to write the answer."""
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    for i, s in enumerate(letters, 1):
        if pdf.get_y() + row > _bottom(pdf):
            _student(pdf, f"{wl.title} (continued)", instruction(wl))
        y = pdf.get_y()
        pdf.set_font("Sheet", "", STUDENT_PT)
        pdf.cell(12, row, f"{i}.", align="R")
        pdf.set_font("Sheet", "B", 20)
        pdf.cell(usable * 0.45, row, "  " + " ".join(shown(wl, s)))
        pdf.set_line_width(0.3)
        pdf.line(pdf.l_margin + usable * 0.55, y + row - 4, pdf.l_margin + usable, y + row - 4)
        pdf.set_xy(pdf.l_margin, y + row)


def _gallows(pdf, x: float, y: float, h: float) -> None:
    """A gallows drawing of height h with its top-left at (x, y)."""
    pdf.set_line_width(0.9)
    w = h * 0.6
    pdf.line(x, y + h, x + w, y + h)  # base
    pdf.line(x + w * 0.25, y + h, x + w * 0.25, y)  # post
    pdf.line(x + w * 0.25, y, x + w * 0.85, y)  # beam
    pdf.line(x + w * 0.25, y + h * 0.18, x + w * 0.45, y)  # brace
    pdf.line(x + w * 0.85, y, x + w * 0.85, y + h * 0.14)  # rope
    pdf.set_line_width(0.2)


def _hangman(pdf, wl: WordList, words: list[str], block: float = 52.0) -> None:
    """One Hangman game a block: gallows, the blanks, and boxes for the missed letters."""
    for i, w in enumerate(words, 1):
        if pdf.get_y() + block > _bottom(pdf):
            _student(pdf, f"{wl.title} (continued)", instruction(wl))
        y = pdf.get_y()
        x = pdf.l_margin
        pdf.set_font("Sheet", "B", STUDENT_PT)
        pdf.set_xy(x, y)
        pdf.cell(10, 8, f"{i}.")
        _gallows(pdf, x + 10, y + 2, block - 12)
        bx = x + 10 + (block - 12) * 0.6 + 12
        pdf.set_font("Sheet", "B", 22)
        pdf.set_xy(bx, y + 6)
        pdf.cell(0, 12, hangman_board(w))
        pdf.set_font("Sheet", "", STUDENT_PT)
        pdf.set_xy(bx, y + 22)
        pdf.cell(40, 10, "Missed letters:")
        pdf.set_line_width(0.4)
        for k in range(GALLOWS_MISSES):
            pdf.rect(bx + 42 + k * 12, y + 22, 10, 10)
        pdf.set_line_width(0.2)
        pdf.set_xy(x, y + block)


def _handwriting(pdf, wl: WordList, words: list[str]) -> None:
    """Per word: a tracing row (the word in light grey) and an empty row, each on classroom ruling (content.guides):
    a solid top line, a dashed midline halfway down, a solid baseline and a dotted descender line."""
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    g = guides(sheet_metrics(wl))
    row = g.descender + HAND_GAP_MM
    for w in words:
        if pdf.get_y() + 2 * row > _bottom(pdf):
            _student(pdf, f"{wl.title} (continued)", instruction(wl))
        for trace in (True, False):
            top = pdf.get_y() + HAND_GAP_MM
            left, right = pdf.l_margin, pdf.l_margin + usable
            pdf.set_draw_color(85, 85, 85)
            pdf.set_line_width(0.3)
            pdf.line(left, top, right, top)
            pdf.set_draw_color(34, 34, 34)
            pdf.set_line_width(0.6)
            pdf.line(left, top + g.baseline, right, top + g.baseline)
            pdf.set_line_width(0.3)
            pdf.set_draw_color(136, 136, 136)
            pdf.set_dash_pattern(dash=1.2, gap=1.4)
            pdf.line(left, top + g.midline, right, top + g.midline)
            pdf.set_draw_color(187, 187, 187)
            pdf.set_dash_pattern(dash=0.4, gap=1.2)
            pdf.line(left, top + g.descender, right, top + g.descender)
            pdf.set_dash_pattern()
            if trace:
                pdf.set_font("Sheet", "", g.size_pt)
                pdf.set_text_color(176, 176, 176)
                pdf.text(left + 3, top + g.baseline, w)
                pdf.set_text_color(0, 0, 0)
            pdf.set_xy(left, top + g.descender)
    pdf.set_draw_color(0, 0, 0)


def _flashcards(pdf, wl: WordList, words: list[str], cols: int = 2, rows: int = 4) -> None:
    """Cards of equal size, the word large in the middle, dashed cut lines around each."""
    usable_w = pdf.w - pdf.l_margin - pdf.r_margin
    top0 = pdf.get_y()
    for start in range(0, len(words), cols * rows):
        if start:
            _student(pdf, f"{wl.title} (continued)", instruction(wl), name=False)
            top0 = pdf.get_y()
        card_w = usable_w / cols
        card_h = (_bottom(pdf) - top0) / rows
        pdf.set_draw_color(120, 120, 120)
        pdf.set_line_width(0.35)
        pdf.set_dash_pattern(dash=2.5, gap=2)
        for r in range(rows + 1):
            pdf.line(pdf.l_margin, top0 + r * card_h, pdf.l_margin + usable_w, top0 + r * card_h)
        for c in range(cols + 1):
            pdf.line(pdf.l_margin + c * card_w, top0, pdf.l_margin + c * card_w, top0 + rows * card_h)
        pdf.set_dash_pattern()
        pdf.set_draw_color(0, 0, 0)
        for k, w in enumerate(words[start : start + cols * rows]):
            r, c = divmod(k, cols)
            text = shown(wl, w) if wl.lowercase else w
            size = 40.0
            pdf.set_font("Sheet", "B", size)
            while pdf.get_string_width(text) > card_w - 12 and size > 16:
                size -= 2
                pdf.set_font("Sheet", "B", size)
            pdf.set_xy(pdf.l_margin + c * card_w, top0 + r * card_h)
            pdf.cell(card_w, card_h, text, align="C")
        pdf.set_xy(pdf.l_margin, top0 + rows * card_h)
