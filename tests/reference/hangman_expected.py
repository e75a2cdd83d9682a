"""The greedy guesser's expected misses over fair tie-breaks, the obvious way: for one target word, every game
the guesser can play against it (at each state the letters held by the most remaining words, each with equal
chance), in exact fractions, memoised on what the board shows and the letters missed (as pillowfication's
analysis computes it, one word at a time). Slow; the reference pipeline/hangman/expected.py is checked against."""

from __future__ import annotations

from fractions import Fraction
from functools import cache


def expected_misses(target: str, lexicon: list[str]) -> Fraction:
    """The expected misses of the greedy guesser with fair tie-breaks against `target` (a word of `lexicon`)."""
    same_length = [w for w in lexicon if len(w) == len(target)]

    def fits(word: str, board: str, missed: str) -> bool:
        """Whether a word could still be the target: it agrees with the board and holds no missed letter."""
        shown = set(board) - {"_"}
        return not set(missed) & set(word) and all(b == c if b != "_" else c not in shown for b, c in zip(board, word))

    @cache
    def value(board: str, missed: str) -> Fraction:
        """The expected misses still to come from this board."""
        if "_" not in board:
            return Fraction(0)
        left = [w for w in same_length if fits(w, board, missed)]
        guessed = set(board) | set(missed)
        counts = {ch: sum(ch in w for w in left) for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in guessed}
        top = max(counts.values())
        tied = [ch for ch, n in counts.items() if n == top]
        total = Fraction(0)
        for ch in tied:
            if ch in target:
                after = "".join(t if t == ch else b for b, t in zip(board, target))
                total += value(after, missed)
            else:
                total += 1 + value(board, "".join(sorted(missed + ch)))
        return total / len(tied)

    return value("_" * len(target), "")
