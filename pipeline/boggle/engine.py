"""The Boggle kernels for one-off commands (`boggle solve`, `boggle score`): compiled ahead of time by `make
install` (see pipeline.core.aot), so those commands start without importing numba. Jobs over many boards call
the numba kernels directly (they run in parallel, which the ahead-of-time build does not)."""

from __future__ import annotations

from pipeline.core import aot

BOGGLE, LETTERS = "pipeline.boggle.kernels", "pipeline.letters.kernels"
ENGINE = aot.Engine(
    name="boggle",
    exports=(
        ("trie_node_count", LETTERS),
        ("trie_fill", LETTERS),
        ("trie_compact", BOGGLE),
        ("boggle_neighbours", BOGGLE),
        ("boggle_solve", BOGGLE),
    ),
    constants=(("NODE_CLASS_SHIFT", BOGGLE), ("NODE_FIRST_SHIFT", BOGGLE)),
    module=__name__,
)


def kernels():
    """The Boggle solver's kernels and node layout: the ahead-of-time build when current, else numba's."""
    return aot.kernels(ENGINE)


def argument_types() -> dict[str, tuple]:
    """The numba types of each exported kernel's arguments, as the trie, dictionary and solver pass them."""
    from numba import types as t

    def array(dtype, ndim: int):
        """A C-contiguous array type."""
        return t.Array(dtype, ndim, "C")

    codes, offsets, i64 = array(t.uint8, 1), array(t.int64, 1), t.int64
    grid = (array(t.int32, 2), array(t.int32, 1))  # each cell's neighbours and their count
    dictionary = (array(t.uint64, 1), array(t.int32, 1), array(t.int32, 1))  # nodes, point values, ranks
    return {
        "trie_node_count": (codes, offsets),
        "trie_fill": (codes, offsets, i64, i64),
        "trie_compact": (array(t.int32, 2), array(t.int32, 1)),
        "boggle_neighbours": (i64, i64),
        "boggle_solve": (array(t.int8, 1), *grid, *dictionary),
    }
