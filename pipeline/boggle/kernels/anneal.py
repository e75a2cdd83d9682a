"""Simulated annealing for high-scoring boards: seeded runs on all threads, free letters or dice."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from pipeline.boggle.kernels.rolls import below, roll_into, stream, uniform
from pipeline.boggle.kernels.solve import board_dfs, board_scratch

STOP_CHECK = 256  # an annealing run reads its stop flag once every this many steps (a few milliseconds)


class Cubes(NamedTuple):
    """What a cell may show: any letter, drawn with the dictionary's weights (free), or a face of one of the dice."""

    free: bool  # free letters (cumulative is read) or dice (faces and n_faces are read)
    cumulative: np.ndarray  # float64 (26,): cumulative letter weights (Dictionary.letter_weights)
    faces: np.ndarray  # int8 (dice, longest die): each die's faces as letter codes, padded (Dice.arrays)
    n_faces: np.ndarray  # int32 (dice,): each die's number of faces


class Grid(NamedTuple):
    """The board's cells and each one's neighbours (rules.neighbours)."""

    n_cells: int
    nbrs: np.ndarray  # int32 (cells, 8): each cell's 8-connected neighbours, -1 padded
    ncount: np.ndarray  # int32 (cells,): how many each cell has


class Trie(NamedTuple):
    """The dictionary as the board walk reads it (Dictionary.arrays): packed nodes, class points, word ranks."""

    nodes: np.ndarray  # uint64 (nodes,): child letters, points class, first child
    values: np.ndarray  # int32 (classes,): the points of each points class
    rank: np.ndarray  # int32 (nodes,): the place of the word ending at each node, longest first


class Schedule(NamedTuple):
    """How long a run anneals: its steps, and the temperature falling geometrically from t_start to t_end."""

    steps: int
    t_start: float
    t_end: float


@njit(cache=True, inline="always")
def _pick_letter(state, cumulative):
    """The next state and a letter code drawn with the given cumulative weights."""
    state, u = uniform(state)
    target = u * cumulative[cumulative.shape[0] - 1]
    letter = 0
    while letter < cumulative.shape[0] - 1 and cumulative[letter] <= target:
        letter += 1
    return state, letter


@njit(cache=True)
def _anneal_one(state, cubes, grid, trie, schedule, mark, scratch, best, stop):
    """One simulated-annealing run from a random start; writes the best board into `best`, returns its score and
    the steps it made (fewer than the schedule's when `stop[0]` was set meanwhile: it is read every STOP_CHECK
    steps)."""
    free, cumulative, faces, n_faces = cubes
    n_cells, nbrs, ncount = grid
    nodes, values, rank = trie
    steps, t_start, t_end = schedule
    none = np.empty(0, dtype=np.int32)
    board = np.empty(n_cells, dtype=np.int8)
    n_dice = faces.shape[0]
    perm = np.empty(max(n_dice, 1), dtype=np.int32)
    face_of = np.zeros(max(n_dice, 1), dtype=np.int32)
    if free:
        for cell in range(n_cells):
            state, letter = _pick_letter(state, cumulative)
            board[cell] = letter
    else:
        state = roll_into(faces, n_faces, state, board, perm)
        for cell in range(n_cells):  # recover which face each placed die shows
            die = perm[cell]
            for f in range(n_faces[die]):
                if faces[die, f] == board[cell]:
                    face_of[die] = f
                    break
    stamp = 1
    mark[:] = 0
    current, _, _ = board_dfs(board, nbrs, ncount, nodes, values, rank, mark, stamp, none, scratch)
    best[:] = board
    best_score = current
    ratio = (t_end / t_start) ** (1.0 / max(steps - 1, 1))
    t = t_start
    done = steps
    for step in range(steps):
        if step % STOP_CHECK == STOP_CHECK - 1 and stop[0] != 0:
            done = step
            break
        # propose: kind 0 = change one cell's letter (free) or die face (dice), 1 = swap two cells
        state, kind = below(state, 2)
        state, a = below(state, n_cells)
        b = a
        old_a = board[a]
        old_face = 0
        swapped_out = -1
        if kind == 0:
            if free:
                state, letter = _pick_letter(state, cumulative)
                if letter == old_a:
                    continue
                board[a] = letter
            else:
                die = perm[a]
                if n_dice > n_cells:  # sometimes trade the die for one off the board
                    state, other = below(state, n_dice)
                    if other >= n_cells:
                        swapped_out = other
                        perm[a] = perm[other]
                        perm[other] = die
                        die = perm[a]
                old_face = face_of[die]
                state, f = below(state, n_faces[die])
                face_of[die] = f
                board[a] = faces[die, f]
                if board[a] == old_a and swapped_out < 0:
                    face_of[die] = old_face
                    continue
        else:
            state, b = below(state, n_cells)
            if board[a] == board[b]:
                continue
            board[a] = board[b]
            board[b] = old_a
            if not free:
                t_ = perm[a]
                perm[a] = perm[b]
                perm[b] = t_
        stamp += 1
        if stamp == 2147483647:
            mark[:] = 0
            stamp = 1
        score, _, _ = board_dfs(board, nbrs, ncount, nodes, values, rank, mark, stamp, none, scratch)
        delta = score - current
        accept = delta >= 0
        if not accept:
            state, u = uniform(state)
            accept = u < np.exp(delta / t)
        if accept:
            current = score
            if score > best_score:
                best_score = score
                best[:] = board
        else:  # undo
            if kind == 0:
                board[a] = old_a
                if not free:
                    die = perm[a]
                    face_of[die] = old_face
                    if swapped_out >= 0:
                        perm[a] = perm[swapped_out]
                        perm[swapped_out] = die
            else:
                board[b] = board[a]
                board[a] = old_a
                if not free:
                    t_ = perm[a]
                    perm[a] = perm[b]
                    perm[b] = t_
        t *= ratio
    return best_score, done


@njit(cache=True, parallel=True, nogil=True)
def boggle_anneal(seed, first_run, n_runs, cubes, grid, trie, schedule, stop):
    """Runs first_run .. first_run+n_runs-1 of seeded simulated annealing, on all threads: best boards, scores
    and steps made. Another thread may set stop[0] (the GIL is released) to end every run within STOP_CHECK
    steps."""
    boards = np.empty((n_runs, grid.n_cells), dtype=np.int8)
    scores = np.zeros(n_runs, dtype=np.int32)
    made = np.zeros(n_runs, dtype=np.int64)
    for r in prange(n_runs):
        mark = np.zeros(trie.nodes.shape[0], dtype=np.int32)
        scratch = board_scratch(grid.n_cells, trie.nodes, trie.values)
        scores[r], made[r] = _anneal_one(
            stream(seed, first_run + r), cubes, grid, trie, schedule, mark, scratch, boards[r], stop
        )
    return boards, scores, made
