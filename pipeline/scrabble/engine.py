"""Scrabble's engine for one-off commands (`scrabble best`, `play`, `replay`): the move generator's kernels and
the GADDAG's look-ups compiled ahead of time by `make install` (see pipeline.core.aot), so those commands start
without importing numba, with the layouts callers read. Jobs (self-play, leave values) call the kernels
themselves (numba's start-up cost is nothing to a job)."""

from __future__ import annotations

from pipeline.core import aot

MOVEGEN = "pipeline.scrabble.movegen.kernels"  # one cache unit: every file of it is a source of the build
LEXICON = "pipeline.scrabble.lexicon.kernels"
ARCS, INT = ("uint32", 1), ("int64", 0)
TABLES = aot.Bundle(  # movegen.tables.Tables, field by field
    "pipeline.scrabble.movegen.tables",
    "Tables",
    (
        ARCS,
        ("int64", 1),  # tilesets
        ("uint64", 1),  # long words' hashes
        ("int8", 2),  # long words
        ("int64", 1),  # their hash table
        ("uint64", 1),  # letter hashes
        ("int64", 1),  # letter values
        ("int64", 3),  # letter multipliers, both orientations
        ("int64", 3),  # word multipliers
        INT,  # centre row
        INT,  # centre column
        INT,  # bingo bonus
        INT,  # rack size
    ),
)
ENGINE = aot.Engine(
    name="scrabble",
    exports=(
        (
            "board_plays",
            f"{MOVEGEN}.search",
            (TABLES, ("int8", 2), ("bool", 2), ("int64", 1), INT, ("int32", 2)),  # board tiles, blanks, rack, keep, out
        ),
        ("long_words", LEXICON, (ARCS, INT, ("uint64", 1))),
        ("gaddag_contains", LEXICON, (ARCS, ("int64", 1))),
        ("arc_tilesets", LEXICON, (ARCS,)),
    ),
    constants=tuple(
        (c, f"{MOVEGEN}.layout")
        for c in ("N", "RECORD", "PLAY_SCORE", "PLAY_ROW", "PLAY_COL", "PLAY_DIR", "PLAY_LEN")
        + ("PLAY_BLANKS", "PLAY_PLACED", "PLAY_LETTERS")
    )
    + tuple((c, LEXICON) for c in ("CHILD_BITS", "CHILD_MASK", "END", "TILE_SHIFT")),
    module=__name__,
    units=(MOVEGEN,),
)


def kernels():
    """The move generator's kernels and record layout: the ahead-of-time build when current, else numba's."""
    return aot.kernels(ENGINE)
