"""Puzzles for the classroom: word search grids and scrambled words, seeded and reproducible."""

from __future__ import annotations

import functools
import itertools
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
FILL_RATIO = 2.2  # cells of a grid per letter of its words, at the least (the rest is filler)
MIN_TARGET = 3  # letters of the shortest word a word search hides (a shorter one reads by chance anywhere)
TRIES = 400  # random placements tried per word before the grid grows


class TooBig(WordstatsError):
    """The words do not fit one grid of MAX_SIDE."""


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


AXES = ((0, 1), (1, 0), (1, 1), (-1, 1))  # the four lines through a cell; each read both ways
ATTEMPTS = 200  # placements tried per grid side before the grid grows (a banned string can force a retry)
MIN_BANNED = 3  # banned strings this long or longer never read in a grid
# Fill letters when the settings name none: English letter frequencies (per cent, in running text).
ENGLISH_LETTERS = {
    "A": 8.2, "B": 1.5, "C": 2.8, "D": 4.3, "E": 12.7, "F": 2.2, "G": 2.0, "H": 6.1, "I": 7.0, "J": 0.15,
    "K": 0.77, "L": 4.0, "M": 2.4, "N": 6.7, "O": 7.5, "P": 1.9, "Q": 0.095, "R": 6.0, "S": 6.3, "T": 9.1,
    "U": 2.8, "V": 0.98, "W": 2.4, "X": 0.15, "Y": 2.0, "Z": 0.074,
}  # fmt: skip


@dataclass(frozen=True)
class Banned:
    """Strings no grid may spell (upper case, 3 letters or more), with every prefix of each, read both ways."""

    strings: frozenset[str]
    prefixes: frozenset[str]

    @staticmethod
    def of(strings) -> Banned:
        """The banned set of `strings` (shorter ones and non-letters dropped)."""
        kept = frozenset(s.upper() for s in strings if len(s) >= MIN_BANNED and s.isascii() and s.isalpha())
        return Banned(kept, frozenset(s[:i] for s in kept for i in range(1, len(s) + 1)))

    def adding(self, strings) -> Banned:
        """This set with `strings` banned too."""
        more = Banned.of(strings)
        return Banned(self.strings | more.strings, self.prefixes | more.prefixes)

    def spelled(self, text: str, through: int | None = None) -> list[tuple[int, int]]:
        """Every (start, end) of a banned string inside `text` (only those covering index `through`, if given)."""
        out = []
        prefixes, strings = self.prefixes, self.strings
        last = len(text) if through is None else through + 1
        for a in range(last):
            for b in range(a + 1, len(text) + 1):
                piece = text[a:b]
                if piece not in prefixes:
                    break
                if b - a >= MIN_BANNED and piece in strings and (through is None or b > through):
                    out.append((a, b))
        return out


NO_BANNED = Banned(frozenset(), frozenset())


def word_search(
    words: list[str],
    difficulty: str = "medium",
    seed: int = 0,
    banned: Banned = NO_BANNED,
    fill: dict[str, float] | None = None,
) -> WordSearch:
    """A word search holding every word (letters only, upper-cased, three or more), longest placed first; the grid
    grows until they all fit; empty cells get letters drawn from `fill` (weights; English frequencies by default)
    such that neither a banned string nor a second copy of a word reads in any of the eight directions, unless
    it lies inside a listed word."""
    directions, smallest = DIFFICULTY[difficulty]
    words = [w.upper() for w in words]
    if not words:
        raise WordstatsError("a word search needs at least one word")
    short = [w for w in words if len(w) < MIN_TARGET]
    if short:
        raise WordstatsError(f"{short[0].lower()}: a word search hides words of {MIN_TARGET} letters or more")
    banned = banned.adding(words)  # a word reads once: where the answer key says
    longest = max(len(w) for w in words)
    if longest > MAX_SIDE:
        too_long = next(w for w in words if len(w) == longest)
        raise WordstatsError(f"{too_long.lower()}: too long for a word search (at most {MAX_SIDE} letters)")
    letters = sum(len(w) for w in words)
    side = max(smallest, longest, math.ceil(math.sqrt(letters * FILL_RATIO)))
    rng = random.Random(seed)
    weights = fill or ENGLISH_LETTERS
    alphabet, cumulative = list(weights), list(itertools.accumulate(weights.values()))
    order = sorted(words, key=lambda w: (-len(w), w))
    while side <= MAX_SIDE:
        for _ in range(ATTEMPTS):
            placed = _place(order, side, directions, rng)
            if placed is None:
                break
            cells, placements = placed
            if _crossing_banned(cells, placements, side, banned):
                continue
            filled = _fill(cells, side, rng, banned, alphabet, cumulative)
            if filled is None:
                continue
            grid = tuple("".join(filled[(r, c)] for c in range(side)) for r in range(side))
            index = {w: i for i, w in enumerate(words)}
            return WordSearch(grid, tuple(sorted(placements, key=lambda p: index[p.word])), directions)
        side += 1
    raise TooBig(f"{len(words)} words do not fit a {MAX_SIDE}x{MAX_SIDE} word search: give fewer words")


GRID_WORDS = 20  # words one grid of a sheet holds at most (its word bank fits under it on the page)


def word_searches(
    words: list[str],
    difficulty: str = "medium",
    seed: int = 0,
    banned: Banned = NO_BANNED,
    fill: dict[str, float] | None = None,
) -> tuple[WordSearch, ...]:
    """The fewest word searches that hold every word, GRID_WORDS at most each and each grid at most MAX_SIDE
    wide: the words dealt longest first to the grids in turn, so that the grids are alike; grid i seeded by
    seed + i (a list that fits one grid gets word_search's grid)."""
    if not words:
        raise WordstatsError("a word search needs at least one word")
    letters = sum(len(w) for w in words)
    grids = max(math.ceil(len(words) / GRID_WORDS), math.ceil(letters * FILL_RATIO / MAX_SIDE**2))
    for n in range(grids, len(words) + 1):
        try:
            return tuple(
                word_search(group, difficulty, seed + i, banned, fill) for i, group in enumerate(deal(words, n))
            )
        except TooBig:
            continue
    raise TooBig(f"these words make no {MAX_SIDE}x{MAX_SIDE} word search that spells no banned string")


def deal(words: list[str], n: int) -> list[list[str]]:
    """Words dealt to n groups, longest first, back and forth (so the groups' letters are alike), each group in the
    list's order."""
    order = sorted(range(len(words)), key=lambda i: (-len(words[i]), i))
    groups: list[list[int]] = [[] for _ in range(n)]
    for k, i in enumerate(order):
        turn, at = divmod(k, n)
        groups[at if turn % 2 == 0 else n - 1 - at].append(i)
    return [[words[i] for i in sorted(g)] for g in groups if g]


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


def line(side: int, r: int, c: int, dr: int, dc: int) -> list[tuple[int, int]]:
    """The cells of the grid's line through (r, c) along (dr, dc), in order."""
    while 0 <= r - dr < side and 0 <= c - dc < side:
        r, c = r - dr, c - dc
    out = []
    while 0 <= r < side and 0 <= c < side:
        out.append((r, c))
        r, c = r + dr, c + dc
    return out


@functools.cache
def lines(side: int) -> list[list[tuple[int, int]]]:
    """Every row, column and diagonal of a grid (each once, in one direction)."""
    out = []
    for dr, dc in AXES:
        starts = {tuple(line(side, r, c, dr, dc)[0]) for r in range(side) for c in range(side)}
        out += [line(side, r, c, dr, dc) for r, c in sorted(starts)]
    return out


def _crossing_banned(cells: dict, placements: list[Placement], side: int, banned: Banned) -> bool:
    """Whether the placed words alone spell a banned string that lies inside no single placed word."""
    if not banned.strings:
        return False
    owned = [set(p.cells()) for p in placements]
    for cells_of_line in lines(side):
        for run in _runs(cells_of_line, cells):
            text = "".join(cells[cell] for cell in run)
            for seq, reading in ((run, text), (run[::-1], text[::-1])):
                for a, b in banned.spelled(reading):
                    span = set(seq[a:b])
                    if not any(span <= mine for mine in owned):
                        return True
    return False


def _runs(cells_of_line, cells) -> list[list[tuple[int, int]]]:
    """The stretches of a line whose cells are all filled."""
    runs, current = [], []
    for cell in cells_of_line:
        if cell in cells:
            current.append(cell)
        else:
            if len(current) >= MIN_BANNED:
                runs.append(current)
            current = []
    if len(current) >= MIN_BANNED:
        runs.append(current)
    return runs


BACKTRACKS = 64  # fill letters taken back per grid when a cell can take no letter, before the placing is redone


def _fill(cells: dict, side: int, rng, banned: Banned, alphabet, cumulative) -> dict | None:
    """Every empty cell given a letter, row by row (_draw); a cell that can take no letter sends the fill back to
    the cell before, which tries another letter (BACKTRACKS times at most a grid, then None)."""
    grid = dict(cells)
    empty = [(r, c) for r in range(side) for c in range(side) if (r, c) not in grid]
    tried: list[set[str]] = [set() for _ in empty]
    i, backtracks = 0, 0
    while i < len(empty):
        if _draw(grid, empty[i], tried[i], side, rng, banned, alphabet, cumulative):
            i += 1
            continue
        tried[i] = set()
        backtracks += 1
        if i == 0 or backtracks > BACKTRACKS:
            return None
        i -= 1
        del grid[empty[i]]
    return grid


def _draw(grid: dict, cell: tuple[int, int], tried: set[str], side: int, rng, banned: Banned, alphabet, cumulative):
    """Give `cell` a letter drawn by weight, not yet `tried` there, redrawn while a banned string would read
    through it; False (the cell left empty) when no letter is left."""
    while len(tried) < len(alphabet):
        letter = rng.choices(alphabet, cum_weights=cumulative)[0]
        if letter in tried:
            continue
        tried.add(letter)
        grid[cell] = letter
        if not _spells_through(grid, side, cell[0], cell[1], banned):
            return True
    grid.pop(cell, None)
    return False


def _spells_through(grid: dict, side: int, r: int, c: int, banned: Banned) -> bool:
    """Whether a banned string reads (either way) through cell (r, c) along filled cells of any line."""
    if not banned.strings:
        return False
    for dr, dc in AXES:
        run = [(r, c)]
        rr, cc = r - dr, c - dc
        while 0 <= rr < side and 0 <= cc < side and (rr, cc) in grid:
            run.insert(0, (rr, cc))
            rr, cc = rr - dr, cc - dc
        at = len(run) - 1
        rr, cc = r + dr, c + dc
        while 0 <= rr < side and 0 <= cc < side and (rr, cc) in grid:
            run.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if len(run) < MIN_BANNED:
            continue
        text = "".join(grid[cell] for cell in run)
        if banned.spelled(text, at) or banned.spelled(text[::-1], len(text) - 1 - at):
            return True
    return False


SHUFFLES = 200  # shuffles tried per word before its letters are given up as unscramblable


def alphagram(word: str) -> str:
    """The word's letters in alphabetical order."""
    return "".join(sorted(word.upper()))


def scramble(word: str, rng: random.Random, words: frozenset[str] = frozenset(), banned: Banned = NO_BANNED) -> str:
    """The word's letters shuffled so that they spell no word of `words` (the word itself included) and hold
    no banned string; ValueError when no shuffle does."""
    letters = list(word.upper())
    for _ in range(SHUFFLES):
        rng.shuffle(letters)
        shuffled = "".join(letters)
        if shuffled != word.upper() and shuffled not in words and not banned.spelled(shuffled):
            return shuffled
    raise ValueError(word)


def scrambles(
    words: list[str], seed: int = 0, lexicon: frozenset[str] = frozenset(), banned: Banned = NO_BANNED
) -> list[str]:
    """Each word scrambled (upper case), reproducibly for the seed: never a word of `lexicon`, never holding
    a banned string."""
    rng = random.Random(seed)
    return [scramble(w, rng, lexicon, banned) for w in words]


def other_answers(words: list[str], known: frozenset[str]) -> dict[str, list[str]]:
    """For each word (upper case), the other words of `known` its letters spell, alphabetically."""
    by_letters: dict[str, list[str]] = {}
    for w in sorted(known):
        by_letters.setdefault(alphagram(w), []).append(w)
    return {w: [a for a in by_letters.get(alphagram(w), []) if a != w] for w in words}


TELLING_SHARE = 0.5  # a Hangman reveal state is telling when it shows at least this share of the word's letters
MISLEADING_SHARE = 0.25  # ...and misleading when at least this share of the words that fit it are unsafe


def telling(word: str) -> int:
    """How many letters a Hangman reveal state must show to be telling: half the word, rounded up."""
    return math.ceil(len(word) * TELLING_SHARE)


def shared_letters(word: str, other: str) -> frozenset[str]:
    """The letters of `word` that stand at exactly the same positions in `other` (same length): a reveal state
    showing any of them, and no other letter, fits both words."""
    return frozenset(
        letter
        for letter in set(word)
        if [i for i, ch in enumerate(word) if ch == letter] == [i for i, ch in enumerate(other) if ch == letter]
    )


def state(word: str, shown: frozenset[str]) -> str:
    """The Hangman board of `word` with the letters `shown` revealed and the rest as underscores."""
    return "".join(ch if ch in shown else "_" for ch in word)


def fits(board: str, shown: frozenset[str], candidate: str) -> bool:
    """Whether `candidate` fits a Hangman board: its letters where the board shows one, and none of the shown
    letters in the blanks (a revealed letter is shown wherever it stands)."""
    return len(board) == len(candidate) and all(
        (b == c) if b != "_" else (c not in shown) for b, c in zip(board, candidate)
    )


def misleading(words: list[str], unsafe: frozenset[str], known: frozenset[str]) -> dict[str, str]:
    """The words (upper case) with a misleading Hangman reveal state, each with an unsafe word that fits it: a
    state showing at least half the word's letters that an unsafe word of the same length fits, where at least
    a quarter of the words that fit it (known words and unsafe ones) are unsafe. The most telling state an
    unsafe word fits shows every letter the two words share in place; each is checked."""
    import numpy as np

    out: dict[str, str] = {}
    for length in sorted({len(w) for w in words}):
        mine = [w for w in words if len(w) == length]
        bad = sorted(w for w in unsafe if len(w) == length)
        if not bad:
            continue
        fine = sorted({w for w in known if len(w) == length} - set(bad) | set(mine))
        a, b, k = (
            np.frombuffer("".join(x).encode("ascii"), np.uint8).reshape(len(x), length) for x in (mine, bad, fine)
        )
        need = telling("x" * length)
        for start in range(0, len(mine), 256):
            same = (a[start : start + 256, None, :] == b[None, :, :]).sum(axis=2)
            for i, j in zip(*np.nonzero(same >= need)):
                w, o = mine[start + i], bad[j]
                if w in out or w == o:
                    continue
                shown = shared_letters(w, o)
                if sum(ch in shown for ch in w) < need:
                    continue
                if _unsafe_share(w, shown, a[start + i], b, k) >= MISLEADING_SHARE:
                    out[w] = o
    return out


def _unsafe_share(word: str, shown: frozenset[str], row, unsafe, fine) -> float:
    """The share of unsafe words among the words that fit `word`'s board with `shown` revealed."""
    import numpy as np

    mask = np.array([ch in shown for ch in word])
    codes = np.frombuffer("".join(sorted(shown)).encode("ascii"), np.uint8)

    def count(rows) -> int:
        """How many rows fit the board."""
        ok = (rows[:, mask] == row[mask]).all(axis=1) & ~np.isin(rows[:, ~mask], codes).any(axis=1)
        return int(ok.sum())

    bad = count(unsafe)
    return bad / (bad + count(fine))
