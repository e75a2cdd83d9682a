"""The Boggle kernels for one-off commands (`boggle solve`, `boggle score`) and dictionary builds: the C extension
pipeline.boggle._native (pipeline/boggle/native/, built by `make install`), so those commands start without
importing numba. Each function here takes the numba kernel's arguments and gives its results; where the kernel
returns new arrays, they are allocated here and the C function fills them. Jobs over many boards call the numba
kernels directly (they run in parallel)."""

from __future__ import annotations

from functools import cache
from types import ModuleType

import numpy as np

from pipeline.core import native


class Kernels:
    """The Boggle solver's kernels and packed node layout, under the numba kernels' names."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.NODE_CLASS_SHIFT: int = module.NODE_CLASS_SHIFT
        self.NODE_FIRST_SHIFT: int = module.NODE_FIRST_SHIFT

    def trie_node_count(self, codes: np.ndarray, offsets: np.ndarray) -> int:
        """Distinct prefixes (root included) of sorted words given as letter codes with offsets."""
        return self.module.trie_node_count(codes, offsets)

    def trie_fill(self, codes: np.ndarray, offsets: np.ndarray, n_nodes: int, alphabet: int):
        """Children table (n_nodes × alphabet, -1 = none) and the word index ending at each node (-1 = none)."""
        children = np.empty((n_nodes, alphabet), dtype=np.int32)
        word_at = np.empty(n_nodes, dtype=np.int32)
        self.module.trie_fill(codes, offsets, children, word_at)
        return children, word_at

    def trie_compact(self, children: np.ndarray, word_at: np.ndarray):
        """A trie's children table as (mask, first, word_at) in breadth-first order, children of a node adjacent."""
        n = len(children)
        mask, first, out_word = np.empty(n, np.uint32), np.empty(n, np.int32), np.empty(n, np.int32)
        self.module.trie_compact(children, word_at, mask, first, out_word)
        return mask, first, out_word

    def boggle_neighbours(self, rows: int, cols: int):
        """Each cell's neighbours (8-connected) in a rows × cols grid, and how many it has."""
        n = max(rows, 0) * max(cols, 0)
        nbrs, ncount = np.empty((n, 8), dtype=np.int32), np.empty(n, dtype=np.int32)
        self.module.boggle_neighbours(rows, cols, nbrs, ncount)
        return nbrs, ncount

    def boggle_solve(self, board, nbrs, ncount, nodes, values, rank) -> np.ndarray:
        """The word nodes found on one board, in order of discovery."""
        found = np.empty(len(nodes), dtype=np.int32)
        words = self.module.boggle_solve(board, nbrs, ncount, nodes, values, rank, found)
        return found[:words].copy()


@cache
def kernels() -> Kernels:
    """The Boggle kernels of the compiled extension; a one-line error naming the fix when it is stale or missing."""
    return Kernels(native.load("pipeline.boggle"))
