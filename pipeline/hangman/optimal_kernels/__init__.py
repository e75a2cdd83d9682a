"""Compiled (numba) kernels of the exact Hangman search (the fewest expected misses over every strategy) and of
the adversary's minimax: one numba cache unit of several files (pipeline/core/cache_units.py), whose kernels call
each other's across the files; the constants they read are named once, in layout.py.

A state is the set of candidates still consistent with the game (the letters already guessed never split it
again, so the set alone is the state). Its value f(S) is the least total weight of misses a strategy needs
to identify any word of S: 0 for one word; else the least, over letters c that split S, of the weight of the
words without c plus the values of the classes c's positions make. The search is depth first with a budget
(it returns f(S) when f(S) <= budget, else a lower bound above the budget), memoised on a 128-bit hash of
the set with both bounds known for it, and prunes with lower bounds (the all-miss path, groups that only
peel) and upper bounds (the greedy strategy).

files: layout (constants, the Words tuple), sets (the memo, letter statistics, partitions, sets of known value),
bounds (lower bounds, the greedy upper bound), search (the exact search and its play), adversary (the minimax).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.core.cache_units import declare_unit

UNIT = declare_unit(Path(__file__).parent)
