"""Compiled (numba) kernels of the exact Hangman search: the fewest expected misses over every strategy.

A state is the set of candidates still consistent with the game (the letters already guessed never split it
again, so the set alone is the state). Its value f(S) is the least total weight of misses a strategy needs
to identify any word of S: 0 for one word; else the least, over letters c that split S, of the weight of the
words without c plus the values of the classes c's positions make. The search is depth first with a budget
(it returns f(S) when f(S) <= budget, else a lower bound above the budget), memoised on a 128-bit hash of
the set with both bounds known for it, and prunes with lower bounds (the all-miss path, groups that only
peel) and upper bounds (the greedy strategy).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

INFINITY = np.int64(1) << np.int64(62)
PROBE = 8  # slots of the memo looked at for a key before the smallest state among them is replaced
GREEDY_FROM = 20  # sets this large get the greedy strategy's value as their first upper bound
FREE = 26  # a state's best letter is stored + FREE when every candidate holds it (no miss, no choice)
NO_LETTER = -1
ABORTED = -2  # what an unfinished search returns
EXPANDED, LIMIT = 0, 1  # the work counters: states expanded so far, and the most allowed
UNKNOWN = -1  # the lower bound of a state recorded for its upper bound alone
DISTINCT_KEYS = 32  # a partition sorts by counting up to this many answers, else by argsort

# The words of one length as the kernels see them, with scratch space for the bounds (never used by two calls
# at once: a bound is computed whole before the search goes deeper).
Words = namedtuple(
    "Words",
    [
        "pos",  # (n, 26) int64: where each letter sits in each word, as a bit mask (0: absent)
        "wt",  # (n,) int64: each word's weight
        "distinct",  # (n, 27) int8: each word's distinct letters, then -1
        "groups",  # (n, length) int64: the peeling group of each word at each position, or -1
        "z1",  # (n,) uint64: the random keys whose sums hash a set
        "z2",
        "uniform",  # bool: all weights equal
        "tally",  # (groups + 1,) int64 scratch, kept all zero
        "held",  # (26,) int64 scratch
        "count",  # (26,) int64 scratch
        "splits",  # (26,) bool scratch
        "keys",  # (n,) int64 scratch
        "members",  # (n,) int64 scratch
        "buffer",  # (n,) int64 scratch
        "answers",  # (3 * DISTINCT_KEYS + 1,) int64 scratch of partition()
    ],
)


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


# ---- the adversary: the most misses an evil setter, free to change the word, forces on the best guesser ----


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
