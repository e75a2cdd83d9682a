"""The Boggle kernels for one-off commands (`boggle solve`, `boggle score`): compiled ahead of time by `make
install` (see pipeline.core.aot), so those commands start without importing numba. Jobs over many boards call
the numba kernels directly (they run in parallel, which the ahead-of-time build does not)."""

from __future__ import annotations

from pipeline.core import aot

BOGGLE = "pipeline.boggle.kernels"  # one cache unit: every file of it is a source of the build
LETTERS = "pipeline.letters.kernels"
CODES, OFFSETS, INT = ("uint8", 1), ("int64", 1), ("int64", 0)
GRID = (("int32", 2), ("int32", 1))  # each cell's neighbours and their count
DICTIONARY = (("uint64", 1), ("int32", 1), ("int32", 1))  # nodes, point values, ranks
ENGINE = aot.Engine(
    name="boggle",
    exports=(
        ("trie_node_count", LETTERS, (CODES, OFFSETS)),
        ("trie_fill", LETTERS, (CODES, OFFSETS, INT, INT)),
        ("trie_compact", f"{BOGGLE}.nodes", (("int32", 2), ("int32", 1))),
        ("boggle_neighbours", f"{BOGGLE}.solve", (INT, INT)),
        ("boggle_solve", f"{BOGGLE}.solve", (("int8", 1), *GRID, *DICTIONARY)),
    ),
    constants=(("NODE_CLASS_SHIFT", f"{BOGGLE}.nodes"), ("NODE_FIRST_SHIFT", f"{BOGGLE}.nodes")),
    module=__name__,
    units=(BOGGLE,),
)


def kernels():
    """The Boggle solver's kernels and node layout: the ahead-of-time build when current, else numba's."""
    return aot.kernels(ENGINE)
