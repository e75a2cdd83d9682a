"""Optimal Hangman per word length: the strategy with the fewest expected misses, found by an exact search
(the kernels of pipeline/hangman/optimal_kernels/), or bounds on it when the search stops at its limit of work."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

MEMO_BITS = (10, 22)  # the search's memo: 2**bits states, bits = log2(words) + 8 within these (2**22: 130 MB)
KEY_SEED = 20_261_202  # the seed of the random 64-bit keys that hash a set of words
DEEPEN_STEPS = 64  # each deepening asks for a strategy within this fraction of the gap above the lower bound


@dataclass(frozen=True)
class Search:
    """One length's search: whether it proved the optimum, its bounds on the total miss weight, and the per-word
    games of the optimal strategy when proved."""

    words: int
    total_weight: int  # the words' weights summed: expected misses = misses weight / total_weight
    lower: int  # no strategy misses less weight than this
    upper: int  # a strategy (the greedy one, or the optimal one when proved) misses this much weight
    expanded: int  # states the search expanded
    seconds: float  # CPU time of the search
    misses: np.ndarray | None = None  # per word under the optimal strategy (None unless proved)
    guesses: np.ndarray | None = None
    letters: np.ndarray | None = None  # (n, 26) letter codes guessed, -1 after the last

    @property
    def proved(self) -> bool:
        """Whether the optimum is known (the bounds meet)."""
        return self.lower == self.upper

    @property
    def expected(self) -> float:
        """The optimal expected misses (the upper bound's when not proved)."""
        return self.upper / self.total_weight if self.total_weight else 0.0

    @property
    def gap(self) -> float:
        """Expected misses between the bounds (0 when proved)."""
        return (self.upper - self.lower) / self.total_weight if self.total_weight else 0.0

    def sequences(self) -> list[str | None]:
        """Each word's guessed letters under the optimal strategy, in order (None unless proved)."""
        if self.letters is None or self.guesses is None:
            return [None] * self.words
        return ["".join(chr(65 + c) for c in row[:g]) for row, g in zip(self.letters, self.guesses)]


def word_arrays(words: list[str], weights: np.ndarray | None = None):
    """The kernels' view of distinct words of one length (optimal_kernels.layout.Words): where each letter sits, the
    weights, each word's distinct letters, its peeling group per position, two hash keys, and scratch."""
    from pipeline.hangman.optimal_kernels.layout import DISTINCT_KEYS, Words
    from pipeline.letters.trie import letter_codes

    n = len(words)
    codes = letter_codes(words).astype(np.int64) if n else np.zeros((0, 0), dtype=np.int64)
    length = codes.shape[1]
    pos = np.zeros((n, 26), dtype=np.int64)
    for p in range(length):
        np.bitwise_or.at(pos, (np.arange(n), codes[:, p]), np.int64(1) << np.int64(p))
    wt = np.ones(n, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    distinct = np.full((n, 27), -1, dtype=np.int8)
    for i, word in enumerate(words):
        seen = list(dict.fromkeys(word))
        distinct[i, : len(seen)] = [ord(ch) - 65 for ch in seen]
    groups = np.full((n, max(length, 1)), -1, dtype=np.int64)
    ids: dict[tuple[int, str], int] = {}
    for i, word in enumerate(words):
        for p, ch in enumerate(word):
            rest = word[:p] + "." + word[p + 1 :]
            if ch not in rest:
                groups[i, p] = ids.setdefault((p, rest), len(ids))
    rng = np.random.default_rng(KEY_SEED)
    z1, z2 = (rng.integers(0, 2**63, size=n, dtype=np.int64).astype(np.uint64) for _ in range(2))
    room = max(n, 26)
    return Words(
        pos,
        wt,
        distinct,
        groups,
        z1,
        z2,
        bool(n == 0 or wt.min() == wt.max()),
        np.zeros(len(ids) + 1, dtype=np.int64),
        np.zeros(26, dtype=np.int64),
        np.zeros(26, dtype=np.int64),
        np.zeros(26, dtype=np.bool_),
        np.zeros(room, dtype=np.int64),
        np.zeros(room, dtype=np.int64),
        np.zeros(room, dtype=np.int64),
        np.zeros(3 * DISTINCT_KEYS + 1, dtype=np.int64),
    )


def memo_size(words: int) -> int:
    """The memo's size (log2 of its slots) for a search of this many words: fixed by the input, so that the
    strategy found never varies."""
    return min(max(words.bit_length() + 8, MEMO_BITS[0]), MEMO_BITS[1])


def search(
    words: list[str], weights: np.ndarray | None = None, limit: int = 1 << 62, memo_bits: int | None = None
) -> Search:
    """The optimal strategy against distinct words of one length (total miss weight, per-word games), or bounds
    when the search expands `limit` states without finishing.

    The search deepens: it asks whether some strategy misses at most the lower bound, and each answer "no" comes
    with a higher lower bound, proved; so a search stopped at its limit still reports the best bound it reached."""
    from pipeline.hangman.optimal_kernels import bounds
    from pipeline.hangman.optimal_kernels import search as k
    from pipeline.hangman.optimal_kernels.layout import ABORTED
    from pipeline.hangman.optimal_kernels.sets import new_memo

    started = time.process_time()
    arrays = word_arrays(words, weights)
    n, total = len(words), int(arrays.wt.sum())
    ids = np.arange(n, dtype=np.int32)
    memo = new_memo(memo_bits or memo_size(n))
    work = np.array([0, limit], dtype=np.int64)
    upper = int(bounds.greedy_value(ids, arrays, memo))
    lower = int(bounds.quick_bound(ids, arrays, memo))
    while lower < upper:
        budget = max(lower, upper - 1 if upper - lower <= 1 else lower + (upper - lower) // DEEPEN_STEPS)
        value = int(k.solve(ids, budget, arrays, memo, work))
        if value == ABORTED:
            return Search(n, total, lower, upper, int(work[0]), time.process_time() - started)
        if value <= budget:
            lower = upper = value
        else:
            lower = min(value, upper)
    misses, guesses = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32)
    letters = np.full((n, 26), -1, dtype=np.int8)
    if n:
        work[1] = 1 << 62
        path = np.zeros(27, dtype=np.int8)
        k.play_out(ids, arrays, memo, work, 0, 0, path, misses, guesses, letters)
    played = int((misses.astype(np.int64) * arrays.wt).sum())
    if played != upper:
        raise AssertionError(f"the optimal strategy played out misses {played}, the search found {upper}")
    return Search(n, total, upper, upper, int(work[0]), time.process_time() - started, misses, guesses, letters)


@dataclass(frozen=True)
class Adversary:
    """One length's minimax: the most misses an evil setter, free to change the word while it stays consistent
    with every answer, can force on the best guesser (bounds when the search stops at its limit)."""

    words: int
    lower: int
    upper: int
    expanded: int
    seconds: float
    misses: np.ndarray | None = None  # per word under a minimax strategy (the search's, or the greedy one when it
    # meets the search's bound; None unless proved)

    @property
    def proved(self) -> bool:
        """Whether the minimax value is known."""
        return self.lower == self.upper


def adversary(words: list[str], limit: int = 1 << 62, memo_bits: int | None = None) -> Adversary:
    """The minimax value of distinct words of one length and each word's misses under the minimax strategy,
    or bounds when the search expands `limit` states without finishing."""
    from pipeline.hangman.optimal_kernels import adversary as k
    from pipeline.hangman.optimal_kernels.layout import ABORTED
    from pipeline.hangman.optimal_kernels.sets import new_memo

    started = time.process_time()
    arrays = word_arrays(words)
    n = len(words)
    ids = np.arange(n, dtype=np.int32)
    memo = new_memo(memo_bits or memo_size(n))
    work = np.array([0, limit], dtype=np.int64)
    low = int(k.minimax_bound(ids, arrays, memo))
    while True:  # deepen: can the guesser keep every word within `low` misses?
        value = int(k.minimax(ids, low, arrays, memo, work))
        if value == ABORTED:
            greedy = solve_length_misses(words) if n else np.zeros(0, dtype=np.int32)
            upper = int(greedy.max()) if n else 0
            played = greedy if upper == low else None  # the greedy strategy meets the bound: it is a minimax one
            return Adversary(n, low, upper, int(work[0]), time.process_time() - started, played)
        if value <= low:
            break
        low = value
    misses = np.zeros(n, dtype=np.int32)
    if n:
        work[1] = 1 << 62
        k.minimax_play(ids, arrays, memo, work, 0, misses)
    if n and int(misses.max()) != value:
        raise AssertionError(f"the minimax strategy played out {int(misses.max())} misses, the search found {value}")
    return Adversary(n, value, value, int(work[0]), time.process_time() - started, misses)


def solve_length_misses(words: list[str]) -> np.ndarray:
    """The reference (greedy) solver's misses per word."""
    from pipeline.hangman.solver import solve_codes

    return solve_codes(words)[0]
