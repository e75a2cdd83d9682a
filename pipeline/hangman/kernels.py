"""Compiled (numba) kernel of the Hangman solver."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def distinct_letters(codes):
    """Each word's distinct letters in order of first occurrence (the first n_distinct of its row) and their
    number, for words `codes` (n, L) of letter codes 0-25."""
    n, length = codes.shape
    distinct = np.zeros((n, 26), dtype=np.int8)
    n_distinct = np.zeros(n, dtype=np.int64)
    for w in range(n):
        m = 0
        for i in range(length):
            c = codes[w, i]
            if not (m >> c) & 1:
                m |= 1 << c
                distinct[w, n_distinct[w]] = c
                n_distinct[w] += 1
    return distinct, n_distinct


@njit(cache=True)
def best_letter(members, lo, hi, distinct, n_distinct, weights, guessed, mass):
    """The guess among candidates members[lo:hi]: the letter not in bit mask `guessed` whose candidates carry the
    most weight, ties to the first letter; -1 when none carries weight. `mass` (26,) int64 is scratch space."""
    mass[:] = 0
    for k in range(lo, hi):
        w = members[k]
        for j in range(n_distinct[w]):
            mass[distinct[w, j]] += weights[w]
    best, best_mass = -1, 0
    for c in range(26):
        if mass[c] > best_mass and not (guessed >> c) & 1:
            best, best_mass = c, mass[c]
    return best


@njit(cache=True)
def hangman_game(codes, distinct, n_distinct, weights, secret):
    """Misses and guesses of the solver's one game against word `secret` (a row of `codes`, words of one length):
    the same guesser as hangman_solve, with its int64 `weights` (a learning guesser's, new each game), walking
    only the secret's path. `distinct` and `n_distinct` are distinct_letters(codes)."""
    n, length = codes.shape
    alive = np.arange(n)
    count, guessed, misses, guesses = n, 0, 0, 0
    mass = np.zeros(26, dtype=np.int64)
    while count > 1:
        best = best_letter(alive, 0, count, distinct, n_distinct, weights, guessed, mass)
        if best < 0:  # no unguessed letter carries weight: the secret is known
            break
        guessed |= 1 << best
        guesses += 1
        hit = False
        for i in range(length):
            if codes[secret, i] == best:
                hit = True
        if not hit:
            misses += 1
        kept = 0
        for k in range(count):  # keep the candidates with the guessed letter where the secret has it
            w = alive[k]
            same = True
            for i in range(length):
                if (codes[w, i] == best) != (codes[secret, i] == best):
                    same = False
                    break
            if same:
                alive[kept] = w
                kept += 1
        count = kept
    return misses, guesses


@njit(cache=True)
def hangman_solve(codes, weights):
    """Misses, guesses and guessed letters of the Hangman solver against every word of one length.

    `codes` (n, L ≤ 63) holds distinct words as letter codes 0-25; `weights` (n,) int64 is the setter's
    prior (all 1 for the reference solver). The solver guesses the unguessed letter whose candidates carry
    the most weight (the least weight of a miss), ties to the first letter; the candidates then split by
    where that letter occurs. All words of the length walk the decision tree together.
    """
    n, length = codes.shape
    distinct, n_distinct = distinct_letters(codes)
    misses = np.zeros(n, dtype=np.int32)
    guesses = np.zeros(n, dtype=np.int32)
    sequence = np.full((n, 26), -1, dtype=np.int8)
    order = np.arange(n)
    keys = np.zeros(n, dtype=np.int64)
    path = np.zeros(26, dtype=np.int8)
    mass = np.zeros(26, dtype=np.int64)
    # pending nodes of the decision tree: disjoint segments order[lo:hi], so at most n of them
    stack_lo = np.zeros(n + 1, dtype=np.int64)
    stack_hi = np.zeros(n + 1, dtype=np.int64)
    stack_depth = np.zeros(n + 1, dtype=np.int64)
    stack_misses = np.zeros(n + 1, dtype=np.int64)
    stack_guessed = np.zeros(n + 1, dtype=np.int64)
    top = 0
    if n > 0:
        stack_hi[0] = n
        top = 1
    while top > 0:
        top -= 1
        lo, hi, depth = stack_lo[top], stack_hi[top], stack_depth[top]
        missed, guessed = stack_misses[top], stack_guessed[top]
        best = -1
        if hi - lo > 1:
            best = best_letter(order, lo, hi, distinct, n_distinct, weights, guessed, mass)
        if best < 0:  # solved (one candidate left)
            for k in range(lo, hi):
                w = order[k]
                misses[w] = missed
                guesses[w] = depth
                for d in range(depth):
                    sequence[w, d] = path[d]
            continue
        path[depth] = best
        for k in range(lo, hi):
            w = order[k]
            key = 0
            for i in range(length):
                if codes[w, i] == best:
                    key |= 1 << i
            keys[k] = key
        if hi - lo <= 32:  # small segment: insertion sort by key
            for k in range(lo + 1, hi):
                key, w = keys[k], order[k]
                j = k - 1
                while j >= lo and keys[j] > key:
                    keys[j + 1], order[j + 1] = keys[j], order[j]
                    j -= 1
                keys[j + 1], order[j + 1] = key, w
        else:
            by_key = np.argsort(keys[lo:hi])
            order[lo:hi] = order[lo:hi][by_key]
            keys[lo:hi] = keys[lo:hi][by_key]
        start = lo
        for k in range(lo + 1, hi + 1):
            if k == hi or keys[k] != keys[start]:
                stack_lo[top], stack_hi[top], stack_depth[top] = start, k, depth + 1
                stack_misses[top] = missed + (1 if keys[start] == 0 else 0)
                stack_guessed[top] = guessed | (1 << best)
                top += 1
                start = k
    return misses, guesses, sequence
