"""The move generator's kernels for one-off commands (`scrabble best`, `play`, `judge`): compiled ahead of time
by `make install` (see pipeline.core.aot), so those commands start without importing numba. Long jobs
(self-play, leave values) call gaddag_kernels directly: numba's start-up cost is nothing to them."""

from __future__ import annotations

from pipeline.core import aot

KERNELS = "pipeline.scrabble.gaddag_kernels"
ENGINE = aot.Engine(
    name="scrabble",
    exports=tuple((f, KERNELS) for f in ("board_plays", "long_words", "gaddag_contains", "arc_tilesets")),
    constants=tuple(
        (c, KERNELS)
        for c in ("N", "RECORD", "CHILD_BITS", "PLAY_SCORE", "PLAY_ROW", "PLAY_COL", "PLAY_DIR", "PLAY_LEN")
        + ("PLAY_BLANKS", "PLAY_PLACED", "PLAY_LETTERS")
    ),
    module=__name__,
)


def kernels():
    """The move generator's kernels and record layout: the ahead-of-time build when current, else numba's."""
    return aot.kernels(ENGINE)


def argument_types() -> dict[str, tuple]:
    """The numba types of each exported kernel's arguments, as gaddag.py and movegen.py pass them."""
    from numba import types as t

    def array(dtype, ndim: int):
        """A C-contiguous array type."""
        return t.Array(dtype, ndim, "C")

    arcs, i64 = array(t.uint32, 1), t.int64
    return {
        "board_plays": (
            arcs,
            array(t.int64, 1),  # tilesets
            array(t.int8, 2),  # board tiles
            array(t.boolean, 2),  # board blanks
            array(t.int64, 1),  # rack counts
            array(t.int64, 1),  # letter values
            array(t.int64, 3),  # letter multipliers, both orientations
            array(t.int64, 3),  # word multipliers
            i64,  # centre row
            i64,  # centre column
            i64,  # bingo bonus
            i64,  # rack size
            i64,  # keep
            array(t.int32, 2),  # out
            array(t.uint64, 1),  # long words' hashes
            array(t.uint64, 1),  # letter hashes
            array(t.int8, 2),  # long words
            array(t.int64, 1),  # their hash table
        ),
        "long_words": (arcs, i64, array(t.uint64, 1)),
        "gaddag_contains": (arcs, array(t.int64, 1)),
        "arc_tilesets": (arcs,),
    }
