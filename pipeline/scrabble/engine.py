"""The move generator's kernels for one-off commands (`scrabble best`, `play`, `judge`): compiled ahead of time
by `make install` (see pipeline.core.aot), so those commands start without importing numba. Self-play and the
leave-value job call gaddag_kernels directly (their own kernels are numba's; the start-up cost is nothing to a
job)."""

from __future__ import annotations

from pipeline.core import aot

KERNELS = "pipeline.scrabble.gaddag_kernels"
ARCS, INT = ("uint32", 1), ("int64", 0)
ENGINE = aot.Engine(
    name="scrabble",
    exports=(
        (
            "board_plays",
            KERNELS,
            (
                ARCS,
                ("int64", 1),  # tilesets
                ("int8", 2),  # board tiles
                ("bool", 2),  # board blanks
                ("int64", 1),  # rack counts
                ("int64", 1),  # letter values
                ("int64", 3),  # letter multipliers, both orientations
                ("int64", 3),  # word multipliers
                INT,  # centre row
                INT,  # centre column
                INT,  # bingo bonus
                INT,  # rack size
                INT,  # keep
                ("int32", 2),  # out
                ("uint64", 1),  # long words' hashes
                ("uint64", 1),  # letter hashes
                ("int8", 2),  # long words
                ("int64", 1),  # their hash table
            ),
        ),
        ("long_words", KERNELS, (ARCS, INT, ("uint64", 1))),
        ("gaddag_contains", KERNELS, (ARCS, ("int64", 1))),
        ("arc_tilesets", KERNELS, (ARCS,)),
    ),
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
