"""Bounds on a set's value f(S) (the least total miss weight of a strategy): lower bounds from the all-miss path
and the groups that only peel, and the greedy strategy's value as an upper bound."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.hangman.optimal_kernels.layout import FREE, INFINITY, NO_LETTER, UNKNOWN
from pipeline.hangman.optimal_kernels.sets import (
    letter_stats,
    memo_find,
    memo_put,
    pair_value,
    partition,
    peeling_value,
    set_key,
)


@njit(cache=True)
def chain_bound(total, heaviest, held, splits, hits):
    """A lower bound from the all-miss path: after i guesses the words holding none of them (weight at least
    total minus the i heaviest letters' weights) have missed i times, while two or more words are left.
    `hits` is scratch of 26."""
    n = 0
    for c in range(26):
        if splits[c]:
            h = held[c]
            j = n
            while j > 0 and hits[j - 1] < h:  # heaviest first
                hits[j] = hits[j - 1]
                j -= 1
            hits[j] = h
            n += 1
    bound, left = np.int64(0), total
    for r in range(n):
        if left <= heaviest:  # at most one word may be left: the path may have ended
            break
        left -= hits[r]
        if left <= 0:
            break
        bound += left
    return bound


@njit(cache=True)
def group_bound(ids, words):
    """A lower bound from groups that only peel: words alike but for one position, whose letter there they
    hold nowhere else; any strategy peels such a group's words one by one, each peel a miss for the rest of
    them (heaviest first at best). The best position's groups."""
    groups, tally, wt = words.groups, words.tally, words.wt
    m = ids.shape[0]
    best = np.int64(0)
    for p in range(groups.shape[1]):
        for k in range(m):
            g = groups[ids[k], p]
            if g >= 0:
                tally[g] += 1
        bound = np.int64(0)
        if words.uniform:
            for k in range(m):
                g = groups[ids[k], p]
                if g >= 0 and tally[g] > 1:
                    bound += tally[g] * (tally[g] - 1) // 2
                    tally[g] = 0  # counted
            bound *= wt[ids[0]]
        else:
            bound = weighted_groups(ids, p, words)
        for k in range(m):
            g = groups[ids[k], p]
            if g >= 0:
                tally[g] = 0
        best = max(best, bound)
    return best


@njit(cache=True)
def weighted_groups(ids, p, words):
    """The peeling groups' bound at position p with weights: within each group, heaviest first."""
    groups, tally, wt, keys, members = words.groups, words.tally, words.wt, words.keys, words.members
    n = 0
    for k in range(ids.shape[0]):
        g = groups[ids[k], p]
        if g >= 0 and tally[g] > 1:
            keys[n] = g
            members[n] = wt[ids[k]]
            n += 1
    if n == 0:
        return np.int64(0)
    order = np.argsort(keys[:n], kind="mergesort")
    weights = words.buffer
    bound = np.int64(0)
    start = 0
    for r in range(1, n + 1):
        if r == n or keys[order[r]] != keys[order[start]]:
            size = r - start
            for t in range(size):
                weights[t] = members[order[start + t]]
            ranked = np.sort(weights[:size])
            for t in range(size):
                bound += ranked[size - 1 - t] * t
            start = r
    return bound


@njit(cache=True)
def quick_bound(ids, words, memo):
    """A lower bound of f(ids): the memo's, else (after the free splits) the all-miss path's or the peeling
    groups', or the exact value of a set that only peels."""
    pos, wt = words.pos, words.wt
    m = ids.shape[0]
    if m <= 1:
        return np.int64(0)
    if m == 2:
        return pair_value(ids[0], ids[1], pos, wt)
    k1, k2 = set_key(ids, words.z1, words.z2)
    slot = memo_find(memo, k1, k2)
    if slot >= 0 and memo[2][slot] != UNKNOWN:
        return memo[2][slot]
    held, count, splits = words.held, words.count, words.splits
    letter_stats(ids, pos, wt, words.distinct, held, count, splits)
    total, heaviest = np.int64(0), np.int64(0)
    for k in range(m):
        total += wt[ids[k]]
        heaviest = max(heaviest, wt[ids[k]])
    peels = True
    for c in range(26):
        if splits[c] and count[c] == m:  # every candidate holds c: the classes' bounds add up
            out = np.empty(m, dtype=np.int32)
            starts = np.empty(m + 1, dtype=np.int64)
            classes = partition(ids, c, pos, out, starts, words.answers)
            bound = np.int64(0)
            for j in range(classes):
                bound += quick_bound(out[starts[j] : starts[j + 1]], words, memo)
            return bound
        if splits[c] and count[c] > 1:
            peels = False
    if peels:
        value = peeling_value(ids, pos, wt, words.distinct, count)
        if value >= 0:
            memo_put(memo, k1, k2, value, value, m, NO_LETTER)
            return value
    bound = chain_bound(total, heaviest, held, splits, words.keys)
    bound = max(bound, group_bound(ids, words))
    memo_put(memo, k1, k2, bound, INFINITY, m, NO_LETTER)
    return bound


@njit(cache=True)
def greedy_value(ids, words, memo):
    """An upper bound of f(ids): the memo's, else the greedy strategy's total miss weight (the letter held by
    the most weight first, ties to the first letter), recorded for every state it passes."""
    pos, wt, distinct, z1, z2 = words.pos, words.wt, words.distinct, words.z1, words.z2
    m = ids.shape[0]
    if m <= 1:
        return np.int64(0)
    if m == 2:
        return pair_value(ids[0], ids[1], pos, wt)
    k1, k2 = set_key(ids, z1, z2)
    slot = memo_find(memo, k1, k2)
    if slot >= 0 and memo[3][slot] < INFINITY:
        return memo[3][slot]
    held = np.empty(26, dtype=np.int64)
    count = np.empty(26, dtype=np.int64)
    splits = np.empty(26, dtype=np.bool_)
    letter_stats(ids, pos, wt, distinct, held, count, splits)
    total = np.int64(0)
    for k in range(m):
        total += wt[ids[k]]
    best = -1
    for c in range(26):
        if splits[c] and (best < 0 or held[c] > held[best]):
            best = c
    out = np.empty(m, dtype=np.int32)
    starts = np.empty(m + 1, dtype=np.int64)
    classes = partition(ids, best, pos, out, starts, words.answers)
    value = total - held[best]
    for j in range(classes):
        value += greedy_value(out[starts[j] : starts[j + 1]], words, memo)
    memo_put(memo, k1, k2, UNKNOWN, value, m, best + (FREE if count[best] == m else 0))
    return value
