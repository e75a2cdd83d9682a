"""The typed values of the word-list vocabulary: what a field's parser makes of the text a teacher, a preset or
the command line gives (pipeline/wordlists/fields.py), and how each reads back as that text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """A whole-number range given as "5" or "4-6": lowest and highest, both included."""

    lo: int
    hi: int

    def __str__(self) -> str:
        return self.name(self.lo) if self.lo == self.hi else f"{self.name(self.lo)}-{self.name(self.hi)}"

    def __iter__(self) -> Iterator[int]:
        return iter((self.lo, self.hi))

    @staticmethod
    def name(n: int) -> str:
        """One end of the range as written."""
        return str(n)


@dataclass(frozen=True)
class Grades(Span):
    """A range of school grades, kindergarten 0 (written K): "K-2", "3"."""

    @staticmethod
    def name(n: int) -> str:
        """A grade as written: K for kindergarten."""
        return "K" if n == 0 else str(n)


@dataclass(frozen=True)
class ListPattern:
    """A word-list pattern as written (capitals) and the anchored regular expression it stands for."""

    text: str
    regex: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Swaps:
    """The words a teacher swapped out of a picked set, in capitals, in the order given."""

    words: tuple[str, ...] = ()

    def __str__(self) -> str:
        return ",".join(w.lower() for w in self.words)

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)
