"""A sheet as Markdown: the student part, then the teacher's part."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.wordlists.sheets.content import (
    GALLOWS_MISSES,
    NAME_LINE,
    NAMELESS,
    TEST_INSTRUCTION,
    TEST_TITLE,
    grid_words,
    hangman_board,
    instruction,
    key_lines,
    numbered,
    puzzles,
    scrambled,
    shown,
    teacher_note,
    teacher_title,
)

if TYPE_CHECKING:
    from pipeline.wordlists.select import WordList


def to_markdown(wl: WordList, columns: int = 4) -> str:
    """The sheet as Markdown: title, name line, the activity, then the teacher's section."""
    words = wl.words
    out = [f"# {wl.title}", ""]
    if wl.sheet not in NAMELESS:
        out += [NAME_LINE, ""]
    grids = puzzles(wl)
    out += [instruction(wl, grids[0] if grids else None), ""]
    for i, grid in enumerate(grids, 1):
        out += [f"### {numbered('Puzzle', i, len(grids))}", ""] if len(grids) > 1 else []
        out += ["```"] + [" ".join(shown(wl, row)) for row in grid.grid] + ["```", ""]
        out += [", ".join(shown(wl, w) for w in grid_words(wl, grid)), ""]
    if wl.sheet == "scramble":
        out += [f"{i}. {shown(wl, s)}  ______________" for i, s in enumerate(scrambled(wl), 1)] + [""]
    elif wl.sheet == "hangman":
        boxes = "☐" * GALLOWS_MISSES
        out += [f"{i}. `{hangman_board(w)}` ({len(w)} letters)  Missed: {boxes}" for i, w in enumerate(words, 1)]
        out += [""]
    elif wl.sheet == "flashcards":
        out += [f"- {shown(wl, w) if wl.lowercase else w}" for w in words] + [""]
    elif not grids:
        out += _table(words, columns) + [""]
    if wl.test_page:
        out += [f"## {TEST_TITLE}", "", NAME_LINE, "", TEST_INSTRUCTION, ""]
        out += [f"{i}. ______________________" for i in range(1, len(words) + 1)] + [""]
    out += ["---", "", f"## {teacher_title(wl)}", ""]
    out += key_lines(wl) + [""]
    for i, grid in enumerate(grids, 1):
        where = f"{numbered('puzzle', i, len(grids))}, " if len(grids) > 1 else ""
        out += [
            f"- {p.word.lower()}: {where}row {p.row + 1}, column {p.col + 1}, {p.direction}" for p in grid.placements
        ]
        out += [""]
    out += [teacher_note(wl)]
    return "\n".join(out) + "\n"


def _table(words: list[str], columns: int) -> list[str]:
    """Numbered words in a table of `columns` columns, filled down, with a header naming each column's range."""
    rows = -(-len(words) // columns)
    columns = max(1, min(columns, -(-len(words) // max(rows, 1))))
    cells = [f"{i + 1}. {w}" for i, w in enumerate(words)]
    header = [f"Words {c * rows + 1}–{min(len(words), (c + 1) * rows)}" for c in range(columns)]
    grid = [[cells[c * rows + r] if c * rows + r < len(cells) else "" for c in range(columns)] for r in range(rows)]
    return ["| " + " | ".join(header) + " |", "|" + "---|" * columns] + ["| " + " | ".join(row) + " |" for row in grid]
