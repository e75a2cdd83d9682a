"""Seeded random streams (splitmix64) and dice rolled into boards: board k of a sequence uses stream k, so any
range of boards is the same however it is split."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

_U64 = np.uint64
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _next_random(state):
    """splitmix64: the next state and a 64-bit random number."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
    return state, z ^ (z >> _U64(31))


@njit(cache=True, inline="always")
def stream(seed, index):
    """The starting state of random stream `index` under `seed`."""
    state, z = _next_random(_U64(seed) ^ (_U64(index) * _GOLDEN))
    state, z2 = _next_random(state ^ z)
    return z2


@njit(cache=True, inline="always")
def below(state, n):
    """The next state and a random integer in [0, n)."""
    state, z = _next_random(state)
    return state, np.int64(z % _U64(n))


@njit(cache=True, inline="always")
def uniform(state):
    """The next state and a random float in [0, 1)."""
    state, z = _next_random(state)
    return state, np.float64(z >> _U64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def roll_into(faces, n_faces, state, out, perm):
    """Shuffle the dice into the cells and roll each one; returns the new random state."""
    n_dice = faces.shape[0]
    for i in range(n_dice):
        perm[i] = i
    for i in range(n_dice - 1, 0, -1):  # Fisher-Yates
        state, j = below(state, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    for cell in range(out.shape[0]):
        die = perm[cell]
        state, f = below(state, n_faces[die])
        out[cell] = faces[die, f]
    return state


@njit(cache=True, parallel=True)
def boggle_roll(faces, n_faces, n_cells, seed, start, count):
    """Boards start .. start+count-1 of the random sequence `seed`: board k uses random stream k."""
    boards = np.empty((count, n_cells), dtype=np.int8)
    for k in prange(count):
        perm = np.empty(faces.shape[0], dtype=np.int32)
        roll_into(faces, n_faces, stream(seed, start + k), boards[k], perm)
    return boards
