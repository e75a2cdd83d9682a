"""The exact search's constants and the words of one length as its kernels see them (one layout, read by every
file of the cache unit)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

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
