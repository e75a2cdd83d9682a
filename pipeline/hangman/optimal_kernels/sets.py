"""The exact search's sets of candidates: the memo of states keyed by a hash of the set, the letters'
statistics in a set, its partition by a letter's answers, and the sets whose value is known outright (two words, sets
that only peel)."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.hangman.optimal_kernels.layout import DISTINCT_KEYS, PROBE


@njit(cache=True)
def new_memo(bits):
    """An empty memo of 2**bits slots: key halves, lower and upper bound, set size (0: empty), best letter."""
    size = 1 << bits
    return (
        np.zeros(size, dtype=np.uint64),
        np.zeros(size, dtype=np.uint64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int32),
        np.zeros(size, dtype=np.int8),
    )


@njit(cache=True)
def memo_find(memo, k1, k2):
    """The slot holding key (k1, k2), or -1."""
    keys1, keys2, _, _, sizes, _ = memo
    mask = keys1.shape[0] - 1
    at = np.int64(k1 & np.uint64(mask))
    for j in range(PROBE):
        slot = (at + j) & mask
        if sizes[slot] == 0:
            return -1
        if keys1[slot] == k1 and keys2[slot] == k2:
            return slot
    return -1


@njit(cache=True)
def memo_put(memo, k1, k2, low, high, size, letter):
    """Record what is known of a state: its bounds only ever tighten (the letter goes with the upper bound)."""
    keys1, keys2, lows, highs, sizes, letters = memo
    mask = keys1.shape[0] - 1
    at = np.int64(k1 & np.uint64(mask))
    victim, victim_size = -1, np.int64(1) << np.int64(40)
    for j in range(PROBE):
        slot = (at + j) & mask
        if sizes[slot] == 0:
            victim = slot
            break
        if keys1[slot] == k1 and keys2[slot] == k2:
            lows[slot] = max(lows[slot], low)
            if high < highs[slot]:
                highs[slot], letters[slot] = high, letter
            return
        if sizes[slot] < victim_size:
            victim, victim_size = slot, sizes[slot]
    keys1[victim], keys2[victim], lows[victim], highs[victim] = k1, k2, low, high
    sizes[victim], letters[victim] = size, letter


@njit(cache=True)
def set_key(ids, z1, z2):
    """The 128-bit key of a set of word ids: sums of two random 64-bit keys per word."""
    k1, k2 = np.uint64(0), np.uint64(0)
    for i in ids:
        k1 += z1[i]
        k2 += z2[i]
    return k1, k2


@njit(cache=True)
def letter_stats(ids, pos, wt, distinct, held, count, splits):
    """Per letter: the weight and number of the words holding it, and whether it splits the set (some words
    lack it, or its positions differ)."""
    held[:] = 0
    count[:] = 0
    splits[:] = False
    first = ids[0]
    for k in range(ids.shape[0]):
        i = ids[k]
        for j in range(26):
            c = distinct[i, j]
            if c < 0:
                break
            held[c] += wt[i]
            count[c] += 1
            if pos[i, c] != pos[first, c]:
                splits[c] = True
    m = ids.shape[0]
    for c in range(26):
        if 0 < count[c] < m:
            splits[c] = True


@njit(cache=True)
def peeling_value(ids, pos, wt, distinct, count):
    """f of a set in which every splitting letter is held by one word (each guess peels one word off and misses
    the rest): heaviest first, a word without a letter of its own last; -1 when two words lack one."""
    m = ids.shape[0]
    weights = np.empty(m, dtype=np.int64)
    peeled, last = 0, np.int64(-1)
    for k in range(m):
        i = ids[k]
        own = False
        for j in range(26):
            c = distinct[i, j]
            if c < 0:
                break
            if count[c] == 1:
                own = True
                break
        if own:
            weights[peeled] = wt[i]
            peeled += 1
        elif last >= 0:
            return np.int64(-1)
        else:
            last = wt[i]
    order = np.sort(weights[:peeled])
    value = np.int64(0)
    for r in range(peeled):
        value += order[peeled - 1 - r] * r
    if last >= 0:
        value += last * (m - 1)
    return value


@njit(cache=True)
def partition(ids, c, pos, out, starts, answers):
    """`ids` grouped by the positions of letter c into `out` (misses first, the order of `ids` kept within a
    class); returns the number of classes, whose bounds are starts[0..classes]. `answers` is scratch of
    3 * DISTINCT_KEYS + 1."""
    m = ids.shape[0]
    sizes = answers[DISTINCT_KEYS : 2 * DISTINCT_KEYS]
    at = answers[2 * DISTINCT_KEYS : 3 * DISTINCT_KEYS]
    n = 0
    for k in range(m):
        key = pos[ids[k], c]
        j = 0
        while j < n and answers[j] != key:
            j += 1
        if j == n:
            if n == DISTINCT_KEYS:
                return partition_sorted(ids, c, pos, out, starts)
            answers[n] = key
            sizes[n] = 0
            n += 1
        sizes[j] += 1
    starts[0] = 0
    for r in range(n):  # the classes in the order of their answers: at[j] = the rank of answer j
        rank = 0
        for j in range(n):
            if answers[j] < answers[r]:
                rank += 1
        at[r] = rank
    for r in range(n):  # starts by rank
        starts[at[r] + 1] = sizes[r]
    for r in range(n):
        starts[r + 1] += starts[r]
    for r in range(n):
        at[r] = starts[at[r]]
    for k in range(m):
        key = pos[ids[k], c]
        j = 0
        while answers[j] != key:
            j += 1
        out[at[j]] = ids[k]
        at[j] += 1
    return n


@njit(cache=True)
def partition_sorted(ids, c, pos, out, starts):
    """partition() for many answers: by a stable sort."""
    m = ids.shape[0]
    keys = np.empty(m, dtype=np.int64)
    for k in range(m):
        keys[k] = pos[ids[k], c]
    order = np.argsort(keys, kind="mergesort")
    for k in range(m):
        out[k] = ids[order[k]]
    classes = 0
    starts[0] = 0
    for k in range(1, m + 1):
        if k == m or keys[order[k]] != keys[order[k - 1]]:
            classes += 1
            starts[classes] = k
    return classes


@njit(cache=True)
def pair_value(a, b, pos, wt):
    """f of two words: 0 when a letter of both sits at different places, else the lighter word's weight."""
    for c in range(26):
        if pos[a, c] != 0 and pos[b, c] != 0 and pos[a, c] != pos[b, c]:
            return np.int64(0)
    return min(wt[a], wt[b])


@njit(cache=True)
def pair_letter(a, b, pos, wt):
    """The letter that settles two words: one both hold at different places, else the heavier word's first
    letter the other lacks (the first word's when they weigh the same)."""
    for c in range(26):
        if pos[a, c] != 0 and pos[b, c] != 0 and pos[a, c] != pos[b, c]:
            return c
    heavy, light = (b, a) if wt[b] > wt[a] else (a, b)
    for c in range(26):
        if pos[heavy, c] != 0 and pos[light, c] == 0:
            return c
    return -1


@njit(cache=True)
def peeling_letter(ids, pos, wt, distinct, count):
    """The letter a set that only peels guesses next: the first letter of its own of the heaviest word that
    has one (the first such word on ties)."""
    best, letter = -1, -1
    for k in range(ids.shape[0]):
        i = ids[k]
        for j in range(26):
            c = distinct[i, j]
            if c < 0:
                break
            if count[c] == 1:
                if best < 0 or wt[i] > wt[best]:
                    best, letter = i, c
                break
    return letter
