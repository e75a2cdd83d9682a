"""The GADDAG of a lexicon: built once from its words by the lexicon kernels, stored as gaddag.parquet (one column
of packed arcs), walked by the move generator. Its node layout is named in the kernels (lexicon/kernels.py) and
read here through the engine (pipeline/scrabble/engine.py), so that one-off commands start without numba."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.core.errors import WordstatsError

MAX_LETTERS = 15  # the longest playable word: the board's width
MIN_LETTERS = 2  # the shortest word
# A random 64-bit number per letter: a multiset of letters hashes to their sum (mod 2**64), so that the
# hash of a rack plus some board letters is a sum of sums. Drawn by
# np.random.default_rng(20261201).integers(1, 2**63, size=26, dtype=np.uint64) and written out, since importing
# numpy.random costs a one-off command some 10 ms (a test checks the two agree). LETTER_HASH is them as a numpy
# uint64 array, made when first asked for (module __getattr__) so that a one-off command need not import numpy.
LETTER_HASHES = (
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
)


if TYPE_CHECKING:
    import numpy as np


def __getattr__(name: str) -> Any:
    """LETTER_HASH: LETTER_HASHES as a uint64 numpy array, made once when first asked for."""
    if name == "LETTER_HASH":
        import numpy as np

        hashes = np.array(LETTER_HASHES, dtype=np.uint64)
        hashes.flags.writeable = False
        globals()["LETTER_HASH"] = hashes
        return hashes
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _kernels():
    """The engine's look-ups and layout (the compiled extension: pipeline/scrabble/engine.py)."""
    from pipeline.scrabble.engine import kernels

    return kernels()


class Gaddag:
    """Packed arcs (uint32, see lexicon/kernels.py) and the number of nodes. `buffer` holds the arcs as the compiled
    engine reads them (no numpy needed); `arcs` is the same memory as a numpy array, for the numba kernels."""

    def __init__(self, arcs: Any, n_nodes: int):
        self.buffer = memoryview(arcs).cast("B").cast("I")
        self.n_nodes = n_nodes

    def __reduce__(self):
        """Pickled (to a job's workers) as its numpy arcs."""
        return (Gaddag, (self.arcs, self.n_nodes))

    @cached_property
    def arcs(self) -> np.ndarray:
        """The arcs as a uint32 numpy array (the buffer's memory, read-only when it is)."""
        import numpy as np

        return np.frombuffer(self.buffer, dtype=np.uint32)

    @cached_property
    def tileset_buffer(self) -> memoryview:
        """int64 per arc index, as the move generator walks it: the arc in the low 32 bits and, at the first arc
        of a node, the tiles of the node as bits from bit NODE_SHIFT on (NODE_SHIFT the separator,
        NODE_SHIFT + 1 + l letter l)."""
        from pipeline.core.buffers import zeros

        out = zeros("q", len(self.buffer))
        _kernels().fill_tilesets(self.buffer, out)
        return out

    @cached_property
    def tilesets(self) -> np.ndarray:
        """tileset_buffer as an int64 numpy array (the same memory)."""
        import numpy as np

        return np.frombuffer(self.tileset_buffer, dtype=np.int64)

    @property
    def nbytes(self) -> int:
        """Size of the arcs in bytes."""
        return self.buffer.nbytes

    def __contains__(self, word: str) -> bool:
        """Whether `word` (upper case) is one of the words."""
        codes = array("q", [ch - 65 for ch in word.encode("ascii")])
        return len(word) >= 1 and bool(_kernels().gaddag_contains(self.buffer, codes))


def build_gaddag(words: Iterable[str]) -> Gaddag:
    """The minimal GADDAG of the upper-case A-Z words of MIN_LETTERS to MAX_LETTERS letters among `words`."""
    import numpy as np

    from pipeline.letters.trie import upper_codes
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
    import numpy as np

    return np.flatnonzero(arcs[:-1] & _kernels().END) + 1


def check_arcs(arcs: Any) -> int:
    """The number of nodes of an arc array (any uint32 buffer) the kernels can walk safely (arc 0 a root pointer,
    the last arc ending a node, every child inside the array, every tile a letter or SEP), or -(1 + index) of a bad
    arc (-1 also for too few arcs or a bad first or last arc)."""
    return int(_kernels().check_arcs(arcs))


def gaddag_table(g: Gaddag) -> pl.DataFrame:
    """The arcs as gaddag.parquet's one column, `arc`: each uint32 arc's 32 bits stored as a signed Int32."""
    import numpy as np

    return pl.DataFrame({"arc": g.arcs.astype(np.uint32).view(np.int32)}, schema={"arc": pl.Int32})


def from_table(table: pl.DataFrame, where: str = "gaddag.parquet") -> Gaddag:
    """The GADDAG stored in a table by gaddag_table; a damaged one is an error naming the file."""
    if list(table.columns) != ["arc"] or table.schema["arc"] != pl.Int32 or table.height < 2:
        raise WordstatsError(
            f"{where}: not a GADDAG table (expected one Int32 column 'arc'); rebuild it with `wordstats run scrabble`"
        )
    from pipeline.core.buffers import values

    arcs = values(table["arc"]).cast("B").cast("I")
    nodes = check_arcs(arcs)
    if nodes < 0:
        raise WordstatsError(f"{where}: damaged GADDAG (arc {-nodes - 1}); rebuild it with `wordstats run scrabble`")
    return Gaddag(arcs, int(nodes))
