"""Boggle's numba kernels, one cache unit of several files (pipeline.core.cache_units): bits (the CPU's bit
instructions), nodes (the packed trie node's layout, trie compaction), solve (the board walk: one board, many
boards), rolls (seeded random streams, dice rolled into boards), anneal (simulated annealing for the best
boards), and the proof's numba kernels, the reference its C kernels are tested against: prove (a class's word
paths and their orderly tree) and breaking (the tree broken into boards). Their kernels call each other's and read
the node layout of nodes.py; every function here is cached under a stamp of all of the unit's files, so an edit of
any one recompiles them all. A kernel outside the unit never calls one inside it.

(Importing any module of the unit declares it, before its functions are compiled or read from the cache.)"""

from __future__ import annotations

from pathlib import Path

from pipeline.core.cache_units import declare_unit

UNIT = declare_unit(Path(__file__).parent)
