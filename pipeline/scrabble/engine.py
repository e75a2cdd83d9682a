"""Scrabble's engine for one-off commands (`scrabble best`, `play`, `replay`): the move generator and the GADDAG's
look-ups in C (pipeline/scrabble/native/, built by the package's own build into pipeline.scrabble._native and
loaded only when current, see pipeline.core.native), with the layouts callers read, so those commands start
without importing numba (and `scrabble best` without numpy: it hands the engine plain buffers,
movegen.tables.engine_tables). They return what the numba kernels return (pipeline/scrabble/movegen/kernels/
search.py `board_plays`, pipeline/scrabble/lexicon/kernels.py `long_words`, `gaddag_contains`, `arc_tilesets`),
byte for byte. Jobs (self-play, leave values) call the numba kernels themselves (numba's start-up cost is nothing
to a job)."""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace

from pipeline.core import native

PACKAGE = "pipeline.scrabble"
COMPILED = "C extension"
RECORD_LAYOUT = ("N", "RECORD", "PLAY_SCORE", "PLAY_ROW", "PLAY_COL", "PLAY_DIR", "PLAY_LEN", "PLAY_BLANKS")
LAYOUT = RECORD_LAYOUT + ("PLAY_PLACED", "PLAY_LETTERS") + ("CHILD_BITS", "CHILD_MASK", "END", "TILE_SHIFT")


def kernels() -> SimpleNamespace:
    """The move generator's functions and the record and arc layouts, from the compiled extension (a one-line
    error naming the fix when it is missing or older than its sources). The functions check their arguments'
    types and shapes themselves, so `unchecked` holds the same functions."""
    return _kernels()


@cache
def _kernels() -> SimpleNamespace:
    """kernels(), made once."""
    c = native.load(PACKAGE)
    functions = {
        "board_plays": _board_plays(c),
        "board_rows": c.board_plays,  # the same, its records left as the C side gives them (no numpy needed)
        "long_words": _long_words(c),
        "gaddag_contains": c.gaddag_contains,
        "arc_tilesets": _arc_tilesets(c),
        "fill_tilesets": c.arc_tilesets,  # (arcs, out): arc_tilesets into a buffer, for callers without numpy
        "check_arcs": c.check_arcs,
    }
    return SimpleNamespace(
        compiled=COMPILED,
        unchecked=SimpleNamespace(**functions),
        **functions,
        **{name: getattr(c, name) for name in LAYOUT},
    )


def _board_plays(c):
    """board_plays(tables, tiles, blanks, rack, keep, out) -> (records, n, total), as the numba kernel: the
    records are `out`, or a larger array when every play is kept (keep = 0) and they outgrow it."""
    record = c.RECORD

    def board_plays(tab, tiles, blanks, rack, keep, out):
        import numpy as np

        records, n, total = c.board_plays(tab, tiles, blanks, rack, keep, out)
        if not isinstance(records, np.ndarray):  # the C side's own rows: the n records in a bytearray
            records = np.frombuffer(records, dtype=np.int32).reshape(-1, record)
        return records, n, total

    board_plays.__doc__ = c.board_plays.__doc__
    return board_plays


def _long_words(c):
    """long_words(arcs, shortest, letter_hash) -> (hashes, words, slots) as numpy arrays."""
    longest = c.LONGEST

    def long_words(arcs, shortest, letter_hash):
        import numpy as np

        hashes, words, slots = c.long_words(arcs, shortest, letter_hash)
        return (
            np.frombuffer(hashes, dtype=np.uint64),
            np.frombuffer(words, dtype=np.int8).reshape(-1, longest),
            np.frombuffer(slots, dtype=np.int64),
        )

    long_words.__doc__ = c.long_words.__doc__
    return long_words


def _arc_tilesets(c):
    """arc_tilesets(arcs) -> int64 array, as the numba kernel."""

    def arc_tilesets(arcs):
        import numpy as np

        out = np.empty(len(arcs), dtype=np.int64)
        c.arc_tilesets(arcs, out)
        return out

    arc_tilesets.__doc__ = c.arc_tilesets.__doc__
    return arc_tilesets
