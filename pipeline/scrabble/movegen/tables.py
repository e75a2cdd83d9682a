"""What the move generator reads besides the position and the rack: a variant's squares in both orientations and
a lexicon's GADDAG with its long words, made once per pair, as numpy arrays for the numba kernels or as plain
buffers for the compiled engine (a one-off command need not import numpy); and the reference generator's order of
plays."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, NamedTuple

from pipeline.letters.alphabet import LETTERS
from pipeline.scrabble.lexicon.gaddag import LETTER_HASHES, MAX_LETTERS, MIN_LETTERS, Gaddag
from pipeline.scrabble.rules.variant import ACROSS, SIZE

if TYPE_CHECKING:
    import numpy as np


def generation_order(records: np.ndarray) -> np.ndarray:
    """The permutation that puts play records in the reference generator's order: across first, then by
    line, start square, and letter by letter (a letter before its blank, a word before its extensions)."""
    import numpy as np

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


def generation_key(row: Any, k: Any) -> tuple:
    """One play record's place in the reference generator's order (generation_order, for a record as a sequence of
    ints; k the engine's layout): direction, line, start square, then its letters (a letter before its blank, a
    word before its extensions)."""
    direction, blanks = row[k.PLAY_DIR], row[k.PLAY_BLANKS]
    row_, col = row[k.PLAY_ROW], row[k.PLAY_COL]
    letters = row[k.PLAY_LETTERS : k.PLAY_LETTERS + k.N]
    codes = tuple(2 * ch + (blanks >> i & 1) if ch >= 0 else -1 for i, ch in enumerate(letters))
    line, start = (row_, col) if direction == ACROSS else (col, row_)
    return (direction, line, start, *codes)


class Tables(NamedTuple):
    """The move generator's arguments that stay the same from move to move, bundled (one kernel argument, built
    once per lexicon and variant): the GADDAG with each node's tiles and its long words by letter hash, and the
    variant's scoring with its squares in both orientations (index 0 as is, 1 transposed)."""

    # numpy arrays (tables, variant_tables) or buffers of the same types (engine_tables)
    arcs: Any  # uint32 (arcs,): the GADDAG's packed arcs (lexicon/kernels.py)
    tilesets: Any  # int64 (arcs,): each arc, and a node's tiles beside its first arc (Gaddag.tilesets)
    bingos: Any  # uint64 (words,), sorted: the letter hash of each long word
    bingo_words: Any  # int8 (words, 15): those words' letter codes, -1 past the end
    bingo_slots: Any  # int64: a hash table of the distinct hashes (the lexicon kernels' long_words)
    letter_hash: Any  # uint64 (26,): LETTER_HASHES
    values: Any  # int64 (26,): the letters' values
    lmul: Any  # int64 (2, 15, 15): letter multipliers
    wmul: Any  # int64 (2, 15, 15): word multipliers
    centre_r: int
    centre_c: int
    bingo: int  # the bonus for playing a full rack
    rack_size: int

    def __reduce__(self):
        """Pickled (to a job's worker processes) and unpickled as read-only arrays, as made here."""
        return (read_only_tables, tuple(self))


def read_only_tables(*fields) -> Tables:
    """Tables whose arrays are read-only numpy views (of numpy arrays or buffers alike): the kernels only read them,
    and one kind of array everywhere means one compiled variant (a table read from Parquet or handed over by Ray is
    read-only already; one just built or unpickled is not, and numba would compile each kernel again for it)."""
    import numpy as np

    from pipeline.core.arrays import read_only

    return Tables._make(read_only(np.asarray(f)) if isinstance(f, np.ndarray | memoryview) else f for f in fields)


def engine_tables(gaddag: Gaddag, variant) -> Tables:
    """The move generator's view of a variant and a lexicon's GADDAG as buffers, without word maps (the same plays,
    found by anchor walks alone: what one position is worth, where making the maps costs some 40 ms on ENABLE):
    what the compiled engine reads, made without numpy."""
    no_words = memoryview(bytes(MAX_LETTERS)).cast("b", (1, MAX_LETTERS))[0:0]
    return Tables(
        gaddag.buffer,
        gaddag.tileset_buffer,
        memoryview(array("Q")),
        no_words,
        memoryview(array("q")),
        memoryview(array("Q", LETTER_HASHES)),
        memoryview(array("q", [variant.tile_set.values[ch] for ch in LETTERS])),
        both_ways(variant, 0),
        both_ways(variant, 1),
        variant.centre[0],
        variant.centre[1],
        variant.bingo_bonus,
        variant.rack_size,
    )


def both_ways(variant, which: int) -> memoryview:
    """int64 (2, SIZE, SIZE): the variant's letter (which = 0) or word (1) multipliers, as is and transposed."""
    grid = variant.premiums
    flat = [grid[r][c][which] for r in range(SIZE) for c in range(SIZE)]
    flat += [grid[c][r][which] for r in range(SIZE) for c in range(SIZE)]
    return memoryview(array("q", flat)).cast("B").cast("q", (2, SIZE, SIZE))


def tables(gaddag: Gaddag, variant, word_maps: bool = True) -> Tables:
    """engine_tables as read-only numpy arrays, for the numba kernels; with `word_maps`, the long words too."""
    tab = engine_tables(gaddag, variant)
    if word_maps:
        from pipeline.scrabble.engine import kernels

        bingos, bingo_words, bingo_slots = kernels().long_words(gaddag.buffer, MIN_LETTERS, tab.letter_hash)
        tab = tab._replace(bingos=bingos, bingo_words=bingo_words, bingo_slots=bingo_slots)
    return read_only_tables(*tab)


_TABLES: dict[tuple[int, int, bool | None], tuple[object, object, Tables]] = {}


def variant_tables(lexicon, variant, word_maps: bool = True) -> Tables:
    """tables(lexicon.gaddag, variant, word_maps), made once per pair."""
    return _made_once(
        (id(lexicon), id(variant), word_maps), lexicon, variant, lambda: tables(lexicon.gaddag, variant, word_maps)
    )


def variant_buffers(lexicon, variant) -> Tables:
    """engine_tables(lexicon.gaddag, variant), made once per pair."""
    return _made_once(
        (id(lexicon), id(variant), None), lexicon, variant, lambda: engine_tables(lexicon.gaddag, variant)
    )


def _made_once(key: tuple, lexicon, variant, make) -> Tables:
    """The tables cached under `key` while the lexicon and variant it was made for are the same objects."""
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not lexicon or hit[1] is not variant:
        hit = (lexicon, variant, make())
        _TABLES[key] = hit
    return hit[2]
