"""The Boggle kernels of one-off commands (`boggle solve`, `boggle score`), dictionary builds and the proof (`boggle
prove`, its shards on any engine): the C extension pipeline.boggle._native (pipeline/boggle/native/, built by `make
install`), so those commands and the proof's worker processes start without importing numba. Each function here
takes the numba kernel's arguments and gives its results; where the kernel returns new arrays, they are allocated
here and the C function fills them. Where the numba kernel grows an array it was given (word paths, the tree's
arena), the C function reports how much it needs and is called again with a longer one: it never changes what
lies below the tip it was given, so the result is the same. Jobs over many random boards call the numba kernels
directly (they run in parallel)."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from pipeline.core import native
from pipeline.core.buffers import zeros

if TYPE_CHECKING:
    import numpy as np


class Kernels:
    """The Boggle solver's kernels and packed node layout, under the numba kernels' names."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.NODE_CLASS_SHIFT: int = module.NODE_CLASS_SHIFT
        self.NODE_FIRST_SHIFT: int = module.NODE_FIRST_SHIFT
        # the proof's arena records (pipeline/boggle/native/proof.h)
        self.POINTS: int = module.POINTS
        self.BOUND: int = module.BOUND
        self.COUNT: int = module.COUNT
        self.KIDS: int = module.KIDS
        self.POS: int = module.POS
        self.MASK: int = module.MASK
        self.INTERNED: int = module.INTERNED
        self.WC_SHIFT: int = module.WC_SHIFT
        self.MAX_SLOTS: int = module.MAX_SLOTS

    def trie_node_count(self, codes: np.ndarray, offsets: np.ndarray) -> int:
        """Distinct prefixes (root included) of sorted words given as letter codes with offsets."""
        return self.module.trie_node_count(codes, offsets)

    def trie_fill(self, codes: np.ndarray, offsets: np.ndarray, n_nodes: int, alphabet: int):
        """Children table (n_nodes × alphabet, -1 = none) and the word index ending at each node (-1 = none)."""
        import numpy as np

        children = np.empty((n_nodes, alphabet), dtype=np.int32)
        word_at = np.empty(n_nodes, dtype=np.int32)
        self.module.trie_fill(codes, offsets, children, word_at)
        return children, word_at

    def trie_compact(self, children: np.ndarray, word_at: np.ndarray):
        """A trie's children table as (mask, first, word_at) in breadth-first order, children of a node adjacent."""
        import numpy as np

        n = len(children)
        mask, first, out_word = np.empty(n, np.uint32), np.empty(n, np.int32), np.empty(n, np.int32)
        self.module.trie_compact(children, word_at, mask, first, out_word)
        return mask, first, out_word

    def grid(self, rows: int, cols: int):
        """`boggle_neighbours` as buffers, without numpy (a grid of no cells, which no 2-d buffer holds, as arrays)."""
        n = max(rows, 0) * max(cols, 0)
        if n == 0:
            return self.boggle_neighbours(rows, cols)
        nbrs, ncount = zeros("i", n, 8), zeros("i", n)
        self.module.boggle_neighbours(rows, cols, nbrs, ncount)
        return nbrs, ncount

    def boggle_neighbours(self, rows: int, cols: int):
        """Each cell's neighbours (8-connected) in a rows × cols grid, and how many it has."""
        import numpy as np

        n = max(rows, 0) * max(cols, 0)
        nbrs, ncount = np.empty((n, 8), dtype=np.int32), np.empty(n, dtype=np.int32)
        self.module.boggle_neighbours(rows, cols, nbrs, ncount)
        return nbrs, ncount

    def found_nodes(self, board, nbrs, ncount, nodes, values, rank) -> list[int]:
        """The word nodes found on one board, in order of discovery (any buffers of the kernel's item types)."""
        found = zeros("i", len(nodes))
        words = self.module.boggle_solve(board, nbrs, ncount, nodes, values, rank, found)
        return found[:words].tolist()

    def boggle_solve(self, board, nbrs, ncount, nodes, values, rank) -> np.ndarray:
        """`found_nodes` as an int32 array."""
        import numpy as np

        return np.array(self.found_nodes(board, nbrs, ncount, nodes, values, rank), dtype=np.int32)

    def boggle_scores(self, boards, nbrs, ncount, nodes, values) -> np.ndarray:
        """The score of each board (one per row, letter codes) of one grid size: the points of its distinct words."""
        import numpy as np

        boards = np.ascontiguousarray(boards, dtype=np.int8)
        scores = np.empty(boards.shape[0], dtype=np.int32)
        self.module.boggle_scores(boards, nbrs, ncount, nodes, values, scores)
        return scores

    # ---- the proof (pipeline/boggle/prove.py; the numba reference: kernels/prove.py, kernels/breaking.py) ----

    def word_paths(self, lex, lay, keys, wcs, firsts, seen):
        """Every word path of the class (key, first digit, word: in longer arrays when these are too short), their
        number and the sum/union bound; `lex` is (nodes, values, nbrs, ncount), `seen` a bit per trie node."""
        import numpy as np

        nodes, values, nbrs, ncount = lex
        while True:
            count, union = self.module.word_paths(nodes, values, nbrs, ncount, lay, keys, wcs, firsts, seen)
            if count <= keys.shape[0]:
                return keys, wcs, firsts, count, union
            size = max(1024, 2 * keys.shape[0], count)
            keys = np.empty(size, dtype=np.uint64)
            wcs = np.empty(size, dtype=np.uint32)
            firsts = np.empty(size, dtype=np.uint8)

    def sort_paths(self, keys, wcs, firsts, n_keys, key_bits, n_first):
        """The distinct (first, key, word) paths among the first n_keys, sorted by first digit then key, and where
        each first digit's run starts (at[x], x = 0..n_first; at[n_first + 1] = the count)."""
        import numpy as np

        a = np.empty(n_keys, dtype=np.uint64)
        aw = np.empty(n_keys, dtype=np.uint32)
        at = np.empty(n_first + 2, dtype=np.int64)
        kept = self.module.sort_paths(keys, wcs, firsts, n_keys, key_bits, n_first, a, aw, at)
        return a[:kept], aw[:kept], at

    def new_arena(self, size: int) -> tuple[np.ndarray, int]:
        """An arena of `size` int32 slots (at most MAX_SLOTS) holding the interned leaf sum nodes, and its first
        free slot. numpy's zeroed allocation maps fresh pages, so the slots cost memory only once written."""
        import numpy as np

        mem = np.zeros(min(max(size, 3 * self.INTERNED + 1024), self.MAX_SLOTS), dtype=np.int32)
        mem[0 : 3 * self.INTERNED : 3] = np.arange(self.INTERNED)  # POINTS
        mem[1 : 3 * self.INTERNED : 3] = np.arange(self.INTERNED)  # BOUND
        return mem, 3 * self.INTERNED

    def _grown(self, mem: np.ndarray, keep: int, needed: int, what: str) -> np.ndarray:
        """A longer arena with mem's first `keep` slots (at least `needed` slots, about twice as many)."""
        import numpy as np

        if needed > self.MAX_SLOTS:
            raise MemoryError(f"{what} needs more arena slots than int32 offsets address")
        grown = np.zeros(min(max(2 * mem.shape[0], needed + 1024), self.MAX_SLOTS), dtype=np.int32)
        grown[:keep] = mem[:keep]
        return grown

    def build_tree(self, keys, wcs, lo, hi, values, lay, mem, tip):
        """The orderly tree of the sorted paths keys[lo:hi] written into the arena from `tip`: the arena (grown
        when needed), its next free slot and the root's offset."""
        while True:
            end, root, needed = self.module.build_tree(keys, wcs, lo, hi, values, lay, mem, tip)
            if not needed:
                return mem, end, root
            mem = self._grown(mem, tip, needed, "a class tree")

    def class_tree(self, keys, wcs, at, values, lay, mem, tip):
        """The class's orderly tree from its sorted paths bucketed by first digit, written into the arena from
        `tip`: the arena (grown when needed), its next free slot and the root's offset."""
        while True:
            end, root, needed = self.module.class_tree(keys, wcs, at, values, lay, mem, tip)
            if not needed:
                return mem, end, root
            mem = self._grown(mem, tip, needed, "a class tree")

    def force_tree(self, mem, tip, root, pos, letter):
        """The tree of `root`'s boards with letter index `letter` at split position `pos`: the arena (grown when
        needed), its next free slot and the new tree's offset."""
        while True:
            end, tree, needed = self.module.force_tree(mem, tip, root, pos, letter)
            if not needed:
                return mem, end, tree
            mem = self._grown(mem, tip, needed, "a forced tree")

    def break_tree(self, mem, tip, root, n_letters, floor, switch, max_force):
        """Every board of the tree at `root` whose bound reaches `floor`, forcing cells while the bound is above
        `switch` and fewer than `max_force` are chosen, then searching: the arena (grown when needed), the boards
        (letter index per position, read-only) and, per position, trees forced, trees dropped on their bound,
        trees searched, and the search's partial choices visited and dropped."""
        import numpy as np

        n = n_letters.shape[0]
        counts = [np.zeros(n, dtype=np.int64) for _ in range(5)]
        while True:
            picks, needed = self.module.break_tree(mem, tip, root, n_letters, floor, switch, max_force, *counts)
            if picks is not None:
                return (mem, np.frombuffer(picks, dtype=np.int8).reshape(-1, n), *counts)
            mem = self._grown(mem, tip, needed, "a forced tree")


@cache
def kernels() -> Kernels:
    """The Boggle kernels of the compiled extension; a one-line error naming the fix when it is stale or missing."""
    return Kernels(native.load("pipeline.boggle"))
