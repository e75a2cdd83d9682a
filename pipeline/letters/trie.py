"""Words as letter codes (A = 0), and the compact trie in flat arrays built from them (Boggle, Scrabble)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.letters.alphabet import A_CODE, LETTERS, code


@dataclass(frozen=True)
class Trie:
    """Node 0 is the root; children[node, letter] is the child node or -1; word_at[node] the word index or -1."""

    children: np.ndarray  # int32, (n_nodes, 26)
    word_at: np.ndarray  # int32, (n_nodes,)
    words: tuple[str, ...]  # the words, sorted; word_at indexes into them

    @property
    def n_nodes(self) -> int:
        """Number of nodes, root included."""
        return self.children.shape[0]

    def find(self, prefix: str) -> int:
        """The node reached by spelling `prefix`, or -1."""
        node = 0
        for ch in prefix:
            node = int(self.children[node, code(ch)])
            if node < 0:
                return -1
        return node

    def __contains__(self, word: str) -> bool:
        """Whether `word` is one of the trie's words."""
        node = self.find(word)
        return node >= 0 and self.word_at[node] >= 0


def encode(words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Upper-case words as one uint8 array of letter codes (A = 0) and int64 offsets (len n + 1)."""
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    offsets = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8) - np.uint8(A_CODE)
    return codes, offsets


def upper_codes(words: Sequence[str], what: str) -> tuple[np.ndarray, np.ndarray]:
    """encode(words) of words that must each be upper-case A-Z (checked in one pass over the codes); else a
    ValueError naming the first that is not ("`what` words must be ...")."""
    try:
        codes, offsets = encode(words)
        fine = not (codes.size and int(codes.max()) >= len(LETTERS)) and bool((np.diff(offsets) > 0).all())
    except UnicodeEncodeError:
        fine = False
    if not fine:  # below A wraps round to a large code; an empty word has no codes
        bad = next(w for w in words if not w.isascii() or not w.isalpha() or not w.isupper())
        raise ValueError(f"{what} words must be upper-case A-Z, got {bad!r}")
    return codes, offsets


def letter_codes(words: Sequence[str]) -> np.ndarray:
    """Upper-case words of one length as an (n, length) int8 matrix of letter codes (A = 0)."""
    codes, _ = encode(words)
    return codes.view(np.int8).reshape(len(words), len(words[0]) if words else 0)


def build_trie(words: Sequence[str], kernels=None) -> Trie:
    """A trie of upper-case A–Z words (built by `kernels`' trie_node_count and trie_fill: by default those
    of pipeline.letters.kernels)."""
    if kernels is None:
        from pipeline.letters import kernels

    ordered = tuple(sorted(set(words)))
    codes, offsets = upper_codes(ordered, "trie")
    n_nodes = kernels.trie_node_count(codes, offsets)
    children, word_at = kernels.trie_fill(codes, offsets, n_nodes, len(LETTERS))
    return Trie(children, word_at, ordered)
