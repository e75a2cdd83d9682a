"""A sheet as one self-contained, print-ready HTML page (its fonts embedded): student pages, then the
teacher's page."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from pipeline.wordlists.fonts import SYMBOLS, font, fonts, subset_css
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

HAND_ROW_GAP_MM = 9.0  # space between handwriting rows
LETTER_EM = 1.05  # a scrambled capital and its spacing, at most, in em (the answer lines' column)
HAND_WIDTH_MM = 170.0  # width of a handwriting row (fits letter and A4 inside 15 mm margins)

STYLE = f"""
body {{ font-family: "Sheet", "Symbols", sans-serif; margin: 0; color: #111; font-size: {STUDENT_PT}pt; }}
section.page + section.page {{ break-before: page; page-break-before: always; }}
h1 {{ font-size: 24pt; margin: 0 0 0.2em; font-weight: 700; }}
p.name, p.how {{ font-size: {STUDENT_PT}pt; margin: 0.2em 0 0.7em; }}
p.how {{ color: #222; }}
ol.words {{ columns: 3; column-gap: 2em; font-size: 22pt; line-height: 1.8; padding-left: 2.2em; margin: 0; }}
ol.lines {{ columns: 2; font-size: {STUDENT_PT + 1}pt; line-height: 2.6; padding-left: 2.2em; }}
ol.lines li::after {{ content: ""; display: inline-block; width: 10em; border-bottom: 1px solid #000; }}
div.scramble {{ font: 700 20pt "Sheet", monospace; line-height: 2.3; }}
div.scramble p {{ display: flex; align-items: baseline; margin: 0; break-inside: avoid; }}
div.scramble span.n {{ width: 2.2em; text-align: right; margin-right: 0.6em; font-size: {STUDENT_PT}pt; }}
div.scramble span.letters {{ letter-spacing: 0.3em; flex: none; }}
div.scramble span.line {{ flex: 1; max-width: 9em; border-bottom: 1px solid #000; margin-left: 1em; height: 1em; }}
table.grid {{ border-collapse: collapse; margin: 0.5em auto 1em; border: 1px solid #999; }}
table.grid td {{ width: 1.5em; height: 1.5em; text-align: center; font: 700 18pt "Sheet", monospace; }}
table.grid td.hit {{ background: #ffd666; }}
ul.bank {{ columns: 3; font-size: 15pt; font-weight: 700; list-style: none; padding: 0; }}
ul.bank li::before {{ content: "☐ "; }}
div.hangman {{ display: flex; align-items: center; gap: 1.5em; margin: 0 0 1.4em; break-inside: avoid; }}
div.hangman b {{ font-size: {STUDENT_PT}pt; align-self: flex-start; width: 2.2em; text-align: right; flex: none; }}
div.hangman .board {{ font: 700 24pt "Sheet", monospace; margin-bottom: 0.5em; }}
div.hangman .missed span {{ display: inline-block; width: 1.6em; height: 1.6em; border: 1.5px solid #000;
  margin-left: 0.35em; vertical-align: middle; }}
div.hand {{ break-inside: avoid; page-break-inside: avoid; }}
svg.hand {{ display: block; margin: 0 0 {HAND_ROW_GAP_MM}mm; }}
div.cards {{ display: grid; grid-template-columns: 1fr 1fr; }}
div.card {{ height: 58mm; border: 1.5px dashed #777; display: flex; align-items: center; justify-content: center;
  font-size: 38pt; font-weight: 700; break-inside: avoid; }}
section.teacher {{ font-size: 11pt; }}
section.teacher h1 {{ font-size: 18pt; }}
section.teacher ol.key {{ columns: 2; font-size: 13pt; line-height: 1.6; }}
section.teacher p.made {{ font-size: {TEACHER_PT}pt; color: #555; }}
"""


def to_html(wl: WordList) -> str:
    """The sheet as one print-ready HTML page: student pages, then the teacher's page."""
    check_fonts(wl)
    e = html.escape
    size = "letter" if wl.paper == "Letter" else "A4"
    words = wl.words
    grids = puzzles(wl)
    body: list[str] = []

    def student(title: str, how: str, name: bool = True) -> None:
        """Open a student page: title, name and date line, instruction."""
        body.append(f'<section class="page"><h1>{e(title)}</h1>')
        if name:
            body.append(f'<p class="name">{e(NAME_LINE)}</p>')
        body.append(f'<p class="how">{e(how)}</p>')

    for i, grid in enumerate(grids, 1):
        student(numbered(wl.title, i, len(grids)), instruction(wl, grid))
        body.append(_grid(wl, grid, hits=False))
        bank = "".join(f"<li>{e(shown(wl, w))}</li>" for w in grid_words(wl, grid))
        body.append(f'<ul class="bank">{bank}</ul>' + ("</section>" if i < len(grids) else ""))
    if not grids:
        student(wl.title, instruction(wl), wl.sheet not in NAMELESS)
    if wl.sheet == "scramble":
        letters = [shown(wl, s) for s in scrambled(wl)]
        width = LETTER_EM * max(map(len, letters), default=1)  # every answer line starts in one column
        items = "".join(
            f'<p><span class="n">{i}.</span><span class="letters" style="width: {width:.2f}em">{e(s)}</span>'
            '<span class="line"></span></p>'
            for i, s in enumerate(letters, 1)
        )
        body.append(f'<div class="scramble">{items}</div>')
    elif wl.sheet == "hangman":
        for i, w in enumerate(words, 1):
            boxes = "<span></span>" * GALLOWS_MISSES
            body.append(
                f'<div class="hangman"><b>{i}.</b>{GALLOWS_SVG}<div><div class="board">{e(hangman_board(w))}</div>'
                f'<div class="missed">Missed letters: {boxes}</div></div></div>'
            )
    elif wl.sheet == "handwriting":
        body += [f'<div class="hand">{_hand_row(wl, w)}{_hand_row(wl, "")}</div>' for w in words]
    elif wl.sheet == "flashcards":
        cards = "".join(f'<div class="card">{e(shown(wl, w) if wl.lowercase else w)}</div>' for w in words)
        body.append(f'<div class="cards">{cards}</div>')
    elif not grids:
        body.append('<ol class="words">' + "".join(f"<li>{e(w)}</li>" for w in words) + "</ol>")
    body.append("</section>")
    if wl.test_page:
        student(TEST_TITLE, TEST_INSTRUCTION)
        body.append('<ol class="lines">' + "<li></li>" * len(words) + "</ol></section>")
    keys: tuple[WordSearch | None, ...] = grids or (None,)
    for i, key in enumerate(keys, 1):
        if i > 1:
            body.append("</section>")
        body.append(f'<section class="page teacher"><h1>{e(numbered(teacher_title(wl), i, len(keys)))}</h1>')
        if key is not None:
            body.append(_grid(wl, key, hits=True))
    body.append('<ol class="key">' + "".join(f"<li>{e(line.split('. ', 1)[1])}</li>" for line in key_lines(wl)))
    body.append(f'</ol><p class="made">{e(teacher_note(wl))}</p></section>')
    text = "".join(body)
    chosen = font(wl.font)
    faces = [
        subset_css("Sheet", chosen.regular, text + "0123456789", 400),
        subset_css("Sheet", chosen.bold, text + "0123456789", 700),
        subset_css("Symbols", fonts()["dejavu"].regular, SYMBOLS, 400),
    ]
    head = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(wl.title)}</title>",
        f"<style>{''.join(faces)}\n@page {{ size: {size}; margin: 15mm; }}{STYLE}</style></head><body>",
    ]
    return "\n".join(head + body + ["</body></html>"]) + "\n"


def _hand_row(wl: WordList, word: str) -> str:
    """One handwriting row as SVG in millimetres on classroom ruling (content.guides): the top line, the dashed
    midline, the baseline and the dotted descender line; `word` traced in light grey on the baseline."""
    g = guides(sheet_metrics(wl))
    height = g.descender + 1.0
    w = HAND_WIDTH_MM
    lines = [
        f'<line x1="0" y1="0.3" x2="{w}" y2="0.3" stroke="#555" stroke-width="0.3"/>',
        f'<line x1="0" y1="{g.midline:.3f}" x2="{w}" y2="{g.midline:.3f}" stroke="#888" stroke-width="0.3" '
        'stroke-dasharray="1.2 1.4"/>',
        f'<line x1="0" y1="{g.baseline:.3f}" x2="{w}" y2="{g.baseline:.3f}" stroke="#222" stroke-width="0.6"/>',
        f'<line x1="0" y1="{g.descender:.3f}" x2="{w}" y2="{g.descender:.3f}" stroke="#bbb" stroke-width="0.3" '
        'stroke-dasharray="0.4 1.2"/>',
    ]
    if word:
        size = g.size_pt * 25.4 / 72
        lines.append(
            f'<text x="3" y="{g.baseline:.3f}" font-family="Sheet" font-size="{size:.3f}" fill="#b0b0b0">'
            f"{html.escape(word)}</text>"
        )
    return (
        f'<svg class="hand" width="{w}mm" height="{height:.3f}mm" viewBox="0 0 {w} {height:.3f}" '
        f'role="img" aria-label="{html.escape(word or "empty writing lines")}">{"".join(lines)}</svg>'
    )


GALLOWS_SVG = (
    '<svg width="84" height="100" viewBox="0 0 70 84" aria-label="gallows">'
    '<g stroke="#000" stroke-width="3" fill="none" stroke-linecap="round">'
    '<line x1="5" y1="80" x2="45" y2="80"/><line x1="15" y1="80" x2="15" y2="5"/>'
    '<line x1="15" y1="5" x2="50" y2="5"/><line x1="50" y1="5" x2="50" y2="16"/></g></svg>'
)


def _grid(wl: WordList, grid: WordSearch, hits: bool) -> str:
    """The word search as a table; with `hits`, the cells of placed words highlighted."""
    marked = {cell for p in grid.placements for cell in p.cells()} if hits else set()
    rows = []
    for r, line in enumerate(grid.grid):
        cells = "".join(
            f"<td{' class=hit' if (r, c) in marked else ''}>{shown(wl, ch)}</td>" for c, ch in enumerate(line)
        )
        rows.append(f"<tr>{cells}</tr>")
    return '<table class="grid">' + "".join(rows) + "</table>"
