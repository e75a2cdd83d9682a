"""The Scrabble lexicon: words as a set for judging, and a GADDAG for move generation (stored by the gaddag stage
as gaddag.parquet)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from pipeline.scrabble.rules.variant import SIZE


class Lexicon:
    """The playable words (2 to SIZE letters): a set for checking, a GADDAG (loaded or built on demand) for
    generating."""

    def __init__(self, words: Iterable[str]):
        self.words = frozenset(w for w in words if 2 <= len(w) <= SIZE)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (any case) is a playable word."""
        return word.upper() in self.words

    @cached_property
    def gaddag(self):
        """The GADDAG of the words (built here unless load_lexicon found it stored)."""
        from pipeline.scrabble.lexicon.gaddag import build_gaddag

        return build_gaddag(self.words)


class StoredLexicon(Lexicon):
    """The lexicon of a built words.parquet and its stored GADDAG: the words are read only when asked for
    (checking a word walks the GADDAG)."""

    def __init__(self, store, gaddag):
        self.store = store
        self.__dict__["gaddag"] = gaddag

    @cached_property
    def words(self) -> frozenset[str]:  # type: ignore[override]
        """The playable words of words.parquet."""
        return frozenset(w for w in self.store.read("words", columns=["word"])["word"].to_list() if 2 <= len(w) <= SIZE)

    def __contains__(self, word: str) -> bool:
        """Whether `word` (any case) is a playable word."""
        w = word.upper()
        return 2 <= len(w) <= SIZE and w.isascii() and w.isalpha() and w in self.gaddag


def load_lexicon(store) -> Lexicon:
    """The lexicon of a built words.parquet, with the GADDAG of gaddag.parquet when the scrabble stage
    has stored it."""
    if store.exists("gaddag"):
        from pipeline.scrabble.lexicon.gaddag import from_table

        return StoredLexicon(store, from_table(store.read("gaddag"), str(store.path("gaddag"))))
    return Lexicon(store.read("words", columns=["word"])["word"].to_list())
