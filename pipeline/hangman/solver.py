"""The Hangman solver: the guesser's best guess sequence for every word (kernel and plain reference)."""

from __future__ import annotations

import numpy as np
import polars as pl

from pipeline.hangman.settings import KERNEL_MAX_LENGTH
from pipeline.letters.alphabet import A_CODE, code
from pipeline.letters.trie import letter_codes


def solve_length(words: list[str], weights=None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Misses, guesses and guess sequence of the solver against each of these distinct words."""
    misses, guesses, letters = solve_codes(words, weights)
    return misses, guesses, sequences(letters, guesses).to_list()


def solve_codes(words: list[str], weights=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The solver against distinct words of any lengths, aligned with `words`: misses, guesses, and the
    guessed letters as an (n, 26) matrix of codes (-1 after the last guess)."""
    n = len(words)
    weights = np.ones(n, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    misses, guesses = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32)
    letters = np.full((n, 26), -1, dtype=np.int8)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
    for length in np.unique(lengths):
        idx = np.flatnonzero(lengths == length)
        misses[idx], guesses[idx], letters[idx] = solve_group([words[i] for i in idx.tolist()], weights[idx])
    return misses, guesses, letters


def solve_group(
    words: list[str], weights: np.ndarray, codes: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """solve_codes for distinct words of one length (`codes`: their letter codes, when already made): the
    kernel, or the plain solver for words longer than it takes."""
    if len(words[0]) <= KERNEL_MAX_LENGTH:
        from pipeline.hangman.kernels import hangman_solve

        return hangman_solve(letter_codes(words) if codes is None else codes, weights)
    n = len(words)
    misses, guesses = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32)
    letters = np.full((n, 26), -1, dtype=np.int8)
    games = solve_plain(words, dict(zip(words, weights.tolist())))
    for i, word in enumerate(words):
        misses[i], guesses[i], sequence = games[word]
        letters[i, : len(sequence)] = [code(ch) for ch in sequence]
    return misses, guesses, letters


def sequences(letters: np.ndarray, guesses: np.ndarray) -> pl.Series:
    """Rows of letter codes (the first guesses[i] of row i) as the string column `sequence`."""
    import pyarrow as pa

    offsets = np.zeros(len(guesses) + 1, dtype=np.int32)
    np.cumsum(guesses, out=offsets[1:])
    data = (letters[letters >= 0].astype(np.uint8) + A_CODE).tobytes()  # each row's codes are a prefix
    column = pa.StringArray.from_buffers(len(guesses), pa.py_buffer(offsets.tobytes()), pa.py_buffer(data))
    return pl.Series("sequence", column, dtype=pl.String)


def solve_lexicon(words: list[str], weights=None) -> pl.DataFrame:
    """The solver against every word of a lexicon (distinct words, any lengths): word, misses, guesses, sequence."""
    misses, guesses, letters = solve_codes(words, weights)
    return pl.DataFrame(
        [
            pl.Series("word", words, dtype=pl.String),
            pl.Series("misses", misses, dtype=pl.UInt8),
            pl.Series("guesses", guesses, dtype=pl.UInt8),
            sequences(letters, guesses),
        ]
    )


def solve_plain(words: list[str], weights: dict[str, int] | None = None) -> dict[str, tuple[int, int, str]]:
    """The same solver as plain recursive Python: word → (misses, guesses, sequence). Slow; the baseline."""
    weights = weights or dict.fromkeys(words, 1)
    results: dict[str, tuple[int, int, str]] = {}

    def play(candidates: list[str], guessed: frozenset, sequence: str, misses: int) -> None:
        """Play out the games of these candidates from here, recording each word's result."""
        if len(candidates) == 1:
            results[candidates[0]] = (misses, len(sequence), sequence)
            return
        mass: dict[str, int] = {}
        for word in candidates:
            for letter in set(word) - guessed:
                mass[letter] = mass.get(letter, 0) + weights[word]
        guess = min(mass, key=lambda letter: (-mass[letter], letter))
        groups: dict[tuple, list[str]] = {}
        for word in candidates:
            groups.setdefault(tuple(i for i, ch in enumerate(word) if ch == guess), []).append(word)
        for where, group in groups.items():
            play(group, guessed | {guess}, sequence + guess, misses + (not where))

    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    for group in by_length.values():
        play(group, frozenset(), "", 0)
    return results
