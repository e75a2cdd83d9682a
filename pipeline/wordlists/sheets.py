"""Classroom sheets: the student page (title, name and date, the activity) and the teacher's answer key,
as CSV, Markdown, print-ready HTML and PDF (DejaVu fonts, Unicode)."""

from __future__ import annotations

import html
import importlib.util
from pathlib import Path

from pipeline.core.errors import WordstatsError
from pipeline.core.store import write_bytes, write_text
from pipeline.wordlists.puzzles import WordSearch, scrambles, word_search
from pipeline.wordlists.select import WordList

X_HEIGHT = 0.547  # DejaVu Sans: height of a lower-case x, in em
PT = 0.3528  # millimetres in a point
GALLOWS_MISSES = 6  # boxes for missed letters: head, body, two arms, two legs
ARROWS = {
    "right": "→",
    "down": "↓",
    "down-right": "↘",
    "up-right": "↗",
    "left": "←",
    "up": "↑",
    "up-left": "↖",
    "down-left": "↙",
}
INSTRUCTIONS = {
    "list": "Read each word. Say it, spell it, write it.",
    "spelling-test": "Learn these words for your spelling test.",
    "word-search": "Find each word in the grid. Words go {arrows}.",
    "scramble": "Unscramble the letters to spell a word.",
    "hangman": "Guess the word one letter at a time. Write each wrong letter in a box.",
    "handwriting": "Trace each word, then write it on the empty line.",
    "flashcards": "Cut along the dashed lines.",
}


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


def teacher_note(wl: WordList) -> str:
    """What the teacher needs to make the sheet again: source, filters, seed, in one line."""
    return "For the teacher: " + "; ".join(wl.filters) + "."


def puzzle(wl: WordList) -> WordSearch:
    """The word search of the list (seeded by the list's seed)."""
    return word_search(wl.words, wl.difficulty, wl.seed)


def instruction(wl: WordList, grid: WordSearch | None = None) -> str:
    """The one-line instruction printed under the title."""
    text = INSTRUCTIONS[wl.sheet]
    if grid is not None:
        text = text.format(arrows=" ".join(ARROWS[d] for d in grid.directions))
    return text


# ---- Markdown ----------------------------------------------------------------------------------------------


def to_markdown(wl: WordList, columns: int = 4) -> str:
    """The sheet as Markdown: title, name line, the activity, then the teacher's section."""
    words = wl.words
    out = [f"# {wl.title}", "", "Name: ____________________   Date: ____________", ""]
    grid = puzzle(wl) if wl.sheet == "word-search" else None
    out += [instruction(wl, grid), ""]
    if wl.sheet == "word-search" and grid is not None:
        out += ["```"] + [" ".join(row) for row in grid.grid] + ["```", ""]
        out += [", ".join(w.upper() for w in words), ""]
    elif wl.sheet == "scramble":
        out += [f"{i}. {s.upper()}  ______________" for i, s in enumerate(scrambles(words, wl.seed), 1)] + [""]
    elif wl.sheet == "hangman":
        out += [f"{i}. `{blank(w)}` ({len(w)} letters)  Missed: ☐☐☐☐☐☐" for i, w in enumerate(words, 1)] + [""]
    elif wl.sheet == "spelling-test":
        out += _markdown_table(words, columns) + ["", "## Spelling test", ""]
        out += [f"{i}. ______________________" for i in range(1, len(words) + 1)] + [""]
    else:
        out += _markdown_table(words, columns) + [""]
    out += ["---", "", "## For the teacher", ""]
    if wl.sheet in ("word-search", "scramble", "hangman"):
        out += ["Answers:", ""] + [f"{i}. {w}" for i, w in enumerate(words, 1)] + [""]
        if grid is not None:
            out += [f"- {p.word.lower()}: row {p.row + 1}, column {p.col + 1}, {p.direction}" for p in grid.placements]
            out += [""]
    out += [f"- {f}" for f in wl.filters]
    return "\n".join(out) + "\n"


def _markdown_table(words: list[str], columns: int) -> list[str]:
    """Numbered words in a table of `columns` columns, filled down, with a header naming each column's range."""
    rows = -(-len(words) // columns)
    columns = max(1, min(columns, -(-len(words) // max(rows, 1))))
    cells = [f"{i + 1}. {w}" for i, w in enumerate(words)]
    header = [f"Words {c * rows + 1}–{min(len(words), (c + 1) * rows)}" for c in range(columns)]
    grid = [[cells[c * rows + r] if c * rows + r < len(cells) else "" for c in range(columns)] for r in range(rows)]
    return ["| " + " | ".join(header) + " |", "|" + "---|" * columns] + ["| " + " | ".join(row) + " |" for row in grid]


# ---- HTML --------------------------------------------------------------------------------------------------

HTML_STYLE = """
body { font-family: "DejaVu Sans", "Helvetica", "Arial", sans-serif; margin: 0; color: #111; }
section.page + section.page { break-before: page; page-break-before: always; }
h1 { font-size: 26pt; margin: 0 0 0.2em; }
p.name { font-size: 13pt; margin: 0.2em 0 0.6em; }
p.how { font-size: 13pt; margin: 0 0 0.8em; color: #333; }
ol.words { columns: 3; column-gap: 2em; font-size: 22pt; line-height: 1.8; padding-left: 2.2em; margin: 0; }
ol.lines { columns: 2; font-size: 15pt; line-height: 2.6; padding-left: 2.2em; }
ol.lines li::after { content: ""; display: inline-block; width: 10em; border-bottom: 1px solid #000; }
ol.scramble { font: bold 20pt "DejaVu Sans Mono", monospace; line-height: 2.3; padding-left: 3.6em;
  letter-spacing: 0.3em; }
ol.scramble span.line { display: inline-block; width: 8em; border-bottom: 1px solid #000; margin-left: 1.5em; }
table.grid { border-collapse: collapse; margin: 0.5em auto 1em; border: 1px solid #999; }
table.grid td { width: 1.5em; height: 1.5em; text-align: center; font: bold 18pt "DejaVu Sans Mono", monospace; }
table.grid td.hit { background: #ffd666; }
ul.bank { columns: 3; font-size: 15pt; font-weight: bold; list-style: none; padding: 0; text-transform: uppercase; }
ul.bank li::before { content: "☐ "; }
div.hangman { display: flex; align-items: center; gap: 1.5em; margin: 0 0 1.4em; break-inside: avoid; }
div.hangman b { font-size: 14pt; align-self: flex-start; }
div.hangman .board { font: bold 24pt "DejaVu Sans Mono", monospace; margin-bottom: 0.5em; }
div.hangman .missed { font-size: 12pt; }
div.hangman .missed span { display: inline-block; width: 1.6em; height: 1.6em; border: 1.5px solid #000;
  margin-left: 0.35em; vertical-align: middle; }
div.hand { margin: 0 0 6mm; break-inside: avoid; }
div.hand .row { position: relative; height: 16mm; margin-top: 5mm; border-top: 1px solid #555;
  border-bottom: 2px solid #222; }
div.hand .row::after { content: ""; position: absolute; left: 0; right: 0; top: 50%; border-top: 1.5px dashed #999; }
div.hand .trace { position: absolute; left: 3mm; bottom: -0.154em; font-size: 14.6mm; line-height: 1;
  color: #b5b5b5; }
div.cards { display: grid; grid-template-columns: 1fr 1fr; }
div.card { height: 58mm; border: 1.5px dashed #777; display: flex; align-items: center; justify-content: center;
  font-size: 38pt; font-weight: bold; break-inside: avoid; }
footer.teacher { margin-top: 1.5em; font-size: 7.5pt; color: #777; break-inside: avoid; }
"""


def to_html(wl: WordList) -> str:
    """The sheet as one print-ready HTML page: student pages, then the teacher's notes or answer key."""
    e = html.escape
    size = "letter" if wl.paper == "Letter" else "A4"
    words = wl.words
    grid = puzzle(wl) if wl.sheet == "word-search" else None
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(wl.title)}</title>",
        f"<style>@page {{ size: {size}; margin: 15mm; }}{HTML_STYLE}</style></head><body>",
    ]

    def student(title: str) -> None:
        """Open a student page: title, name and date line, instruction."""
        parts.append(f'<section class="page"><h1>{e(title)}</h1>')
        parts.append('<p class="name">Name: ______________________ &nbsp; Date: ____________</p>')
        parts.append(f'<p class="how">{e(instruction(wl, grid))}</p>')

    student(wl.title)
    if wl.sheet == "word-search" and grid is not None:
        parts.append(_html_grid(grid, hits=False))
        parts.append('<ul class="bank">' + "".join(f"<li>{e(w)}</li>" for w in words) + "</ul>")
    elif wl.sheet == "scramble":
        items = "".join(f'<li>{e(s.upper())}<span class="line"></span></li>' for s in scrambles(words, wl.seed))
        parts.append(f'<ol class="scramble">{items}</ol>')
    elif wl.sheet == "hangman":
        for i, w in enumerate(words, 1):
            boxes = "<span></span>" * GALLOWS_MISSES
            parts.append(
                f'<div class="hangman"><b>{i}.</b>{GALLOWS_SVG}<div><div class="board">{e(blank(w))}</div>'
                f'<div class="missed">Missed letters: {boxes}</div></div></div>'
            )
    elif wl.sheet == "handwriting":
        for w in words:
            parts.append(
                f'<div class="hand"><div class="row"><span class="trace">{e(w)}</span></div>'
                '<div class="row"></div></div>'
            )
    elif wl.sheet == "flashcards":
        parts.append('<div class="cards">' + "".join(f'<div class="card">{e(w)}</div>' for w in words) + "</div>")
    else:
        parts.append('<ol class="words">' + "".join(f"<li>{e(w)}</li>" for w in words) + "</ol>")
    if wl.sheet == "spelling-test":
        parts.append("</section>")
        parts.append('<section class="page"><h1>Spelling test</h1>')
        parts.append('<p class="name">Name: ______________________ &nbsp; Date: ____________</p>')
        parts.append('<ol class="lines">' + "<li></li>" * len(words) + "</ol>")
    if wl.sheet in ("word-search", "scramble", "hangman"):
        parts.append("</section>")
        parts.append(f'<section class="page"><h1>Answer key: {e(wl.title)}</h1>')
        if grid is not None:
            parts.append(_html_grid(grid, hits=True))
        parts.append('<ol class="words">' + "".join(f"<li>{e(w)}</li>" for w in words) + "</ol>")
    parts.append(f'<footer class="teacher">{e(teacher_note(wl))}</footer></section>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


GALLOWS_SVG = (
    '<svg width="84" height="100" viewBox="0 0 70 84" aria-label="gallows">'
    '<g stroke="#000" stroke-width="3" fill="none" stroke-linecap="round">'
    '<line x1="5" y1="80" x2="45" y2="80"/><line x1="15" y1="80" x2="15" y2="5"/>'
    '<line x1="15" y1="5" x2="50" y2="5"/><line x1="50" y1="5" x2="50" y2="16"/></g></svg>'
)


def _html_grid(grid: WordSearch, hits: bool) -> str:
    """The word search as a table; with `hits`, the cells of placed words highlighted."""
    marked = {cell for p in grid.placements for cell in p.cells()} if hits else set()
    rows = []
    for r, line in enumerate(grid.grid):
        cells = "".join(f"<td{' class=hit' if (r, c) in marked else ''}>{ch}</td>" for c, ch in enumerate(line))
        rows.append(f"<tr>{cells}</tr>")
    return '<table class="grid">' + "".join(rows) + "</table>"


# ---- PDF ---------------------------------------------------------------------------------------------------


def font_files() -> dict[str, Path]:
    """The DejaVu TrueType fonts matplotlib ships (regular, bold, mono, mono bold), Unicode throughout."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise WordstatsError("PDF sheets need the DejaVu fonts of the matplotlib package, which is not installed")
    folder = Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"
    return {
        "": folder / "DejaVuSans.ttf",
        "B": folder / "DejaVuSans-Bold.ttf",
        "mono": folder / "DejaVuSansMono.ttf",
        "monoB": folder / "DejaVuSansMono-Bold.ttf",
    }


def new_pdf(wl: WordList):
    """An FPDF document for the list's paper with the DejaVu fonts loaded."""
    from fpdf import FPDF

    pdf = FPDF(format=wl.paper, unit="mm")
    fonts = font_files()
    pdf.add_font("DejaVu", "", str(fonts[""]))
    pdf.add_font("DejaVu", "B", str(fonts["B"]))
    pdf.add_font("DejaVuMono", "", str(fonts["mono"]))
    pdf.add_font("DejaVuMono", "B", str(fonts["monoB"]))
    pdf.set_title(wl.title)
    pdf.set_creator("wordstats")
    pdf.set_auto_page_break(False)
    pdf.set_margins(18, 16, 18)
    return pdf


def to_pdf(wl: WordList) -> bytes:
    """The sheet as a PDF: student pages, then the teacher's answer key or a small teacher footer."""
    pdf = new_pdf(wl)
    words = wl.words
    grid = puzzle(wl) if wl.sheet == "word-search" else None
    _student(pdf, wl.title, instruction(wl, grid))
    if wl.sheet == "word-search" and grid is not None:
        _pdf_grid(pdf, grid, hits=False)
        _pdf_bank(pdf, words)
    elif wl.sheet == "scramble":
        _pdf_scramble(pdf, wl, scrambles(words, wl.seed))
    elif wl.sheet == "hangman":
        _pdf_hangman(pdf, wl, words)
    elif wl.sheet == "handwriting":
        _pdf_handwriting(pdf, wl, words)
    elif wl.sheet == "flashcards":
        _pdf_flashcards(pdf, wl, words)
    else:
        _pdf_columns(pdf, wl, words)
    if wl.sheet == "spelling-test":
        _student(pdf, "Spelling test", "Write each word your teacher reads.")
        _pdf_lines(pdf, wl, len(words))
    if wl.sheet in ("word-search", "scramble", "hangman"):
        _key_page(pdf, wl)
        if grid is not None:
            _pdf_grid(pdf, grid, hits=True)
        _pdf_columns(pdf, wl, words, size=16, row=9.0, header=False)
    _footer(pdf, wl)
    return bytes(pdf.output())


def _student(pdf, title: str, how: str) -> None:
    """Start a student page: large title, name and date line, the instruction."""
    pdf.add_page()
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("DejaVu", "B", 22)
    pdf.multi_cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    pdf.set_font("DejaVu", "", 12)
    pdf.cell(0, 8, "Name: ______________________________    Date: ________________", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 12)
    pdf.set_text_color(60, 60, 60)
    pdf.multi_cell(0, 6.5, how, new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.ln(4)


def _key_page(pdf, wl: WordList) -> None:
    """Start the teacher's answer-key page."""
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 18)
    pdf.multi_cell(0, 9, f"Answer key: {wl.title}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)


def _footer(pdf, wl: WordList) -> None:
    """The teacher's note in small grey type at the foot of the last page."""
    pdf.set_font("DejaVu", "", 7)
    pdf.set_text_color(120, 120, 120)
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    lines = pdf.multi_cell(usable, 3.2, teacher_note(wl), dry_run=True, output="LINES")
    pdf.set_xy(pdf.l_margin, pdf.h - 9 - 3.2 * len(lines))
    pdf.multi_cell(usable, 3.2, teacher_note(wl), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)


def _bottom(pdf) -> float:
    """The lowest y the activity may use (room left for the teacher's footer)."""
    return pdf.h - 22


def _pdf_columns(pdf, wl: WordList, words: list[str], size: int = 22, row: float = 12.0, header=True) -> None:
    """Numbered words in columns, filled down then across, continuing on new pages."""
    pdf.set_font("DejaVu", "", size)
    number_w = 12.0
    widest = max(pdf.get_string_width(w) for w in words) + number_w + 8
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    ncols = max(1, min(3, int(usable // widest)))
    col_w = usable / ncols
    i = 0
    while i < len(words):
        top = pdf.get_y()
        nrows = max(1, int((_bottom(pdf) - top) // row))
        chunk = words[i : i + nrows * ncols]
        per_col = -(-len(chunk) // ncols)
        for j, word in enumerate(chunk):
            x = pdf.l_margin + (j // per_col) * col_w
            y = top + (j % per_col) * row
            pdf.set_xy(x, y)
            pdf.set_font("DejaVu", "", 11)
            pdf.set_text_color(110, 110, 110)
            pdf.cell(number_w, row, f"{i + j + 1}.", align="R")
            pdf.set_font("DejaVu", "", size)
            pdf.set_text_color(0, 0, 0)
            pdf.cell(col_w - number_w, row, f" {word}")
        pdf.set_xy(pdf.l_margin, top + per_col * row)
        i += len(chunk)
        if i < len(words):
            pdf.add_page()


def _pdf_lines(pdf, wl: WordList, n: int, row: float = 14.0) -> None:
    """n numbered writing lines for a spelling test, in two columns."""
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    col_w = usable / 2
    i = 0
    while i < n:
        top = pdf.get_y()
        nrows = max(1, int((_bottom(pdf) - top) // row))
        chunk = min(n - i, nrows * 2)
        per_col = -(-chunk // 2)
        pdf.set_font("DejaVu", "", 14)
        pdf.set_draw_color(0, 0, 0)
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


def _pdf_grid(pdf, grid: WordSearch, hits: bool) -> None:
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
        pdf.set_line_width(0.2)
        pdf.set_draw_color(0, 0, 0)
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.3)
    pdf.rect(x0, y0, cell * grid.size, cell * grid.size)
    pdf.set_font("DejaVuMono", "B", cell * 1.55)
    for r, line in enumerate(grid.grid):
        for c, ch in enumerate(line):
            pdf.set_xy(x0 + c * cell, y0 + r * cell)
            pdf.cell(cell, cell, ch, align="C")
    pdf.set_draw_color(0, 0, 0)
    pdf.set_xy(pdf.l_margin, y0 + cell * grid.size + 6)


def _pdf_bank(pdf, words: list[str]) -> None:
    """The words to find, in capitals, in three columns under the grid."""
    pdf.set_font("DejaVu", "B", 14)
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    col_w = usable / 3
    per_col = -(-len(words) // 3)
    top = pdf.get_y()
    for j, w in enumerate(words):
        pdf.set_xy(pdf.l_margin + (j // per_col) * col_w, top + (j % per_col) * 8)
        pdf.cell(col_w, 8, "☐ " + w.upper())
    pdf.set_xy(pdf.l_margin, top + per_col * 8 + 4)


def _pdf_scramble(pdf, wl: WordList, scrambled: list[str], row: float = 17.0) -> None:
    """Numbered scrambled words, each with a line to write the answer."""
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    for i, s in enumerate(scrambled, 1):
        if pdf.get_y() + row > _bottom(pdf):
            _student(pdf, f"{wl.title} (continued)", instruction(wl))
        y = pdf.get_y()
        pdf.set_font("DejaVu", "", 12)
        pdf.cell(12, row, f"{i}.", align="R")
        pdf.set_font("DejaVuMono", "B", 20)
        pdf.cell(usable * 0.45, row, "  " + " ".join(s.upper()))
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


def _pdf_hangman(pdf, wl: WordList, words: list[str], block: float = 52.0) -> None:
    """One Hangman game a block: gallows, the blanks, and boxes for the missed letters."""
    for i, w in enumerate(words, 1):
        if pdf.get_y() + block > _bottom(pdf):
            _student(pdf, f"{wl.title} (continued)", instruction(wl))
        y = pdf.get_y()
        x = pdf.l_margin
        pdf.set_font("DejaVu", "B", 13)
        pdf.set_xy(x, y)
        pdf.cell(10, 8, f"{i}.")
        _gallows(pdf, x + 10, y + 2, block - 12)
        bx = x + 10 + (block - 12) * 0.6 + 12
        pdf.set_font("DejaVuMono", "B", 22)
        pdf.set_xy(bx, y + 6)
        pdf.cell(0, 12, blank(w))
        pdf.set_font("DejaVu", "", 11)
        pdf.set_xy(bx, y + 22)
        pdf.cell(34, 10, "Missed letters:")
        pdf.set_line_width(0.4)
        for k in range(GALLOWS_MISSES):
            pdf.rect(bx + 36 + k * 12, y + 22, 10, 10)
        pdf.set_line_width(0.2)
        pdf.set_xy(x, y + block)


def _pdf_handwriting(pdf, wl: WordList, words: list[str], band: float = 16.0, gap: float = 6.0) -> None:
    """Per word: a tracing line (the word in light grey) and an empty line, each with a solid top line,
    a dotted midline and a solid baseline; lower-case letters fill the lower half, as children write."""
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    size = band / 2 / X_HEIGHT / PT  # the x-height reaches the dotted midline
    for w in words:
        if pdf.get_y() + 2 * band + 3 * gap > _bottom(pdf):
            _student(pdf, f"{wl.title} (continued)", instruction(wl))
        for trace in (True, False):
            top = pdf.get_y() + gap
            base = top + band
            pdf.set_draw_color(90, 90, 90)
            pdf.set_line_width(0.3)
            pdf.line(pdf.l_margin, top, pdf.l_margin + usable, top)
            pdf.set_line_width(0.6)
            pdf.line(pdf.l_margin, base, pdf.l_margin + usable, base)
            pdf.set_line_width(0.3)
            pdf.set_dash_pattern(dash=1.2, gap=1.4)
            pdf.line(pdf.l_margin, (top + base) / 2, pdf.l_margin + usable, (top + base) / 2)
            pdf.set_dash_pattern()
            if trace:
                pdf.set_font("DejaVu", "", size)
                pdf.set_text_color(175, 175, 175)
                pdf.text(pdf.l_margin + 4, base, w)
                pdf.set_text_color(0, 0, 0)
            pdf.set_xy(pdf.l_margin, base)
        pdf.set_xy(pdf.l_margin, pdf.get_y() + gap)
    pdf.set_draw_color(0, 0, 0)


def _pdf_flashcards(pdf, wl: WordList, words: list[str], cols: int = 2, rows: int = 4) -> None:
    """Cards of equal size, the word large in the middle, dashed cut lines around each."""
    usable_w = pdf.w - pdf.l_margin - pdf.r_margin
    top0 = pdf.get_y()
    for start in range(0, len(words), cols * rows):
        if start:
            _student(pdf, f"{wl.title} (continued)", instruction(wl))
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
            size = 40.0
            pdf.set_font("DejaVu", "B", size)
            while pdf.get_string_width(w) > card_w - 12 and size > 14:
                size -= 2
                pdf.set_font("DejaVu", "B", size)
            pdf.set_xy(pdf.l_margin + c * card_w, top0 + r * card_h)
            pdf.cell(card_w, card_h, w, align="C")
        pdf.set_xy(pdf.l_margin, top0 + rows * card_h)
