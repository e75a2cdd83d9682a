"""Numba kernels of equity play: leave keys, leave-value look-ups, and the move of highest equity among a
rack's plays (gaddag_kernels' play records) and exchanges.

A leave is 27 tile counts (A-Z, then blanks). Its key is the number whose base-RADIX digits are its tile
codes + 1 in ascending order, the first tile the lowest digit (leaves.py computes the same keys in numpy);
leave values are held as a sorted key array and a value array beside it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RADIX = 28  # 27 tile codes + 1 (a digit 0 ends the key)
BLANK_SLOT = 26
# The play record's fields (as gaddag_kernels defines them; numba freezes constants, so they are named here).
PLAY_SCORE, PLAY_LEN, PLAY_BLANKS, PLAY_PLACED, PLAY_LETTERS = 0, 4, 5, 6, 7
NO_PLAY = -1  # best_move's answer when an exchange (or nothing) beats every play


@njit(cache=True)
def leave_key(counts):
    """The key of a leave given as 27 tile counts."""
    key, weight = 0, 1
    for code in range(27):
        for _ in range(counts[code]):
            key += (code + 1) * weight
            weight *= RADIX
    return key


@njit(cache=True)
def leave_value(keys, values, counts, most):
    """The value of a leave: 0 for the empty leave and for leaves of more than `most` tiles or not in the
    table."""
    n = 0
    for code in range(27):
        n += counts[code]
    if n == 0 or n > most:
        return 0.0
    key = leave_key(counts)
    at = np.searchsorted(keys, key)
    if at < keys.shape[0] and keys[at] == key:
        return values[at]
    return 0.0


@njit(cache=True)
def play_leave(record, rack, left):
    """The tiles a play record leaves on `rack`, written into `left` (27 counts)."""
    left[:] = rack
    for k in range(record[PLAY_LEN]):
        if (record[PLAY_PLACED] >> k) & 1:
            if (record[PLAY_BLANKS] >> k) & 1:
                left[BLANK_SLOT] -= 1
            else:
                left[record[PLAY_LETTERS + k]] -= 1


@njit(cache=True)
def best_move(records, n, rack, keys, values, most, weight, exchange, kept):
    """The move of highest equity (score + weight * leave value) among the first n play records and, when
    `exchange`, every exchange (score 0; the tiles kept are any smaller sub-multiset of the rack). Ties go
    to the higher score, then to the earlier record; a play beats an exchange of equal equity. Returns the
    record's index, or NO_PLAY with the tiles an exchange keeps in `kept` (all zero when there is no move);
    the equity is the second value."""
    left = np.zeros(27, dtype=np.int64)
    best, best_equity, best_score = NO_PLAY, -1e300, -1
    for i in range(n):
        play_leave(records[i], rack, left)
        score = records[i, PLAY_SCORE]
        equity = score + weight * leave_value(keys, values, left, most)
        if equity > best_equity or (equity == best_equity and score > best_score):
            best, best_equity, best_score = i, equity, score
    kept[:] = 0
    if not exchange:
        return best, best_equity
    held = 0
    for code in range(27):
        held += rack[code]
    # every sub-multiset of the rack, as a mixed-radix counter over its tile counts
    trial = np.zeros(27, dtype=np.int64)
    while True:
        size = 0
        for code in range(27):
            size += trial[code]
        if size < held:
            equity = weight * leave_value(keys, values, trial, most)
            if equity > best_equity:
                best, best_equity = NO_PLAY, equity
                kept[:] = trial
        code = 0
        while code < 27 and trial[code] == rack[code]:
            trial[code] = 0
            code += 1
        if code == 27:
            break
        trial[code] += 1
    return best, best_equity
