"""The GADDAG of a lexicon: built once from its words, stored as one column of packed arcs, walked by the
move generator in gaddag_kernels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from pipeline.trie import encode

MAX_LETTERS = 15  # the longest playable word: the board's width


@dataclass(frozen=True)
class Gaddag:
    """Packed arcs (uint32, see gaddag_kernels) and the number of nodes."""

    arcs: np.ndarray
    n_nodes: int

    @property
    def nbytes(self) -> int:
        """Size of the arcs in bytes."""
        return int(self.arcs.nbytes)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (upper case) is one of the words."""
        from pipeline import gaddag_kernels as gk

        codes = np.frombuffer(word.encode("ascii"), dtype=np.uint8).astype(np.int64) - 65
        return len(word) >= 1 and bool(gk.gaddag_contains(self.arcs, codes))


def build_gaddag(words: Iterable[str]) -> Gaddag:
    """The minimal GADDAG of the upper-case A-Z words of 2 to MAX_LETTERS letters among `words`."""
    from pipeline import gaddag_kernels as gk

    ordered = sorted({w for w in words if 2 <= len(w) <= MAX_LETTERS})
    bad = next((w for w in ordered if not (w.isascii() and w.isalpha() and w.isupper())), None)
    if bad is not None:
        raise ValueError(f"GADDAG words must be upper-case A-Z, got {bad!r}")
    codes, offsets = encode(ordered)
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
    from pipeline import gaddag_kernels as gk

    n = gk.N
    direction = records[:, gk.PLAY_DIR]
    line = np.where(direction == 0, records[:, gk.PLAY_ROW], records[:, gk.PLAY_COL])
    start = np.where(direction == 0, records[:, gk.PLAY_COL], records[:, gk.PLAY_ROW])
    letters = records[:, gk.PLAY_LETTERS:gk.PLAY_LETTERS + n].astype(np.int64)
    blank_bits = (records[:, gk.PLAY_BLANKS, None] >> np.arange(n)) & 1
    codes = np.where(letters >= 0, 2 * letters + blank_bits, -1)
    keys = [codes[:, k] for k in range(n - 1, -1, -1)] + [start, line, direction]
    return np.lexsort(keys)
