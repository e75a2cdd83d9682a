"""Equity in the kernels: leave keys, leave-value look-ups, and the move of highest equity (score plus the value of
the tiles kept) among a rack's plays and exchanges. Leave values are held as a sorted key array and a value
array beside it (the equity wing's LeaveValues)."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.layout import (
    BLANK_SLOT,
    MAX_LEAVE,
    NO_BOUND,
    NO_PLAY,
    PLAY_BLANKS,
    PLAY_COL,
    PLAY_DIR,
    PLAY_LEN,
    PLAY_LETTERS,
    PLAY_PLACED,
    PLAY_ROW,
    PLAY_SCORE,
    RADIX,
    Keeping,
    N,
)


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
def take_tiles(record, rack):
    """Take the tiles a play record places off `rack` (27 counts, in place)."""
    for k in range(record[PLAY_LEN]):
        if (record[PLAY_PLACED] >> k) & 1:
            if (record[PLAY_BLANKS] >> k) & 1:
                rack[BLANK_SLOT] -= 1
            else:
                rack[record[PLAY_LETTERS + k]] -= 1


@njit(cache=True)
def play_leave(record, rack, left):
    """The tiles a play record leaves on `rack`, written into `left` (27 counts)."""
    left[:] = rack
    take_tiles(record, left)


@njit(cache=True)
def earlier(a, b):
    """Whether record a comes before record b in the reference generator's order (movegen.tables.generation_order:
    across first, then by line, start square, and letter by letter, a letter before its blank and a word
    before its extensions)."""
    if a[PLAY_DIR] != b[PLAY_DIR]:
        return a[PLAY_DIR] < b[PLAY_DIR]
    across = a[PLAY_DIR] == 0
    line_a, line_b = (a[PLAY_ROW], b[PLAY_ROW]) if across else (a[PLAY_COL], b[PLAY_COL])
    if line_a != line_b:
        return line_a < line_b
    start_a, start_b = (a[PLAY_COL], b[PLAY_COL]) if across else (a[PLAY_ROW], b[PLAY_ROW])
    if start_a != start_b:
        return start_a < start_b
    for k in range(N):
        code_a = 2 * a[PLAY_LETTERS + k] + ((a[PLAY_BLANKS] >> k) & 1) if a[PLAY_LETTERS + k] >= 0 else -1
        code_b = 2 * b[PLAY_LETTERS + k] + ((b[PLAY_BLANKS] >> k) & 1) if b[PLAY_LETTERS + k] >= 0 else -1
        if code_a != code_b:
            return code_a < code_b
    return False


@njit(cache=True)
def text_char(counts, at):
    """The character code of position `at` of a leave's text (letters sorted, then ? for blanks), -1 past
    its end."""
    for code in range(26):
        if at < counts[code]:
            return 65 + code
        at -= counts[code]
    return 63 if at < counts[BLANK_SLOT] else -1


@njit(cache=True)
def text_before(x, y):
    """Whether leave x's text sorts before leave y's (as Python compares strings)."""
    for at in range(8):
        cx, cy = text_char(x, at), text_char(y, at)
        if cx != cy:
            return cx < cy
    return False


@njit(cache=True)
def best_move(records, n, rack, keys, values, most, weight, exchange, kept):
    """The move of highest equity (score + weight * leave value) among the first n play records and, when
    `exchange`, every exchange (score 0; the tiles kept are any smaller sub-multiset of the rack). Ties go
    to the higher score, then to the record the reference generator makes first; a play beats an exchange
    of equal equity, and of equal exchanges the first in the order of their kept tiles' text. Returns the
    record's index, or NO_PLAY with the tiles an exchange keeps in `kept` (all zero when there is no move);
    the equity is the second value."""
    left = np.zeros(27, dtype=np.int64)
    best, best_equity, best_score = NO_PLAY, -1e300, -1
    for i in range(n):
        play_leave(records[i], rack, left)
        score = records[i, PLAY_SCORE]
        equity = score + weight * leave_value(keys, values, left, most)
        if (
            equity > best_equity
            or (equity == best_equity and score > best_score)
            or (equity == best_equity and score == best_score and earlier(records[i], records[best]))
        ):
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
            if equity > best_equity or (equity == best_equity and best == NO_PLAY and text_before(trial, kept)):
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


@njit(cache=True)
def rack_keeping(rack, keys, values, letter_values, keep, kept):
    """The Keeping of a search for the `keep` best plays by equity (score + leave value, by the leave values
    keys / values) of a rack: its leaves numbered, their values and sizes, the letter values of the tiles placed
    to keep each (letter_values; blanks 0), the best value after each number of tiles placed, and the best
    exchange as the floor (a play must reach it: a play beats an exchange of equal equity), whose kept tiles are
    written into `kept` (of equal exchanges, the first in the order of their kept tiles' text, as best_move)."""
    n_kinds = 0
    for code in range(27):
        if rack[code] > 0:
            n_kinds += 1
    kinds = np.empty(n_kinds, dtype=np.int64)
    weights = np.empty(n_kinds, dtype=np.int64)
    held, total, k = 0, 1, 0
    for code in range(27):
        if rack[code] > 0:
            kinds[k], weights[k] = code, total
            total *= rack[code] + 1
            held += rack[code]
            k += 1
    worth = np.empty(total, dtype=np.float64)
    sizes = np.empty(total, dtype=np.int64)
    spent = np.zeros((total, held), dtype=np.int64)
    caps = np.full(N + 1, NO_BOUND, dtype=np.float64)
    trial = np.zeros(27, dtype=np.int64)
    kept[:] = 0
    floor = NO_BOUND
    size = 0
    for at in range(total):  # every sub-multiset, the first kind counting fastest (its number is `at`)
        value = leave_value(keys, values, trial, np.int64(MAX_LEAVE))
        worth[at], sizes[at] = value, size
        spent_values(rack, trial, letter_values, spent[at])
        if value > caps[held - size]:
            caps[held - size] = value
        if size < held and (value > floor or (value == floor and text_before(trial, kept))):
            floor = value
            kept[:] = trial
        k = 0
        while k < n_kinds and trial[kinds[k]] == rack[kinds[k]]:
            size -= trial[kinds[k]]
            trial[kinds[k]] = 0
            k += 1
        if k < n_kinds:
            trial[kinds[k]] += 1
            size += 1
    return Keeping(True, kinds, weights, worth, sizes, spent, caps, floor, np.zeros(keep, dtype=np.float64))


@njit(cache=True)
def spent_values(rack, leave, letter_values, out):
    """The letter values of the tiles of `rack` not in `leave`, highest first, into `out` (blanks 0)."""
    n = 0
    for code in range(26):
        for _ in range(rack[code] - leave[code]):
            v = letter_values[code]
            i = n
            while i > 0 and out[i - 1] < v:
                out[i] = out[i - 1]
                i -= 1
            out[i] = v
            n += 1
