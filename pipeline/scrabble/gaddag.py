"""The GADDAG of a lexicon: built once from its words, stored as gaddag.parquet (one column of packed arcs),
walked by the move generator in gaddag_kernels."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import polars as pl

from pipeline.core.errors import WordstatsError
from pipeline.letters.trie import upper_codes

MAX_LETTERS = 15  # the longest playable word: the board's width
MIN_LETTERS = 2  # the shortest word
# The packed arc (as in gaddag_kernels, whose constants are compiled into its kernels).
CHILD_MASK = (1 << 22) - 1
END = 1 << 22
TILE_SHIFT = 24
NODE_SHIFT = 32
# A random 64-bit number per letter: a multiset of letters hashes to their sum (mod 2**64), so that the
# hash of a rack plus some board letters is a sum of sums.
LETTER_HASH = np.random.default_rng(20261201).integers(1, 2**63, size=26, dtype=np.uint64)


@dataclass(frozen=True)
class Gaddag:
    """Packed arcs (uint32, see gaddag_kernels) and the number of nodes."""

    arcs: np.ndarray
    n_nodes: int

    @cached_property
    def tilesets(self) -> np.ndarray:
        """int64 per arc index, as the move generator walks it: the arc in the low 32 bits and, at the first arc
        of a node, the tiles of the node as bits from bit NODE_SHIFT on (NODE_SHIFT the separator,
        NODE_SHIFT + 1 + l letter l)."""
        from pipeline.scrabble.engine import kernels

        return kernels().arc_tilesets(self.arcs)

    @property
    def nbytes(self) -> int:
        """Size of the arcs in bytes."""
        return int(self.arcs.nbytes)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (upper case) is one of the words."""
        from pipeline.scrabble.engine import kernels

        codes = np.frombuffer(word.encode("ascii"), dtype=np.uint8).astype(np.int64) - 65
        return len(word) >= 1 and bool(kernels().gaddag_contains(self.arcs, codes))


def build_gaddag(words: Iterable[str]) -> Gaddag:
    """The minimal GADDAG of the upper-case A-Z words of MIN_LETTERS to MAX_LETTERS letters among `words`."""
    from pipeline.scrabble import gaddag_kernels as gk

    ordered = sorted({w for w in words if MIN_LETTERS <= len(w) <= MAX_LETTERS})
    codes, offsets = upper_codes(ordered, "GADDAG")
    strings, lengths = gk.gaddag_strings(codes, offsets)
    hi, lo = gk.sort_keys(strings, lengths)
    order = np.lexsort((lo, hi))
    arcs, n_nodes = gk.gaddag_build(strings, lengths, order)
    if len(arcs) == 0:
        raise ValueError(f"the GADDAG of {len(ordered):,} words has more arcs than fit in {gk.CHILD_BITS} bits")
    return Gaddag(arcs, int(n_nodes))


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


@dataclass(frozen=True)
class Tables:
    """A variant's squares in both orientations (as gaddag_kernels wants them), with the GADDAG."""

    gaddag: Gaddag
    values: np.ndarray  # int64 (26,)
    lmul: np.ndarray  # int64 (2, N, N)
    wmul: np.ndarray
    centre: tuple[int, int]
    bingo: int
    rack_size: int
    counts: np.ndarray  # int64 (27,): the bag, blanks last
    bingos: np.ndarray  # uint64, sorted: the letter hash of each word
    bingo_words: np.ndarray  # int8 (len(bingos), MAX_LETTERS): those words' letter codes, -1 past the end
    bingo_slots: np.ndarray  # int64: a hash table of bingos (see gaddag_kernels.long_words)


def tables(gaddag: Gaddag, variant) -> Tables:
    """The move generator's view of a variant and a lexicon's GADDAG."""
    from pipeline.core.config import BLANK, LETTERS
    from pipeline.letters import tiles as tl
    from pipeline.scrabble.engine import kernels

    def both(grid: np.ndarray) -> np.ndarray:
        """A grid and its transpose, stacked."""
        return np.ascontiguousarray(np.stack([grid, grid.T]).astype(np.int64))

    counts = np.array([variant.tile_set.counts.get(ch, 0) for ch in LETTERS + BLANK], dtype=np.int64)
    return Tables(
        gaddag,
        tl.letter_values(variant.tile_set).astype(np.int64),
        both(variant.letter_mult),
        both(variant.word_mult),
        variant.centre,
        variant.bingo_bonus,
        variant.rack_size,
        counts,
        *kernels().long_words(gaddag.arcs, MIN_LETTERS, LETTER_HASH),
    )


def node_starts(arcs: np.ndarray) -> np.ndarray:
    """The index of the first arc of every node (the arcs after a node's last arc; arc 0 is the root pointer)."""
    return np.flatnonzero(arcs[:-1] & END) + 1


def check_arcs(arcs: np.ndarray) -> int:
    """The number of nodes of an arc array the kernels can walk safely (arc 0 a root pointer, the last arc
    ending a node, every child inside the array, every tile a letter or SEP), or -(1 + index) of a bad arc."""
    n = len(arcs)
    if n < 2 or not arcs[0] & END or not arcs[-1] & END or not arcs[0] & CHILD_MASK:
        return -1
    bad = ((arcs & CHILD_MASK) >= n) | ((arcs >> TILE_SHIFT) > 26)
    if bad.any():
        return -(1 + int(np.argmax(bad)))
    return int(np.count_nonzero(arcs[1:] & END))


def gaddag_table(g: Gaddag) -> pl.DataFrame:
    """The arcs as gaddag.parquet's one column, `arc`: each uint32 arc's 32 bits stored as a signed Int32."""
    return pl.DataFrame({"arc": g.arcs.astype(np.uint32).view(np.int32)}, schema={"arc": pl.Int32})


def from_table(table: pl.DataFrame, where: str = "gaddag.parquet") -> Gaddag:
    """The GADDAG stored in a table by gaddag_table; a damaged one is an error naming the file."""
    if list(table.columns) != ["arc"] or table.schema["arc"] != pl.Int32 or table.height < 2:
        raise WordstatsError(
            f"{where}: not a GADDAG table (expected one Int32 column 'arc'); rebuild it with `wordstats run scrabble`"
        )
    arcs = np.ascontiguousarray(table["arc"].to_numpy()).view(np.uint32)
    nodes = check_arcs(arcs)
    if nodes < 0:
        raise WordstatsError(f"{where}: damaged GADDAG (arc {-nodes - 1}); rebuild it with `wordstats run scrabble`")
    return Gaddag(arcs, int(nodes))


_TABLES: dict[tuple[int, int], tuple[object, object, Tables]] = {}


def variant_tables(lexicon, variant) -> Tables:
    """tables(lexicon.gaddag, variant), made once per pair."""
    key = (id(lexicon), id(variant))
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not lexicon or hit[1] is not variant:
        hit = (lexicon, variant, tables(lexicon.gaddag, variant))
        _TABLES[key] = hit
    return hit[2]
