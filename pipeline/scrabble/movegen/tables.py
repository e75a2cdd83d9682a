"""What the move generator reads besides the position and the rack: a variant's squares in both orientations and
a lexicon's GADDAG with its long words, made once per pair; and the reference generator's order of plays."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pipeline.core.arrays import read_only
from pipeline.scrabble.lexicon.gaddag import LETTER_HASH, MAX_LETTERS, MIN_LETTERS, Gaddag


def generation_order(records: np.ndarray) -> np.ndarray:
    """The permutation that puts play records in the reference generator's order: across first, then by
    line, start square, and letter by letter (a letter before its blank, a word before its extensions)."""
    from pipeline.scrabble.engine import kernels

    gk = kernels()
    n = gk.N
    direction = records[:, gk.PLAY_DIR]
    line = np.where(direction == 0, records[:, gk.PLAY_ROW], records[:, gk.PLAY_COL])
    start = np.where(direction == 0, records[:, gk.PLAY_COL], records[:, gk.PLAY_ROW])
    letters = records[:, gk.PLAY_LETTERS : gk.PLAY_LETTERS + n].astype(np.int64)
    blank_bits = (records[:, gk.PLAY_BLANKS, None] >> np.arange(n)) & 1
    codes = np.where(letters >= 0, 2 * letters + blank_bits, -1)
    keys = [codes[:, k] for k in range(n - 1, -1, -1)] + [start, line, direction]
    return np.lexsort(keys)


class Tables(NamedTuple):
    """The move generator's arguments that stay the same from move to move, bundled (one kernel argument, built
    once per lexicon and variant): the GADDAG with each node's tiles and its long words by letter hash, and the
    variant's scoring with its squares in both orientations (index 0 as is, 1 transposed)."""

    arcs: np.ndarray  # uint32 (arcs,): the GADDAG's packed arcs (lexicon/kernels.py)
    tilesets: np.ndarray  # int64 (arcs,): each arc, and a node's tiles beside its first arc (Gaddag.tilesets)
    bingos: np.ndarray  # uint64 (words,), sorted: the letter hash of each long word
    bingo_words: np.ndarray  # int8 (words, 15): those words' letter codes, -1 past the end
    bingo_slots: np.ndarray  # int64: a hash table of the distinct hashes (the lexicon kernels' long_words)
    letter_hash: np.ndarray  # uint64 (26,): LETTER_HASH
    values: np.ndarray  # int64 (26,): the letters' values
    lmul: np.ndarray  # int64 (2, 15, 15): letter multipliers
    wmul: np.ndarray  # int64 (2, 15, 15): word multipliers
    centre_r: int
    centre_c: int
    bingo: int  # the bonus for playing a full rack
    rack_size: int

    def __reduce__(self):
        """Pickled (to a job's worker processes) and unpickled as read-only arrays, as made here."""
        return (read_only_tables, tuple(self))


def read_only_tables(*fields) -> Tables:
    """Tables whose arrays are read-only views: the kernels only read them, and one kind of array everywhere
    means one compiled variant (a table read from Parquet or handed over by Ray is read-only already; one just
    built or unpickled is not, and numba would compile each kernel again for it)."""
    return Tables._make(read_only(f) if isinstance(f, np.ndarray) else f for f in fields)


NO_LONG_WORDS = (  # the long-word arrays of tables without word maps
    np.zeros(0, dtype=np.uint64),
    np.full((0, MAX_LETTERS), -1, dtype=np.int8),
    np.zeros(0, dtype=np.int64),
)


def tables(gaddag: Gaddag, variant, word_maps: bool = True) -> Tables:
    """The move generator's view of a variant and a lexicon's GADDAG; without `word_maps`, no long words (the same
    plays, found by anchor walks alone: what one position is worth, where making the maps costs some 40 ms on
    ENABLE)."""
    from pipeline.letters import tiles as tl
    from pipeline.scrabble.engine import kernels

    def both(grid: np.ndarray) -> np.ndarray:
        """A grid and its transpose, stacked."""
        return np.ascontiguousarray(np.stack([grid, grid.T]).astype(np.int64))

    long_words = kernels().long_words(gaddag.arcs, MIN_LETTERS, LETTER_HASH) if word_maps else NO_LONG_WORDS
    bingos, bingo_words, bingo_slots = long_words
    return read_only_tables(
        gaddag.arcs,
        gaddag.tilesets,
        bingos,
        bingo_words,
        bingo_slots,
        LETTER_HASH,
        tl.letter_values(variant.tile_set).astype(np.int64),
        both(variant.letter_mult),
        both(variant.word_mult),
        variant.centre[0],
        variant.centre[1],
        variant.bingo_bonus,
        variant.rack_size,
    )


_TABLES: dict[tuple[int, int, bool], tuple[object, object, Tables]] = {}


def variant_tables(lexicon, variant, word_maps: bool = True) -> Tables:
    """tables(lexicon.gaddag, variant, word_maps), made once per pair."""
    key = (id(lexicon), id(variant), word_maps)
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not lexicon or hit[1] is not variant:
        hit = (lexicon, variant, tables(lexicon.gaddag, variant, word_maps))
        _TABLES[key] = hit
    return hit[2]
