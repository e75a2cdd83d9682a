"""Solve and score Boggle boards with the compiled kernel."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.boggle.dictionary import Dictionary, cube_spelling
from pipeline.boggle.rules import Board, check_size, neighbours
from pipeline.letters.alphabet import A_CODE

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Found:
    """A word found on a board, its points and one path of cells spelling it."""

    word: str
    points: int
    path: tuple[int, ...] = ()


def solve(board: Board, dictionary: Dictionary, paths: bool = False) -> list[Found]:
    """Every word on the board with its points (and a path when asked), best first then alphabetical."""
    from pipeline.boggle.engine import kernels

    grid = kernels().grid(board.rows, board.cols)
    nodes = kernels().found_nodes(board.cells, *grid, *dictionary.arrays)
    found = []
    for node in nodes:
        word = dictionary.words[dictionary.word_at[node]]
        path = word_path(board, word) if paths else ()
        found.append(Found(word, int(dictionary.points[node]), path))
    return sorted(found, key=lambda f: (-f.points, f.word))


def word_path(board: Board, word: str) -> tuple[int, ...]:
    """One path of cells (row-order indices) spelling `word` on the board, or () when there is none."""
    target = cube_spelling(word)
    from pipeline.boggle.engine import kernels

    nbrs, ncount = kernels().grid(board.rows, board.cols)

    def extend(path: list[int]) -> bool:
        """Whether `path` (cells spelling the target's start) extends to the whole target."""
        if len(path) == len(target):
            return True
        cell = path[-1]
        for nb in (nbrs[cell, k] for k in range(ncount[cell])):
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


def score_boards(boards: np.ndarray, rows: int, cols: int, dictionary: Dictionary, count_words: bool = False) -> Scores:
    """Score boards (one per row, letter codes) of one grid size on all cores."""
    import numba
    import numpy as np

    from pipeline.boggle.kernels.solve import boggle_score_boards

    check_size(rows, cols, "boards")
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    chunks = max(1, min(numba.get_num_threads(), boards.shape[0]))
    scores, n_words, longest, counts = boggle_score_boards(
        boards, *neighbours(rows, cols), *dictionary.arrays, chunks, count_words
    )
    return Scores(scores, n_words, longest, counts)


def score(board: Board, dictionary: Dictionary) -> int:
    """The board's total score (the points of the words solve finds)."""
    return sum(f.points for f in solve(board, dictionary))


def board_texts(boards: np.ndarray) -> list[str]:
    """Boards given as letter-code rows, as strings of letters (Q for Qu)."""
    import numpy as np

    n_cells = boards.shape[1]
    raw = (np.ascontiguousarray(boards, dtype=np.int8).view(np.uint8) + np.uint8(A_CODE)).tobytes().decode("ascii")
    return [raw[i : i + n_cells] for i in range(0, len(raw), n_cells)]
