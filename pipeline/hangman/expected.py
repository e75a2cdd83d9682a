"""Expected misses over fair tie-breaks: the greedy guesser (the letter held by the most remaining candidates)
with ties broken uniformly at random, each word's expected misses computed exactly (no sampling).

At a state (the candidates still possible and the letters guessed) the guesser picks uniformly among the tied
letters; each splits the candidates by where the letter stands, and a word that lacks it costs a miss. So a word's
expectation is the mean, over the tied letters, of that miss and its expectation in the part it falls in; the
recursion is memoised on the state, and every word of a state is solved at once. When every unguessed letter
is held by a single candidate, guessing is a uniform random order of those letters: a word t misses once for
each other candidate v whose letter comes first, which happens with probability u_v / (u_v + u_t) (u: a word's
unguessed letters), so that state has a closed form. This is the rule of pillowfication's analysis (strategy 1),
whose published SOWPODS values the tests reproduce."""

from __future__ import annotations

import contextlib
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator

ALPHABET = 26
DIGITS = 9  # decimals kept


def letter_masks(words: list[str]) -> list[int]:
    """Each word's letters as a bit mask (bit 0 for A)."""
    masks = []
    for word in words:
        mask = 0
        for ch in word:
            mask |= 1 << (ord(ch) - 65)
        masks.append(mask)
    return masks


def letter_places(word: str) -> list[int]:
    """Where each letter stands in the word, as a bit mask of positions per letter (0 where it does not)."""
    places = [0] * ALPHABET
    for position, ch in enumerate(word):
        places[ord(ch) - 65] |= 1 << position
    return places


def letter_counts(ids: tuple[int, ...], masks: list[int], guessed: int) -> list[int]:
    """How many of the candidates hold each unguessed letter."""
    counts = [0] * ALPHABET
    for i in ids:
        left = masks[i] & ~guessed
        while left:
            low = left & -left
            counts[low.bit_length() - 1] += 1
            left ^= low
    return counts


def no_news(ids: tuple[int, ...], counts: list[int], places: list[list[int]]) -> int:
    """The unguessed letters every candidate holds in the same places, as a mask: a guess of one of them costs
    no miss and splits nothing, so the order in which they are guessed, among themselves or between the
    others, changes no word's misses."""
    first, n = places[ids[0]], len(ids)
    news = 0
    for x in (x for x, count in enumerate(counts) if count == n):
        if all(places[i][x] == first[x] for i in ids):
            news |= 1 << x
    return news


def expected_in_length(words: list[str]) -> list[float]:
    """The expected misses of each of these distinct upper-case words of one length, in their order."""
    if not words:
        return []
    masks = letter_masks(words)
    places = [letter_places(word) for word in words]
    memo: dict[tuple[tuple[int, ...], int], dict[int, float]] = {}

    def unique_letters(ids: tuple[int, ...], guessed: int) -> dict[int, float]:
        """Every unguessed letter held by one candidate: each word's expected misses in closed form."""
        left = {i: bin(masks[i] & ~guessed).count("1") for i in ids}
        return {t: sum(left[v] / (left[v] + left[t]) for v in ids if v != t) for t in ids}

    def solve(ids: tuple[int, ...], guessed: int) -> dict[int, float]:
        """Each candidate's expected misses from the state (ids, guessed) on."""
        key = (ids, guessed)
        if key in memo:
            return memo[key]
        if len(ids) == 1:
            return {ids[0]: 0.0}
        counts = letter_counts(ids, masks, guessed)
        settled = no_news(ids, counts, places)
        if settled:  # letters every candidate holds in the same places: guessing them changes nothing
            return solve(ids, guessed | settled)
        top = max(counts)
        if top == 1:
            memo[key] = unique_letters(ids, guessed)
            return memo[key]
        tied = [x for x in range(ALPHABET) if counts[x] == top]
        total: dict[int, float] = defaultdict(float)
        for x in tied:
            parts: dict[int, list[int]] = defaultdict(list)
            for i in ids:
                parts[places[i][x]].append(i)
            for where, members in parts.items():
                missed = 0.0 if where else 1.0
                if len(members) == 1:  # known now: no more misses
                    total[members[0]] += missed
                    continue
                after = solve(tuple(members), guessed | 1 << x)
                for i in members:
                    total[i] += missed + after[i]
        memo[key] = {i: value / len(tied) for i, value in total.items()}
        return memo[key]

    found = solve(tuple(range(len(words))), 0)  # one level per letter guessed: at most 26 deep
    return [found[i] for i in range(len(words))]


def expected_misses(words: list[str]) -> list[float]:
    """The expected misses of each of these distinct upper-case words (any lengths), in their order, to DIGITS
    decimals (so that equal fractions reached by different sums are equal)."""
    by_length: dict[int, list[int]] = defaultdict(list)
    for i, word in enumerate(words):
        by_length[len(word)].append(i)
    out = [0.0] * len(words)
    for at in by_length.values():
        for i, value in zip(at, expected_in_length([words[i] for i in at])):
            out[i] = round(value, DIGITS)
    return out


@contextlib.contextmanager
def in_background(words: list[str]) -> Iterator[Callable[[], list[float]]]:
    """expected_misses(words) computed by a process of its own (`python -m pipeline.hangman.expected`: plain
    Python, nothing heavy to import) while the caller does other work on the other core; yields the function
    that waits for the answer."""
    import subprocess

    child = subprocess.Popen(
        [sys.executable, "-m", "pipeline.hangman.expected"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("\n".join(words).encode("ascii"))
        child.stdin.close()

        def answer() -> list[float]:
            """The child's answer, once it has finished."""
            assert child.stdout is not None
            values = [float(line) for line in child.stdout.read().split()]
            if child.wait() != 0 or len(values) != len(words):
                return expected_misses(words)  # the child failed: compute it here
            return values

        yield answer
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()


if __name__ == "__main__":  # words on standard input, a line each; their expected misses out, a line each
    print("\n".join(map(repr, expected_misses(sys.stdin.read().split()))))
