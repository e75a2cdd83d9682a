"""The GADDAG of a lexicon: built once from its words by the lexicon kernels, stored as gaddag.parquet (one column
of packed arcs), walked by the move generator. Its node layout is named in the kernels (lexicon/kernels.py) and
read here through the engine (pipeline/scrabble/engine.py), so that one-off commands start without numba."""

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
# A random 64-bit number per letter: a multiset of letters hashes to their sum (mod 2**64), so that the
# hash of a rack plus some board letters is a sum of sums. Drawn by
# np.random.default_rng(20261201).integers(1, 2**63, size=26, dtype=np.uint64) and written out, since importing
# numpy.random costs a one-off command some 10 ms (a test checks the two agree).
LETTER_HASH = np.array(
    [
        6148704915929784736,
        518163415786077708,
        3583786286356579092,
        3258764487610844150,
        5746943172592403185,
        1428862904329287295,
        3238463367112195849,
        4571061408484110556,
        1733629243116545217,
        4632599240432550791,
        749261329530964926,
        2237499347742025084,
        2654202547607546379,
        8573483306706637885,
        4738754628144520710,
        1875766385771404181,
        4791848078863842967,
        4965321888889768109,
        6141843817490660150,
        3850823758887841991,
        6611006299866501383,
        4913196526683142766,
        2714489634447502949,
        3187916108541680539,
        3869570472095903765,
        7326854047654956375,
    ],
    dtype=np.uint64,
)


def _kernels():
    """The engine's look-ups and layout (the compiled extension: pipeline/scrabble/engine.py)."""
    from pipeline.scrabble.engine import kernels

    return kernels()


@dataclass(frozen=True)
class Gaddag:
    """Packed arcs (uint32, see lexicon/kernels.py) and the number of nodes."""

    arcs: np.ndarray
    n_nodes: int

    @cached_property
    def tilesets(self) -> np.ndarray:
        """int64 per arc index, as the move generator walks it: the arc in the low 32 bits and, at the first arc
        of a node, the tiles of the node as bits from bit NODE_SHIFT on (NODE_SHIFT the separator,
        NODE_SHIFT + 1 + l letter l)."""
        return _kernels().arc_tilesets(self.arcs)

    @property
    def nbytes(self) -> int:
        """Size of the arcs in bytes."""
        return int(self.arcs.nbytes)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (upper case) is one of the words."""
        codes = np.frombuffer(word.encode("ascii"), dtype=np.uint8).astype(np.int64) - 65
        return len(word) >= 1 and bool(_kernels().gaddag_contains(self.arcs, codes))


def build_gaddag(words: Iterable[str]) -> Gaddag:
    """The minimal GADDAG of the upper-case A-Z words of MIN_LETTERS to MAX_LETTERS letters among `words`."""
    from pipeline.scrabble.lexicon import kernels as lk

    ordered = sorted({w for w in words if MIN_LETTERS <= len(w) <= MAX_LETTERS})
    codes, offsets = upper_codes(ordered, "GADDAG")
    strings, lengths = lk.gaddag_strings(codes, offsets)
    hi, lo = lk.sort_keys(strings, lengths)
    order = np.lexsort((lo, hi))
    arcs, n_nodes = lk.gaddag_build(strings, lengths, order)
    if len(arcs) == 0:
        raise ValueError(f"the GADDAG of {len(ordered):,} words has more arcs than fit in {lk.CHILD_BITS} bits")
    return Gaddag(arcs, int(n_nodes))


def node_starts(arcs: np.ndarray) -> np.ndarray:
    """The index of the first arc of every node (the arcs after a node's last arc; arc 0 is the root pointer)."""
    return np.flatnonzero(arcs[:-1] & _kernels().END) + 1


def check_arcs(arcs: np.ndarray) -> int:
    """The number of nodes of an arc array the kernels can walk safely (arc 0 a root pointer, the last arc
    ending a node, every child inside the array, every tile a letter or SEP), or -(1 + index) of a bad arc."""
    k = _kernels()
    n = len(arcs)
    if n < 2 or not arcs[0] & k.END or not arcs[-1] & k.END or not arcs[0] & k.CHILD_MASK:
        return -1
    bad = ((arcs & k.CHILD_MASK) >= n) | ((arcs >> k.TILE_SHIFT) > 26)
    if bad.any():
        return -(1 + int(np.argmax(bad)))
    return int(np.count_nonzero(arcs[1:] & k.END))


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
