"""The Hangman solver the slow, obvious way (tests/test_hangman.py and the children's pool's test check the
kernels against it)."""

from __future__ import annotations

from string import ascii_uppercase


def replay(secret: str, lexicon: list[str], weight=lambda word: 1) -> tuple[int, int, str]:
    """One game played the slow, obvious way: count each letter's miss weight, guess, filter the candidates."""
    candidates = [w for w in lexicon if len(w) == len(secret)]
    guessed, sequence, misses = set(), "", 0
    while len(candidates) > 1:

        def miss_weight(letter):
            return sum(weight(w) for w in candidates if letter not in w)  # noqa: B023 (called at once)

        guess = min((c for c in ascii_uppercase if c not in guessed), key=lambda c: (miss_weight(c), c))
        guessed.add(guess)
        sequence += guess
        misses += guess not in secret
        candidates = [w for w in candidates if all((a == guess) == (b == guess) for a, b in zip(w, secret))]
    return misses, len(sequence), sequence
