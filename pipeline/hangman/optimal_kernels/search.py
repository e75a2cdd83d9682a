"""The exact search for the fewest expected misses (see the package's docstring), and the play of the strategy it
found against every word."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.hangman.optimal_kernels.bounds import chain_bound, greedy_value, group_bound, quick_bound
from pipeline.hangman.optimal_kernels.layout import ABORTED, EXPANDED, FREE, GREEDY_FROM, INFINITY, LIMIT, NO_LETTER
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
def solve(ids, budget, words, memo, work):
    """f(ids) when it is at most `budget`, else a lower bound of f(ids) above `budget`; ABORTED when the
    states expanded reach work[LIMIT] (nothing is recorded from an unfinished search, so the memo stays true).
    work[EXPANDED] counts the states expanded."""
    pos, wt, distinct, z1, z2 = words.pos, words.wt, words.distinct, words.z1, words.z2
    m = ids.shape[0]
    if m <= 1:
        return np.int64(0)
    if m == 2:
        return pair_value(ids[0], ids[1], pos, wt)
    k1, k2 = set_key(ids, z1, z2)
    slot = memo_find(memo, k1, k2)
    low, high = np.int64(0), INFINITY
    if slot >= 0:
        low, high = max(memo[2][slot], np.int64(0)), memo[3][slot]
        if low == high or low > budget:
            return low
    if work[EXPANDED] >= work[LIMIT]:
        return ABORTED
    work[EXPANDED] += 1
    held = np.empty(26, dtype=np.int64)
    count = np.empty(26, dtype=np.int64)
    splits = np.empty(26, dtype=np.bool_)
    letter_stats(ids, pos, wt, distinct, held, count, splits)
    total, heaviest = np.int64(0), np.int64(0)
    for k in range(m):
        total += wt[ids[k]]
        heaviest = max(heaviest, wt[ids[k]])
    letters = np.empty(26, dtype=np.int64)
    n_letters = 0
    peels = True
    for c in range(26):
        if splits[c]:
            if count[c] == m:  # a free letter: guessing it now costs nothing and loses nothing
                letters[0] = c
                n_letters = 1
                peels = False
                break
            letters[n_letters] = c
            n_letters += 1
            if count[c] > 1:
                peels = False
    if peels:
        value = peeling_value(ids, pos, wt, distinct, count)
        if value >= 0:
            memo_put(memo, k1, k2, value, value, m, NO_LETTER)
            return value
    free = count[letters[0]] == m
    if not free:
        low = max(low, chain_bound(total, heaviest, held, splits, words.keys), group_bound(ids, words))
        if low > budget:
            memo_put(memo, k1, k2, low, INFINITY, m, NO_LETTER)
            return low
        if high == INFINITY and (m >= GREEDY_FROM or budget >= INFINITY - 1):
            high = greedy_value(ids, words, memo)
    parts = np.empty((n_letters, m), dtype=np.int32)
    starts = np.empty((n_letters, m + 1), dtype=np.int64)
    n_classes = np.empty(n_letters, dtype=np.int64)
    lows = np.empty((n_letters, m), dtype=np.int64)
    bound = np.empty(n_letters, dtype=np.int64)
    for j in range(n_letters):
        c = letters[j]
        n_classes[j] = partition(ids, c, pos, parts[j], starts[j], words.answers)
        b = total - held[c]
        for k in range(n_classes[j]):
            lows[j, k] = quick_bound(parts[j, starts[j, k] : starts[j, k + 1]], words, memo)
            b += lows[j, k]
        bound[j] = b
    order = np.argsort(bound, kind="mergesort")
    best, best_letter = high, NO_LETTER  # a strategy of cost `high` is known: the greedy one, if any
    if high < INFINITY:
        for c in range(26):
            if splits[c] and (best_letter < 0 or held[c] > held[best_letter]):
                best_letter = c
    sizes = np.empty(m, dtype=np.int64)
    solved = np.empty(m, dtype=np.bool_)
    for jj in range(n_letters):
        j = order[jj]
        cap = min(budget, best - 1)
        if bound[j] > cap:
            continue
        # the letter's classes, largest first, in rounds: each unsolved class gets its share of the slack
        classes = n_classes[j]
        for k in range(classes):
            sizes[k] = starts[j, k] - starts[j, k + 1]
            solved[k] = sizes[k] > -2
        value = total - held[letters[j]]
        rest = bound[j] - value
        by_size = np.argsort(sizes[:classes], kind="mergesort")
        while value + rest <= cap:
            unsolved = 0
            for k in range(classes):
                if not solved[k]:
                    unsolved -= sizes[k]
            if unsolved == 0:
                break
            for k in by_size:
                if solved[k]:
                    continue
                slack = cap - value - rest
                share = min(slack, np.int64(slack * (-sizes[k] / unsolved)))
                unsolved += sizes[k]
                part = parts[j, starts[j, k] : starts[j, k + 1]]
                got = solve(part, lows[j, k] + share, words, memo, work)
                if got == ABORTED:
                    return ABORTED
                solved[k] = got <= lows[j, k] + share
                rest += got - lows[j, k]
                lows[j, k] = got
                if value + rest > cap:
                    break
        value += rest
        rest = 0
        if value + rest <= cap:
            best, best_letter = value, letters[j]
        else:
            bound[j] = value + rest
    if best <= budget:  # every other letter's bound is at least best
        memo_put(memo, k1, k2, best, best, m, best_letter + (FREE if free and best_letter >= 0 else 0))
        return best
    low = INFINITY
    for j in range(n_letters):
        low = min(low, bound[j])
    memo_put(memo, k1, k2, low, INFINITY, m, NO_LETTER)
    return low


@njit(cache=True)
def best_letter(ids, words, memo, work):
    """The letter an optimal strategy guesses at `ids` (searching again when the memo lost it)."""
    pos, wt, distinct, z1, z2 = words.pos, words.wt, words.distinct, words.z1, words.z2
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
    k1, k2 = set_key(ids, z1, z2)
    for _ in range(2):
        slot = memo_find(memo, k1, k2)
        if slot >= 0 and max(memo[2][slot], 0) == memo[3][slot] and memo[5][slot] >= 0:
            letter = np.int64(memo[5][slot])
            return letter - FREE if letter >= FREE else letter
        solve(ids, INFINITY - 1, words, memo, work)
    return -1


@njit(cache=True)
def play_out(ids, words, memo, work, missed, depth, path, misses, guesses, sequences):
    """Play the optimal strategy found against every word of `ids` from here: each word's misses, guesses and
    guessed letters."""
    pos = words.pos
    m = ids.shape[0]
    if m == 1:
        i = ids[0]
        misses[i], guesses[i] = missed, depth
        for d in range(depth):
            sequences[i, d] = path[d]
        return
    c = best_letter(ids, words, memo, work)
    path[depth] = c
    out = np.empty(m, dtype=np.int32)
    starts = np.empty(m + 1, dtype=np.int64)
    classes = partition(ids, c, pos, out, starts, words.answers)
    for k in range(classes):
        part = out[starts[k] : starts[k + 1]]
        play_out(
            part,
            words,
            memo,
            work,
            missed + (1 if pos[part[0], c] == 0 else 0),
            depth + 1,
            path,
            misses,
            guesses,
            sequences,
        )
