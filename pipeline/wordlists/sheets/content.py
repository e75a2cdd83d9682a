"""What every format of a sheet prints: the words as shown, the instruction, the puzzles, the teacher's page,
and the sizes and proportions the printed formats share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.wordlists.fonts import Metrics, check_printable, font, metrics
from pipeline.wordlists.puzzles import WordSearch, scrambles, word_searches

if TYPE_CHECKING:
    from pipeline.wordlists.select import WordList

STUDENT_PT = 14  # the smallest type on a student page (the youngest readers need 14 pt or more)
TEACHER_PT = 9  # the teacher's page notes
NAME_LINE = "Name: ______________________   Date: ____________"
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
    "handwriting": "Trace each word, then write it on the empty lines.",
    "flashcards": "Cut along the dashed lines.",
}
TEST_TITLE = "Spelling test"
TEST_INSTRUCTION = "Write each word your teacher reads."
PUZZLES = ("word-search", "scramble", "hangman")  # sheets whose teacher page is an answer key
NAMELESS = ("flashcards",)  # sheets without a name and date line (cards are cut apart)


@dataclass(frozen=True)
class Guides:
    """Handwriting guide lines of one row on classroom ruling, in millimetres below the row's top line: the dashed
    midline halfway down to the baseline, the dotted descender line as far below the baseline; and the font size
    (points) whose x-height fills the lower half exactly (ascenders reach up towards the top line)."""

    midline: float
    baseline: float
    descender: float
    size_pt: float


HAND_BAND_MM = 15.0  # handwriting: top line to baseline (twice the x-height of the traced letters)
MM_PER_PT = 25.4 / 72


def guides(m: Metrics, band: float = HAND_BAND_MM) -> Guides:
    """Classroom ruling for a font: the x-height is half the band, so the size follows."""
    size_mm = band / 2 / m.x_height
    return Guides(midline=band / 2, baseline=band, descender=band * 1.5, size_pt=size_mm / MM_PER_PT)


def check_fonts(wl: WordList) -> None:
    """A one-line error, before anything is drawn, when the sheet's font cannot print its title or a word."""
    chosen = font(wl.font)
    check_printable(chosen, wl.title, "--title")
    check_printable(chosen, "".join(wl.words), "the list's words")


def sheet_metrics(wl: WordList) -> Metrics:
    """The letter metrics of the list's font (regular weight: the traced letters)."""
    return metrics(font(wl.font).regular)


def shown(wl: WordList, text: str) -> str:
    """Letters of a grid, a scramble or a card as printed: capitals, or lower case with --lowercase."""
    return text.lower() if wl.lowercase else text.upper()


def puzzles(wl: WordList) -> tuple[WordSearch, ...]:
    """The word searches of the list (one when its words fit one grid; seeded by the list's seed), spelling none
    of the list's banned strings."""
    if wl.sheet != "word-search":
        return ()
    return word_searches(wl.words, wl.difficulty, wl.seed, wl.banned, wl.fill or None)


def grid_words(wl: WordList, grid: WordSearch) -> list[str]:
    """The list's words that one grid hides, in the list's order (its word bank)."""
    hidden = {p.word for p in grid.placements}
    return [w for w in wl.words if w.upper() in hidden]


def numbered(title: str, i: int, n: int) -> str:
    """A page's title, with which of n puzzles it shows when there are several."""
    return title if n == 1 else f"{title} ({i} of {n})"


def scrambled(wl: WordList) -> list[str]:
    """Each word's scrambled letters (upper case): the list's own, chosen safe with the words, else shuffled
    by the seed (a word of one repeated letter stays as it is)."""
    if wl.scrambled:
        return wl.scrambled
    out = []
    for i, w in enumerate(wl.words):
        try:
            out.append(scrambles([w], wl.seed + i)[0])
        except ValueError:
            out.append(w.upper())
    return out


def instruction(wl: WordList, grid: WordSearch | None = None) -> str:
    """The one-line instruction printed under the title."""
    text = INSTRUCTIONS[wl.sheet]
    if grid is not None:
        text = text.format(arrows=" ".join(ARROWS[d] for d in grid.directions))
    return text


def teacher_note(wl: WordList) -> str:
    """How the list was made, in one line, for the teacher's page (never on a student page)."""
    made = "How this list was made: " + "; ".join(wl.filters) + "."
    return f"{made} {wl.left_out[0].upper()}{wl.left_out[1:]}." if wl.left_out else made


def key_lines(wl: WordList) -> list[str]:
    """The answer key's lines: each word, with every other answer of a scramble."""
    out = []
    for i, w in enumerate(wl.words, 1):
        others = wl.answers.get(w.upper(), []) if wl.sheet == "scramble" else []
        also = f" (also right: {', '.join(a.lower() if w.islower() else a for a in others)})" if others else ""
        out.append(f"{i}. {w}{also}")
    return out


def teacher_title(wl: WordList) -> str:
    """The heading of the teacher's page."""
    if wl.sheet in PUZZLES:
        return f"Answer key: {wl.title}"
    if wl.test_page:
        return f"For the teacher: words to read out ({wl.title})"
    return f"For the teacher: {wl.title}"


def hangman_board(word: str) -> str:
    """The Hangman board of a word: one underscore per letter."""
    return " ".join("_" * len(word))
