"""The adversary: the most misses an evil setter, free to change the word while it stays consistent with every
answer, forces on the best guesser (minimax, by a search with a budget, memoised as the exact search)."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.hangman.optimal_kernels.layout import ABORTED, EXPANDED, FREE, INFINITY, LIMIT, NO_LETTER
from pipeline.hangman.optimal_kernels.sets import (
    letter_stats,
    memo_find,
    memo_put,
    pair_letter,
    pair_value,
    partition,
    peeling_letter,
    peeling_value,
    set_key,
)


@njit(cache=True)
def minimax_bound(ids, words, memo):
    """A lower bound of the minimax value of `ids`: the memo's, else (after the free splits) the all-miss path's
    length while two words are left, or a peeling group's size less one; exact for a set that only peels."""
    pos, wt = words.pos, words.wt
    m = ids.shape[0]
    if m <= 1:
        return np.int64(0)
    if m == 2:
        return np.int64(0) if pair_value(ids[0], ids[1], pos, wt) == 0 else np.int64(1)
    k1, k2 = set_key(ids, words.z1, words.z2)
    slot = memo_find(memo, k1, k2)
    if slot >= 0:
        return max(memo[2][slot], np.int64(0))
    held, count, splits = words.held, words.count, words.splits
    letter_stats(ids, pos, words.wt, words.distinct, held, count, splits)
    peels = True
    for c in range(26):
        if splits[c] and count[c] == m:
            out = np.empty(m, dtype=np.int32)
            starts = np.empty(m + 1, dtype=np.int64)
            classes = partition(ids, c, pos, out, starts, words.answers)
            bound = np.int64(0)
            for j in range(classes):
                bound = max(bound, minimax_bound(out[starts[j] : starts[j + 1]], words, memo))
            return bound
        if splits[c] and count[c] > 1:
            peels = False
    if peels and peeling_value(ids, pos, wt, words.distinct, count) >= 0:
        memo_put(memo, k1, k2, m - 1, m - 1, m, NO_LETTER)
        return np.int64(m - 1)
    hits = words.keys
    n = 0
    for c in range(26):  # the letters' hit counts, largest first
        if splits[c]:
            h = count[c]
            j = n
            while j > 0 and hits[j - 1] < h:
                hits[j] = hits[j - 1]
                j -= 1
            hits[j] = h
            n += 1
    bound, left = np.int64(0), m
    for r in range(n):
        if left <= 1:
            break
        left -= hits[r]
        if left <= 0:
            break
        bound += 1
    groups, tally = words.groups, words.tally
    for p in range(groups.shape[1]):
        for k in range(m):
            g = groups[ids[k], p]
            if g >= 0:
                tally[g] += 1
                bound = max(bound, tally[g] - 1)
        for k in range(m):
            g = groups[ids[k], p]
            if g >= 0:
                tally[g] = 0
    memo_put(memo, k1, k2, bound, INFINITY, m, NO_LETTER)
    return bound


@njit(cache=True)
def minimax(ids, budget, words, memo, work):
    """The minimax value of `ids` (the least, over strategies, of the most misses any word costs) when it is at
    most `budget`, else a lower bound above `budget`; ABORTED at the work limit, as solve()."""
    pos = words.pos
    m = ids.shape[0]
    if m <= 2:
        return minimax_bound(ids, words, memo)
    k1, k2 = set_key(ids, words.z1, words.z2)
    slot = memo_find(memo, k1, k2)
    low = minimax_bound(ids, words, memo)
    high = INFINITY
    if slot >= 0:
        high = memo[3][slot]
    if low == high or low > budget:
        return low
    if work[EXPANDED] >= work[LIMIT]:
        return ABORTED
    work[EXPANDED] += 1
    held = np.empty(26, dtype=np.int64)
    count = np.empty(26, dtype=np.int64)
    splits = np.empty(26, dtype=np.bool_)
    letter_stats(ids, pos, words.wt, words.distinct, held, count, splits)
    letters = np.empty(26, dtype=np.int64)
    n_letters = 0
    for c in range(26):
        if splits[c]:
            if count[c] == m:
                letters[0] = c
                n_letters = 1
                break
            letters[n_letters] = c
            n_letters += 1
    free = count[letters[0]] == m
    parts = np.empty((n_letters, m), dtype=np.int32)
    starts = np.empty((n_letters, m + 1), dtype=np.int64)
    n_classes = np.empty(n_letters, dtype=np.int64)
    bound = np.empty(n_letters, dtype=np.int64)
    for j in range(n_letters):
        c = letters[j]
        n_classes[j] = partition(ids, c, pos, parts[j], starts[j], words.answers)
        b = np.int64(0)
        for k in range(n_classes[j]):
            part = parts[j, starts[j, k] : starts[j, k + 1]]
            missed = 1 if pos[part[0], c] == 0 else 0
            b = max(b, missed + minimax_bound(part, words, memo))
        bound[j] = b
    order = np.argsort(bound, kind="mergesort")
    best, best_letter = INFINITY, NO_LETTER
    for jj in range(n_letters):
        j = order[jj]
        cap = min(budget, best - 1)
        if bound[j] > cap:
            continue
        c = letters[j]
        value = np.int64(0)
        for k in range(n_classes[j]):  # every class must stay within the cap
            part = parts[j, starts[j, k] : starts[j, k + 1]]
            missed = 1 if pos[part[0], c] == 0 else 0
            got = minimax(part, cap - missed, words, memo, work)
            if got == ABORTED:
                return ABORTED
            value = max(value, missed + got)
            if value > cap:
                break
        if value <= cap:
            best, best_letter = value, c
        else:
            bound[j] = value
    if best <= budget:
        memo_put(memo, k1, k2, best, best, m, best_letter + (FREE if free else 0))
        return best
    low = INFINITY
    for j in range(n_letters):
        low = min(low, bound[j])
    memo_put(memo, k1, k2, low, INFINITY, m, NO_LETTER)
    return low


@njit(cache=True)
def minimax_letter(ids, words, memo, work):
    """The letter the minimax strategy guesses at `ids` (searching again when the memo lost it)."""
    pos, wt, distinct = words.pos, words.wt, words.distinct
    if ids.shape[0] == 2:
        return pair_letter(ids[0], ids[1], pos, wt)
    held = np.empty(26, dtype=np.int64)
    count = np.empty(26, dtype=np.int64)
    splits = np.empty(26, dtype=np.bool_)
    letter_stats(ids, pos, wt, distinct, held, count, splits)
    peels = True
    for c in range(26):
        if splits[c] and count[c] > 1:
            peels = False
    if peels and peeling_value(ids, pos, wt, distinct, count) >= 0:
        return peeling_letter(ids, pos, wt, distinct, count)
    k1, k2 = set_key(ids, words.z1, words.z2)
    for _ in range(2):
        slot = memo_find(memo, k1, k2)
        if slot >= 0 and max(memo[2][slot], np.int64(0)) == memo[3][slot] and memo[5][slot] >= 0:
            letter = np.int64(memo[5][slot])
            return letter - FREE if letter >= FREE else letter
        minimax(ids, INFINITY - 1, words, memo, work)
    return -1


@njit(cache=True)
def minimax_play(ids, words, memo, work, missed, misses):
    """Play the minimax strategy against every word of `ids`: each word's misses."""
    pos = words.pos
    m = ids.shape[0]
    if m == 1:
        misses[ids[0]] = missed
        return
    c = minimax_letter(ids, words, memo, work)
    out = np.empty(m, dtype=np.int32)
    starts = np.empty(m + 1, dtype=np.int64)
    classes = partition(ids, c, pos, out, starts, words.answers)
    for k in range(classes):
        part = out[starts[k] : starts[k + 1]]
        minimax_play(part, words, memo, work, missed + (1 if pos[part[0], c] == 0 else 0), misses)
