"""Puzzles for the classroom: word search grids and scrambled words, seeded and reproducible."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from pipeline.core.errors import WordstatsError

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# (row step, column step) of each direction a word may run in
DIRECTIONS = {
    "right": (0, 1),
    "down": (1, 0),
    "down-right": (1, 1),
    "up-right": (-1, 1),
    "left": (0, -1),
    "up": (-1, 0),
    "up-left": (-1, -1),
    "down-left": (1, -1),
}
# Word search difficulty: the directions words run in, and the smallest grid side.
DIFFICULTY: dict[str, tuple[tuple[str, ...], int]] = {
    "easy": (("right", "down"), 8),
    "medium": (("right", "down", "down-right", "up-right"), 10),
    "hard": (tuple(DIRECTIONS), 12),  # all 8, backwards too
}
MAX_SIDE = 18
TRIES = 400  # random placements tried per word before the grid grows


@dataclass(frozen=True)
class Placement:
    """Where a word lies in the grid: its first letter's row and column and its direction."""

    word: str
    row: int
    col: int
    direction: str

    def cells(self) -> list[tuple[int, int]]:
        """The (row, column) of each letter, in order."""
        dr, dc = DIRECTIONS[self.direction]
        return [(self.row + i * dr, self.col + i * dc) for i in range(len(self.word))]


@dataclass(frozen=True)
class WordSearch:
    """A filled grid (rows of capital letters) and where each word lies."""

    grid: tuple[str, ...]
    placements: tuple[Placement, ...]
    directions: tuple[str, ...]

    @property
    def size(self) -> int:
        """The grid's side."""
        return len(self.grid)


def word_search(words: list[str], difficulty: str = "medium", seed: int = 0) -> WordSearch:
    """A word search holding every word (letters only, upper-cased), longest placed first; the grid grows
    until they all fit; empty cells get random letters."""
    directions, smallest = DIFFICULTY[difficulty]
    words = [w.upper() for w in words]
    if not words:
        raise WordstatsError("a word search needs at least one word")
    longest = max(len(w) for w in words)
    if longest > MAX_SIDE:
        raise WordstatsError(f"{words[0].lower()}: too long for a word search (at most {MAX_SIDE} letters)")
    letters = sum(len(w) for w in words)
    side = max(smallest, longest, math.ceil(math.sqrt(letters * 2.2)))
    rng = random.Random(seed)
    while side <= MAX_SIDE:
        placed = _place(sorted(words, key=lambda w: (-len(w), w)), side, directions, rng)
        if placed is not None:
            cells, placements = placed
            grid = tuple("".join(cells.get((r, c)) or rng.choice(ALPHABET) for c in range(side)) for r in range(side))
            order = {w: i for i, w in enumerate(words)}
            return WordSearch(grid, tuple(sorted(placements, key=lambda p: order[p.word])), directions)
        side += 1
    raise WordstatsError(f"{len(words)} words do not fit a {MAX_SIDE}x{MAX_SIDE} word search: give fewer words")


def _place(words, side, directions, rng) -> tuple[dict, list[Placement]] | None:
    """Place each word at a random fitting spot (crossing only on equal letters), or None."""
    cells: dict[tuple[int, int], str] = {}
    placements = []
    for word in words:
        for _ in range(TRIES):
            direction = rng.choice(directions)
            p = Placement(word, rng.randrange(side), rng.randrange(side), direction)
            spots = p.cells()
            if all(0 <= r < side and 0 <= c < side and cells.get((r, c), ch) == ch for (r, c), ch in zip(spots, word)):
                cells.update(zip(spots, word))
                placements.append(p)
                break
        else:
            return None
    return cells, placements


def scramble(word: str, rng: random.Random) -> str:
    """The word's letters shuffled so that they no longer spell it (when they can)."""
    letters = list(word)
    if len(set(letters)) < 2:
        return word
    for _ in range(100):
        rng.shuffle(letters)
        shuffled = "".join(letters)
        if shuffled != word:
            return shuffled
    return word[::-1]


def scrambles(words: list[str], seed: int = 0) -> list[str]:
    """Each word scrambled, reproducibly for the seed."""
    rng = random.Random(seed)
    return [scramble(w, rng) for w in words]
