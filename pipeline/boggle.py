"""Boggle: boards, dice and rules, the dictionary as a compact trie, random-board statistics, best-board search.

A board is R × C cells in row order; each cell is a letter A–Z, and Q stands for the Qu cube (it spells QU
and counts as two letters). The dictionary spells every QU as Q, so the search over cubes is a plain trie walk;
words with a Q not followed by U cannot be formed and are left out. The hot loops live in `pipeline.kernels`.
"""

from __future__ import annotations

import functools
import math
import re
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import polars as pl

from pipeline.config import Config, Section
from pipeline.errors import WordstatsError

MAX_CELLS = 64  # a board's used-cube set is one 64-bit mask
SIZE_RE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


# ---- rules, dice, boards ------------------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    """How words count: the shortest word allowed and the points by word length in letters."""

    name: str
    min_length: int
    points: tuple[int, ...]  # points[n] for a word of n letters; longer words score the last entry

    def word_points(self, length: int) -> int:
        """Points for a word of `length` letters (0 when too short)."""
        if length < self.min_length:
            return 0
        return self.points[min(length, len(self.points) - 1)]

    def with_min_length(self, min_length: int | None) -> Rules:
        """The same rules with another shortest word."""
        if min_length is None or min_length == self.min_length:
            return self
        if min_length < 1:
            raise WordstatsError(f"--min-length must be at least 1, got {min_length}")
        return Rules(self.name, min_length, self.points)


@dataclass(frozen=True)
class Dice:
    """A set of dice for one grid size, each die its faces (Q = the Qu face), and the rules it is played by."""

    name: str
    rows: int
    cols: int
    variant: str
    faces: tuple[str, ...]

    @property
    def size(self) -> str:
        """The grid size as RxC."""
        return f"{self.rows}x{self.cols}"

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The faces as letter codes (dice × longest die, padded) and each die's number of faces."""
        width = max(len(f) for f in self.faces)
        codes = np.zeros((len(self.faces), width), dtype=np.int8)
        for i, die in enumerate(self.faces):
            codes[i, : len(die)] = [ord(ch) - 65 for ch in die]
        return codes, np.array([len(f) for f in self.faces], dtype=np.int32)


@dataclass(frozen=True)
class Board:
    """A grid of cubes: `letters` holds one letter per cell in row order, Q for the Qu cube."""

    rows: int
    cols: int
    letters: str

    @property
    def codes(self) -> np.ndarray:
        """The cells as letter codes (A = 0), int8."""
        return np.frombuffer(self.letters.encode("ascii"), dtype=np.uint8).astype(np.int8) - np.int8(65)

    @property
    def size(self) -> str:
        """The grid size as RxC."""
        return f"{self.rows}x{self.cols}"

    def cube(self, cell: int) -> str:
        """What cube `cell` shows: a letter, or Qu."""
        ch = self.letters[cell]
        return "Qu" if ch == "Q" else ch

    def grid(self) -> list[str]:
        """The board as lines of cubes, for people."""
        return [" ".join(f"{self.cube(r * self.cols + c):<2}" for c in range(self.cols)).rstrip()
                for r in range(self.rows)]


def parse_size(text: str) -> tuple[int, int]:
    """A grid size written RxC (4x4, 5x5, 3x5) as (rows, cols)."""
    match = SIZE_RE.match(text or "")
    if not match:
        raise WordstatsError(f"bad board size {text!r}: write it as RxC, e.g. 4x4")
    return check_size(int(match.group(1)), int(match.group(2)), f"board size {text!r}")


def check_size(rows: int, cols: int, where: str) -> tuple[int, int]:
    """(rows, cols) if the grid has at least one cell and at most MAX_CELLS."""
    if rows < 1 or cols < 1:
        raise WordstatsError(f"{where}: a board needs at least one row and one column, got {rows}x{cols}")
    if rows * cols > MAX_CELLS:
        raise WordstatsError(f"{where}: {rows}x{cols} has {rows * cols} cells, at most {MAX_CELLS} are supported")
    return rows, cols


def split_cubes(text: str, where: str) -> list[str]:
    """The cubes spelled by a run of letters: one letter each, Q or Qu for the Qu cube."""
    cubes, i = [], 0
    while i < len(text):
        ch = text[i]
        if not ("A" <= ch.upper() <= "Z" and ch.isascii()):
            raise WordstatsError(f"{where}: {ch!r} at position {i + 1} is not a letter (cells are A-Z, Q or Qu)")
        i += 1
        if ch.upper() == "Q" and i < len(text) and text[i].upper() == "U":
            i += 1
        cubes.append(ch.upper())
    return cubes


def parse_board(text: str, size: str | None = None, where: str | None = None) -> Board:
    """A board from its cells in row order (`PERSLATGSINETERS`; Q or Qu for the Qu cube; rows may be
    separated by spaces); the size is inferred for a square board or from the rows, else given as RxC."""
    where = where or f"board {text!r}"
    rows_text = text.split()
    if not rows_text:
        raise WordstatsError(f"{where}: the board is empty")
    rows_cubes = [split_cubes(r, where) for r in rows_text]
    cubes = [c for row in rows_cubes for c in row]
    n = len(cubes)
    if size is not None:
        rows, cols = parse_size(size)
    elif len(rows_cubes) > 1:
        rows, cols = len(rows_cubes), len(rows_cubes[0])
        if any(len(r) != cols for r in rows_cubes):
            raise WordstatsError(f"{where}: rows have different numbers of cells "
                                 f"({', '.join(str(len(r)) for r in rows_cubes)})")
    else:
        side = math.isqrt(n)
        if side * side != n:
            raise WordstatsError(f"{where}: {n} cells is not a square board; give its size with --size RxC")
        rows = cols = side
    check_size(rows, cols, where)
    if n != rows * cols:
        raise WordstatsError(f"{where}: {n} cells, a {rows}x{cols} board has {rows * cols}")
    return Board(rows, cols, "".join(cubes))


def parse_board_file(text: str, where: str) -> Board:
    """A board in the Princeton format: a line `rows cols`, then the cells separated by white space."""
    lines = text.splitlines()
    header = lines[0].split() if lines else []
    if len(header) != 2 or not all(h.isdigit() for h in header):
        raise WordstatsError(f"{where}: the first line must be 'rows cols', got {(lines[0] if lines else '')!r}")
    rows, cols = check_size(int(header[0]), int(header[1]), where)
    tokens = " ".join(lines[1:]).split()
    if len(tokens) != rows * cols:
        raise WordstatsError(f"{where}: {len(tokens)} cells, a {rows}x{cols} board has {rows * cols}")
    cubes = []
    for i, token in enumerate(tokens):
        cell = split_cubes(token, f"{where}: cell {i + 1}")
        if len(cell) != 1:
            raise WordstatsError(f"{where}: cell {i + 1} is {token!r}; a cell is one letter, Q or Qu")
        cubes.extend(cell)
    return Board(rows, cols, "".join(cubes))


def read_board_file(path: Path) -> Board:
    """A board from a Princeton-format file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise WordstatsError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: not a text file") from None
    return parse_board_file(text, str(path))


def load_board(arg: str, size: str | None = None) -> Board:
    """A board from a file name (Princeton format) or from its cells written out."""
    if not arg.strip():
        raise WordstatsError("empty board: give the cells in row order (PERSLATGSINETERS) or a board file")
    path = Path(arg)
    if path.is_file():
        return read_board_file(path)
    if path.is_dir():
        raise WordstatsError(f"{arg}: is a directory, not a board")
    if any(ch in arg for ch in "./\\"):
        raise WordstatsError(f"{arg}: no such board file (a board written out is letters only)")
    return parse_board(arg, size)


@functools.lru_cache(maxsize=None)
def neighbours(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's 8-connected neighbours (cells × 8, -1 padded) and their counts, for one grid size."""
    from pipeline import kernels

    return kernels.boggle_neighbours(rows, cols)


# ---- the dictionary -----------------------------------------------------------------------------

def formable(word: str) -> bool:
    """Whether Boggle cubes can spell the word: every Q is followed by U."""
    return "Q" not in word or word.count("Q") == word.count("QU")


def cube_spelling(word: str) -> str:
    """The word as the cubes spell it: QU becomes Q (the Qu cube)."""
    return word.replace("QU", "Q")


@dataclass(frozen=True)
class Dictionary:
    """The words a board can score under some rules, as a compact trie over cube spellings."""

    rules: Rules
    words: tuple[str, ...]  # usual spellings, indexed by word_at
    nodes: np.ndarray  # uint64 per node, see pack_nodes: child letters, points class, first child
    values: np.ndarray  # int32: the points of each points class (class 0 = no word, 0 points)
    points: np.ndarray  # int32: points of the word ending at the node, 0 when none
    rank: np.ndarray  # int32: the word's place, longest first then alphabetical (picks a board's longest word)
    word_at: np.ndarray  # int32: that word's index in `words`, -1 when none
    letter_weights: np.ndarray  # float64 cumulative counts of each cube letter in the words (+1 each)

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """(nodes, values, rank): what the kernels walk."""
        return self.nodes, self.values, self.rank

    @property
    def n_nodes(self) -> int:
        """Trie nodes, root included."""
        return int(self.nodes.shape[0])


MAX_POINT_VALUES = 63  # a node's points class has 6 bits, class 0 is "no word"


def pack_nodes(mask: np.ndarray, first: np.ndarray, points: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
    """Each trie node as one uint64 (its child letters in bits 0-25, the class of its points in bits 26-31,
    its first child in bits 32-63: what a step of the walk reads, in one load), and the points of each class."""
    values = np.unique(np.concatenate([[0], points])).astype(np.int32)
    if values.size > MAX_POINT_VALUES + 1 or values[0] < 0:
        raise WordstatsError(f"{where}: points must be at least 0 and take at most {MAX_POINT_VALUES} "
                             f"different values, got {values.size - 1} positive ones")
    classes = np.searchsorted(values, points).astype(np.uint64)
    nodes = mask.astype(np.uint64) | (classes << np.uint64(26)) | (first.astype(np.uint64) << np.uint64(32))
    return nodes, values


def compile_dictionary(words: Sequence[str], rules: Rules) -> Dictionary:
    """The Boggle dictionary of upper-case words under `rules`."""
    from pipeline import kernels
    from pipeline.trie import build_trie, encode

    kept = [w for w in words if len(w) >= rules.min_length and formable(w)]
    usual = {cube_spelling(w): w for w in kept}
    trie = build_trie(list(usual))
    mask, first, word_at = kernels.trie_compact(trie.children, trie.word_at)
    ordered = tuple(usual[s] for s in trie.words)
    lengths = np.fromiter(map(len, ordered), dtype=np.int32, count=len(ordered))
    table = np.array(rules.points, dtype=np.int32)
    word_points = np.where(lengths >= rules.min_length, table[np.minimum(lengths, len(table) - 1)], 0)
    has = word_at >= 0
    points = np.zeros(mask.shape[0], dtype=np.int32)
    points[has] = word_points[word_at[has]]
    word_rank = np.empty(len(ordered), dtype=np.int32)
    alphabetical = np.empty(len(ordered), dtype=np.int64)
    alphabetical[sorted(range(len(ordered)), key=ordered.__getitem__)] = np.arange(len(ordered))
    word_rank[np.lexsort((alphabetical, -lengths))] = np.arange(len(ordered), dtype=np.int32)
    rank = np.full(mask.shape[0], np.iinfo(np.int32).max, dtype=np.int32)
    rank[has] = word_rank[word_at[has]]
    codes, _ = encode(trie.words)
    letter_counts = np.bincount(codes, minlength=26).astype(np.float64) + 1.0  # every letter stays possible
    nodes, values = pack_nodes(mask, first, points, f"rules {rules.name!r}")
    return Dictionary(rules, ordered, nodes, values, points, rank, word_at, np.cumsum(letter_counts))


# ---- solving and scoring ------------------------------------------------------------------------

@dataclass(frozen=True)
class Found:
    """A word found on a board, its points and one path of cells spelling it."""

    word: str
    points: int
    path: tuple[int, ...] = ()


def solve(board: Board, dictionary: Dictionary, paths: bool = False) -> list[Found]:
    """Every word on the board with its points (and a path when asked), best first then alphabetical."""
    from pipeline import kernels

    grid = neighbours(board.rows, board.cols)
    nodes = kernels.boggle_solve(board.codes, *grid, *dictionary.arrays)
    found = []
    for node in nodes:
        word = dictionary.words[dictionary.word_at[node]]
        path = word_path(board, word) if paths else ()
        found.append(Found(word, int(dictionary.points[node]), path))
    return sorted(found, key=lambda f: (-f.points, f.word))


def word_path(board: Board, word: str) -> tuple[int, ...]:
    """One path of cells (row-order indices) spelling `word` on the board, or () when there is none."""
    target = cube_spelling(word)
    nbrs, ncount = neighbours(board.rows, board.cols)

    def extend(path: list[int]) -> bool:
        if len(path) == len(target):
            return True
        for nb in nbrs[path[-1], : ncount[path[-1]]]:
            if nb not in path and board.letters[nb] == target[len(path)]:
                path.append(int(nb))
                if extend(path):
                    return True
                path.pop()
        return False

    for cell, letter in enumerate(board.letters):
        path = [cell]
        if letter == target[0] and extend(path):
            return tuple(path)
    return ()


@dataclass(frozen=True)
class Scores:
    """Per-board results of scoring many boards, and per-node word counts when asked."""

    scores: np.ndarray  # int32
    n_words: np.ndarray  # int32
    longest: np.ndarray  # int32 node of the longest word (-1 when none)
    node_counts: np.ndarray  # int64 per trie node: boards containing the word ending there (empty if not asked)


def score_boards(boards: np.ndarray, rows: int, cols: int, dictionary: Dictionary,
                 count_words: bool = False) -> Scores:
    """Score boards (one per row, letter codes) of one grid size on all cores."""
    import numba

    from pipeline import kernels

    check_size(rows, cols, "boards")
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    chunks = max(1, min(numba.get_num_threads(), boards.shape[0]))
    scores, n_words, longest, counts = kernels.boggle_score_boards(
        boards, *neighbours(rows, cols), *dictionary.arrays, chunks, count_words)
    return Scores(scores, n_words, longest, counts)


def score(board: Board, dictionary: Dictionary) -> int:
    """The board's total score."""
    return int(score_boards(board.codes[None, :], board.rows, board.cols, dictionary).scores[0])


def board_texts(boards: np.ndarray) -> list[str]:
    """Boards given as letter-code rows, as strings of letters (Q for Qu)."""
    n_cells = boards.shape[1]
    raw = (np.ascontiguousarray(boards, dtype=np.int8).view(np.uint8) + np.uint8(65)).tobytes().decode("ascii")
    return [raw[i : i + n_cells] for i in range(0, len(raw), n_cells)]


# ---- random boards ------------------------------------------------------------------------------

def roll(dice: Dice, seed: int, count: int, start: int = 0) -> np.ndarray:
    """Boards start .. start+count-1 of the seeded sequence: the dice shuffled into the cells, each rolled."""
    from pipeline import kernels

    faces, n_faces = dice.arrays()
    return kernels.boggle_roll(faces, n_faces, dice.rows * dice.cols, seed, start, count)


def summarise(scores: np.ndarray, percentiles: Sequence[float]) -> dict:
    """Mean, standard deviation, percentiles, minimum and maximum of board scores."""
    values = np.asarray(scores, dtype=np.float64)
    if values.size == 0:
        return {"boards": 0}
    return {
        "boards": int(values.size),
        "mean": round(float(values.mean()), 4),
        "std": round(float(values.std(ddof=1)) if values.size > 1 else 0.0, 4),
        "min": int(values.min()),
        "max": int(values.max()),
        "percentiles": {f"p{p:02g}": round(float(np.percentile(values, p)), 4) for p in percentiles},
        "zero_share": round(float((values == 0).mean()), 6),
    }


def random_boards(dice: Dice, dictionary: Dictionary, seed: int, count: int,
                  chunk: int = 1_000_000, on_chunk: Callable[[int], None] | None = None):
    """Roll and score `count` boards in chunks; yields (boards, Scores) per chunk."""
    for start in range(0, count, chunk):
        n = min(chunk, count - start)
        boards = roll(dice, seed, n, start)
        result = score_boards(boards, dice.rows, dice.cols, dictionary)
        if on_chunk:
            on_chunk(n)
        yield boards, result


# ---- best-board search --------------------------------------------------------------------------

@dataclass(frozen=True)
class SearchParams:
    """Simulated annealing settings: steps per run and the temperature falling from t_start to t_end."""

    steps: int = 100_000
    t_start: float = 100.0
    t_end: float = 1.0


@dataclass(frozen=True)
class Run:
    """The best board of one annealing run."""

    run: int
    board: Board
    score: int


def anneal(dictionary: Dictionary, rows: int, cols: int, seed: int, first_run: int, n_runs: int,
           params: SearchParams, dice: Dice | None = None) -> list[Run]:
    """Seeded annealing runs first_run .. first_run+n_runs-1 on all cores (free letters, or rollable by `dice`)."""
    from pipeline import kernels

    check_size(rows, cols, "search")
    if dice is not None:
        if (dice.rows, dice.cols) != (rows, cols) and len(dice.faces) < rows * cols:
            raise WordstatsError(f"dice {dice.name!r} has {len(dice.faces)} dice, a {rows}x{cols} board needs "
                                 f"{rows * cols}")
        faces, n_faces = dice.arrays()
    else:
        faces, n_faces = np.zeros((0, 1), dtype=np.int8), np.zeros(0, dtype=np.int32)
    boards, scores = kernels.boggle_anneal(
        seed, first_run, n_runs, dice is None, dictionary.letter_weights, faces, n_faces, rows * cols,
        params.steps, params.t_start, params.t_end, *neighbours(rows, cols), *dictionary.arrays)
    return [Run(first_run + i, Board(rows, cols, text), int(s))
            for i, (text, s) in enumerate(zip(board_texts(boards), scores))]


def search(dictionary: Dictionary, rows: int, cols: int, seed: int, minutes: float, params: SearchParams,
           dice: Dice | None = None, target: int | None = None, runs_per_round: int | None = None,
           on_round: Callable[[int, Run, float], None] | None = None) -> dict:
    """Annealing runs in rounds (one run per core each) until `minutes` pass or `target` is reached.

    Returns the best run, when it was found (seconds since the start), and how much work was done.
    """
    import numba

    per_round = runs_per_round or numba.get_num_threads()
    started = time.perf_counter()
    best: Run | None = None
    found_after = 0.0
    rounds = 0
    while True:
        runs = anneal(dictionary, rows, cols, seed, rounds * per_round, per_round, params, dice)
        rounds += 1
        elapsed = time.perf_counter() - started
        top = max(runs, key=lambda r: (r.score, -r.run))
        if best is None or top.score > best.score:
            best, found_after = top, elapsed
        if on_round:
            on_round(rounds, best, elapsed)
        if (target is not None and best.score >= target) or elapsed >= minutes * 60:
            break
    return {"best": best, "seconds_to_best": round(found_after, 2), "seconds": round(elapsed, 2),
            "runs": rounds * per_round, "steps_per_run": params.steps,
            "evaluations": rounds * per_round * params.steps}


# ---- configuration ------------------------------------------------------------------------------

@dataclass(frozen=True)
class BestConfig:
    """The stage's best-board search: seed, runs per search, annealing settings, what to search."""

    seed: int
    runs: int
    params: SearchParams
    free: tuple[str, ...]  # grid sizes searched with free letters
    dice_sets: tuple[str, ...]  # dice sets whose rollable boards are searched


@dataclass(frozen=True)
class BoggleConfig:
    """The [boggle] section: rules per variant, dice sets, and the stage's sample sizes and seeds."""

    variants: dict[str, Rules]
    dice: dict[str, Dice]
    seed: int
    boards: int
    dice_sets: tuple[str, ...]
    percentiles: tuple[float, ...]
    best: BestConfig

    def rules(self, variant: str = "standard", min_length: int | None = None) -> Rules:
        """The rules of a variant, with the shortest word overridden when given."""
        if variant not in self.variants:
            raise WordstatsError(f"unknown Boggle variant {variant!r} (variants: {', '.join(self.variants)})")
        return self.variants[variant].with_min_length(min_length)

    def dice_set(self, name: str) -> Dice:
        """The dice set `name`."""
        if name not in self.dice:
            raise WordstatsError(f"unknown dice set {name!r} (dice sets: {', '.join(self.dice)})")
        return self.dice[name]


def dice_seed(seed: int, name: str) -> int:
    """The seed of the random boards of one dice set: the stage seed mixed with the set's name."""
    return seed ^ zlib.crc32(name.encode("utf-8"))


def _rules(name: str, sec: Section) -> Rules:
    """The rules of [boggle.variants.NAME], validated."""
    sec.allow("min_length", "points")
    min_length = sec.int("min_length", 3, lo=1)
    points = sec.list("points", of=int)
    if not points or any(p < 0 for p in points):
        sec.fail("points", "expected a non-empty list of points (each >= 0) by word length")
    if len(set(points) - {0}) > MAX_POINT_VALUES:
        sec.fail("points", f"at most {MAX_POINT_VALUES} different point values are supported")
    return Rules(name, min_length, tuple(points))


def _dice(name: str, sec: Section, variants: dict[str, Rules]) -> Dice:
    """The dice set [boggle.dice.NAME], validated against the variants."""
    sec.allow("size", "variant", "dice", "description")
    sec.str("description", "")
    try:
        rows, cols = parse_size(sec.str("size"))
    except WordstatsError as exc:
        sec.fail("size", str(exc))
    variant = sec.str("variant", "standard")
    if variant not in variants:
        sec.fail("variant", f"unknown variant {variant!r} (variants: {', '.join(variants)})")
    faces = sec.list("dice", of=str)
    for die in faces:
        if not die or not all("A" <= ch <= "Z" for ch in die):
            sec.fail("dice", f"die {die!r}: faces are upper-case letters A-Z (Q is the Qu face)")
    if len(faces) < rows * cols:
        sec.fail("dice", f"{len(faces)} dice cannot fill a {rows}x{cols} board")
    return Dice(name, rows, cols, variant, tuple(faces))


def boggle_config(config: Config) -> BoggleConfig:
    """The validated [boggle] section of a config."""
    sec = config.section("boggle")
    sec.allow("seed", "boards", "dice_sets", "percentiles", "variants", "dice", "best")
    variants = {name: _rules(name, s) for name, s in sec.sections("variants").items()}
    if "standard" not in variants:
        variants = {"standard": Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11)), **variants}
    dice = {name: _dice(name, s, variants) for name, s in sec.sections("dice").items()}
    dice_sets = tuple(sec.list("dice_sets", list(dice), of=str))
    for name in dice_sets:
        if name not in dice:
            sec.fail("dice_sets", f"unknown dice set {name!r} (dice sets: {', '.join(dice) or 'none'})")
    percentiles = sec.list("percentiles", [1, 5, 10, 25, 50, 75, 90, 95, 99], of=object)
    if any(isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 100 for p in percentiles):
        sec.fail("percentiles", "expected a list of numbers between 0 and 100")
    best_sec = sec.section("best", {})
    best_sec.allow("seed", "runs", "steps", "t_start", "t_end", "free", "dice_sets")
    t_start = best_sec.float("t_start", 100.0, lo=1e-6)
    best = BestConfig(
        seed=best_sec.int("seed", 7, lo=0),
        runs=best_sec.int("runs", 4, lo=1),
        params=SearchParams(best_sec.int("steps", 4000, lo=1, hi=2**31 - 2), t_start,
                            best_sec.float("t_end", 1.0, lo=1e-6, hi=t_start)),
        free=tuple(best_sec.list("free", ["4x4"], of=str)),
        dice_sets=tuple(best_sec.list("dice_sets", list(dice_sets), of=str)),
    )
    for size in best.free:
        try:
            parse_size(size)
        except WordstatsError as exc:
            best_sec.fail("free", str(exc))
    for name in best.dice_sets:
        if name not in dice:
            best_sec.fail("dice_sets", f"unknown dice set {name!r}")
    return BoggleConfig(variants, dice, sec.int("seed", 0, lo=0), sec.int("boards", 100_000, lo=1),
                        dice_sets, tuple(float(p) for p in percentiles), best)


# ---- the stage ----------------------------------------------------------------------------------

def params(config: Config, spec) -> dict:
    """The stage's parameters (recorded in provenance)."""
    bc = boggle_config(config)
    return {
        "seed": bc.seed,
        "boards": bc.boards,
        "dice_sets": {name: {"size": bc.dice[name].size, "variant": bc.dice[name].variant,
                             "dice": list(bc.dice[name].faces), "seed": dice_seed(bc.seed, name)}
                      for name in bc.dice_sets},
        "variants": {name: {"min_length": r.min_length, "points": list(r.points)} for name, r in bc.variants.items()},
        "percentiles": list(bc.percentiles),
        "best": {"seed": bc.best.seed, "runs": bc.best.runs, "steps": bc.best.params.steps,
                 "t_start": bc.best.params.t_start, "t_end": bc.best.params.t_end,
                 "free": list(bc.best.free), "dice_sets": list(bc.best.dice_sets)},
    }


def word_of_nodes(dictionary: Dictionary, nodes: np.ndarray) -> list[str | None]:
    """The word ending at each node (None for -1)."""
    return [dictionary.words[dictionary.word_at[n]] if n >= 0 else None for n in nodes.tolist()]


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """Random boards per dice set with their scores, per-word findability, a summary, and the best boards."""
    bc = boggle_config(ctx.config)
    words = inputs["words"]["word"].to_list()
    dictionaries: dict[str, Dictionary] = {}

    def dictionary_for(variant: str) -> Dictionary:
        if variant not in dictionaries:
            dictionaries[variant] = compile_dictionary(words, bc.rules(variant))
        return dictionaries[variant]

    board_frames, word_frames, summary = [], [], {}
    with ctx.progress.task("boggle: rolling and scoring random boards", total=len(bc.dice_sets)) as task:
        for name in bc.dice_sets:
            dice = bc.dice[name]
            dictionary = dictionary_for(dice.variant)
            seed = dice_seed(bc.seed, name)
            boards = roll(dice, seed, bc.boards)
            result = score_boards(boards, dice.rows, dice.cols, dictionary, count_words=True)
            board_frames.append(boards_frame(name, seed, boards, result, dictionary))
            word_frames.append(findability(name, words, dictionary, result.node_counts, bc.boards))
            summary[name] = dice_summary(dice, seed, bc, result, board_frames[-1], word_frames[-1])
            task.advance()
    best = best_boards(bc, dictionary_for, ctx.progress)
    return {
        "boggle_boards.parquet": pl.concat(board_frames),
        "boggle_words.parquet": pl.concat(word_frames).sort("dice", "word"),
        "boggle_summary.json": {"lexicon": ctx.lexicon, "boards_per_dice_set": bc.boards, "dice_sets": summary},
        "boggle_best.parquet": best,
    }


def boards_frame(name: str, seed: int, boards: np.ndarray, result: Scores, dictionary: Dictionary) -> pl.DataFrame:
    """One row per random board: its dice set, seed, index, letters, score, words and longest word."""
    n = boards.shape[0]
    return pl.DataFrame({
        "dice": pl.Series([name] * n, dtype=pl.String),
        "seed": pl.Series([seed] * n, dtype=pl.Int64),
        "index": pl.Series(np.arange(n, dtype=np.uint32)),
        "board": pl.Series(board_texts(boards), dtype=pl.String),
        "score": pl.Series(result.scores.astype(np.uint32)),
        "n_words": pl.Series(result.n_words.astype(np.uint32)),
        "longest": pl.Series(word_of_nodes(dictionary, result.longest), dtype=pl.String),
    })


def findability(name: str, words: list[str], dictionary: Dictionary, node_counts: np.ndarray,
                n_boards: int) -> pl.DataFrame:
    """For every word of the lexicon: its points, on how many random boards it was found, and the rates."""
    has = dictionary.word_at >= 0
    found = np.zeros(len(dictionary.words), dtype=np.int64)
    found[dictionary.word_at[has]] = node_counts[has]
    points = np.zeros(len(dictionary.words), dtype=np.int32)
    points[dictionary.word_at[has]] = dictionary.points[has]
    playable = pl.DataFrame({
        "word": pl.Series(dictionary.words, dtype=pl.String),
        "points": pl.Series(points.astype(np.uint8)),
        "boards_found": pl.Series(found.astype(np.uint32)),
    })
    return (
        pl.DataFrame({"word": pl.Series(words, dtype=pl.String)})
        .join(playable, on="word", how="left")
        .select(
            pl.col("word"),
            pl.lit(name, dtype=pl.String).alias("dice"),
            pl.col("points").fill_null(0),
            pl.col("boards_found").fill_null(0),
        )
        .with_columns((pl.col("boards_found").cast(pl.Float64) / n_boards).alias("find_rate"))
        .with_columns((pl.col("find_rate") * pl.col("points")).alias("expected_points"))
    )


def dice_summary(dice: Dice, seed: int, bc: BoggleConfig, result: Scores, boards: pl.DataFrame,
                 words: pl.DataFrame) -> dict:
    """Score statistics of one dice set's random boards, with its rules and the best board rolled."""
    rules = bc.variants[dice.variant]
    stats = summarise(result.scores, bc.percentiles)
    top = int(np.argmax(result.scores))
    return {
        "size": dice.size,
        "variant": dice.variant,
        "min_length": rules.min_length,
        "seed": seed,
        **stats,
        "max_board": boards["board"][top],
        "mean_words": round(float(result.n_words.mean()), 4),
        "distinct_words_found": int((words["boards_found"] > 0).sum()),
    }


def best_boards(bc: BoggleConfig, dictionary_for: Callable[[str], Dictionary], progress) -> pl.DataFrame:
    """The best board of each seeded annealing run, for free letters and for each dice set."""
    searches: list[tuple[str, Dice | None, int, int, str]] = []
    for size in bc.best.free:
        rows, cols = parse_size(size)
        searches.append((f"free {rows}x{cols}", None, rows, cols, "standard"))
    for name in bc.best.dice_sets:
        dice = bc.dice[name]
        searches.append((f"dice {name}", dice, dice.rows, dice.cols, dice.variant))
    rows_out = []
    with progress.task("boggle: best-board search", total=len(searches)) as task:
        for label, dice, rows, cols, variant in searches:
            dictionary = dictionary_for(variant)
            seed = dice_seed(bc.best.seed, label)
            runs = anneal(dictionary, rows, cols, seed, 0, bc.best.runs, bc.best.params, dice)
            n_words = score_boards(np.stack([r.board.codes for r in runs]), rows, cols, dictionary).n_words
            for r, w in zip(runs, n_words.tolist()):
                rows_out.append({"search": label, "dice": dice.name if dice else None, "size": f"{rows}x{cols}",
                                 "variant": variant, "seed": seed, "run": r.run, "board": r.board.letters,
                                 "score": r.score, "n_words": w})
            task.advance()
    schema = {"search": pl.String, "dice": pl.String, "size": pl.String, "variant": pl.String, "seed": pl.Int64,
              "run": pl.UInt32, "board": pl.String, "score": pl.UInt32, "n_words": pl.UInt32}
    return pl.DataFrame(rows_out, schema=schema).sort(["search", "score", "run"], descending=[False, True, False])


# ---- queries (the CLI's library side) -----------------------------------------------------------

def store_dictionary(store, rules: Rules) -> Dictionary:
    """The Boggle dictionary of a built lexicon's words."""
    return compile_dictionary(store.read("words", columns=["word"])["word"].to_list(), rules)


def solution(board: Board, dictionary: Dictionary, paths: bool = False) -> dict:
    """The board, its score and its words with points (and paths as [row, col] pairs when asked)."""
    found = solve(board, dictionary, paths)
    words = []
    for f in found:
        entry: dict = {"word": f.word, "points": f.points}
        if paths:
            entry["path"] = [[cell // board.cols, cell % board.cols] for cell in f.path]
        words.append(entry)
    return {"board": board.letters, "size": board.size, "score": sum(f.points for f in found), "words": words}


def random_summary(dice: Dice, dictionary: Dictionary, seed: int, count: int,
                   percentiles: Sequence[float], progress=None) -> dict:
    """Roll and score `count` boards in chunks: score statistics, the best board, and boards per second."""
    scores = np.empty(count, dtype=np.int32)
    best_board, best_score, done = "", -1, 0
    started = time.perf_counter()
    for boards, result in random_boards(dice, dictionary, seed, count, on_chunk=progress):
        scores[done : done + boards.shape[0]] = result.scores
        top = int(np.argmax(result.scores))
        if result.scores[top] > best_score:
            best_score, best_board = int(result.scores[top]), board_texts(boards[top : top + 1])[0]
        done += boards.shape[0]
    seconds = time.perf_counter() - started
    return {"dice": dice.name, "size": dice.size, "seed": seed, "min_length": dictionary.rules.min_length,
            **summarise(scores, percentiles), "max_board": best_board,
            "seconds": round(seconds, 3), "boards_per_second": round(count / seconds) if seconds > 0 else None}
