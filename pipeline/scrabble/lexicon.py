"""The Scrabble lexicon: words as a trie for move generation and a set for judging."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from pipeline.scrabble.variant import SIZE


class Lexicon:
    """The playable words (2 to SIZE letters): a set for checking, a trie (built on demand) for generating."""

    def __init__(self, words: Iterable[str]):
        self.words = frozenset(w for w in words if 2 <= len(w) <= SIZE)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (any case) is a playable word."""
        return word.upper() in self.words

    @cached_property
    def trie(self):
        """The flat-array trie of the words (numba-built)."""
        from pipeline.letters.trie import build_trie

        return build_trie(sorted(self.words))


def load_lexicon(store) -> Lexicon:
    """The lexicon of a built words.parquet."""
    return Lexicon(store.read("words", columns=["word"])["word"].to_list())
