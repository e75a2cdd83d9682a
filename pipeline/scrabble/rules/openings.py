"""Opening plays: the best first-move score of every word."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np
import polars as pl

from pipeline.letters.alphabet import BLANK
from pipeline.letters.trie import letter_codes
from pipeline.scrabble.rules.notation import position, step
from pipeline.scrabble.rules.variant import ACROSS, DOWN, SIZE, Variant


def opening_placements(variant: Variant, length: int) -> list[tuple[int, int, int]]:
    """(row, col, direction) of every first play of `length` tiles: across the centre row, then down the
    centre column, each from its leftmost (topmost) start."""
    cr, cc = variant.centre
    across = [(cr, c, ACROSS) for c in range(max(0, cc - length + 1), min(cc, SIZE - length) + 1)]
    down = [(r, cc, DOWN) for r in range(max(0, cr - length + 1), min(cr, SIZE - length) + 1)]
    return across + down


def blanks_needed(word: str, variant: Variant) -> dict[str, int]:
    """Per letter, how many of the word's tiles must be blanks because the bag has too few of it."""
    need = Counter(word)
    bag = variant.tile_set.counts
    return {ch: n - bag[ch] for ch, n in need.items() if n > bag[ch]}


def opening_score(word: str, row: int, col: int, direction: int, variant: Variant) -> tuple[int, int]:
    """The score of `word` as a first play from (row, col), and the blanks it needs; the blanks go on
    the squares with the smallest letter premium."""
    dr, dc = step(direction)
    squares = [(row + i * dr, col + i * dc) for i in range(len(word))]
    blank_at: set[int] = set()
    for ch, extra in blanks_needed(word, variant).items():
        spots = sorted((variant.letter_mult[sq], i) for i, sq in enumerate(squares) if word[i] == ch)
        blank_at.update(i for _, i in spots[:extra])
    letter_sum = sum(
        0 if i in blank_at else variant.tile_set.values[ch] * int(variant.letter_mult[sq])
        for i, (ch, sq) in enumerate(zip(word, squares))
    )
    mult = int(np.prod([variant.word_mult[sq] for sq in squares]))
    bingo = variant.bingo_bonus if len(word) == variant.rack_size else 0
    return letter_sum * mult + bingo, len(blank_at)


def openings(words: Iterable[str], variant: Variant) -> pl.DataFrame:
    """For each word of 2 to rack_size letters: its best opening score, where (standard notation), with
    how many blanks, and whether it is a bingo; score null when the bag (blanks included) cannot spell it."""
    by_length: dict[int, list[str]] = {}
    for w in sorted(set(words)):
        if 2 <= len(w) <= variant.rack_size:
            by_length.setdefault(len(w), []).append(w)
    out_words, scores, places, blanks = [], [], [], []
    values = variant.letter_values
    for length, group in sorted(by_length.items()):
        placements = opening_placements(variant, length)
        letter_values = values[letter_codes(group)]  # (n, length)
        totals = np.stack(
            [
                (letter_values * _line(variant.letter_mult, p, length)).sum(axis=1)
                * int(np.prod(_line(variant.word_mult, p, length)))
                for p in placements
            ],
            axis=1,
        )
        best = totals.argmax(axis=1)  # first best: across before down, leftmost first
        bingo = variant.bingo_bonus if length == variant.rack_size else 0
        for i, word in enumerate(group):
            extra = blanks_needed(word, variant)
            if not extra:
                score, p, used = int(totals[i, best[i]]) + bingo, placements[best[i]], 0
            elif sum(extra.values()) > variant.tile_set.counts.get(BLANK, 0):
                score, p, used = None, None, None
            else:
                options = [(opening_score(word, *q, variant), k) for k, q in enumerate(placements)]
                (score, used), k = max(options, key=lambda o: (o[0][0], -o[1]))
                p = placements[k]
            out_words.append(word)
            scores.append(score)
            places.append(position(*p) if p else None)
            blanks.append(used)
    return pl.DataFrame(
        {
            "word": out_words,
            "score": scores,
            "position": places,
            "blanks": blanks,
            "bingo": [len(w) == variant.rack_size for w in out_words],
        },
        schema={"word": pl.String, "score": pl.UInt16, "position": pl.String, "blanks": pl.UInt8, "bingo": pl.Boolean},
    )


def _line(grid: np.ndarray, placement: tuple[int, int, int], length: int) -> np.ndarray:
    """The `length` squares of `grid` a placement covers."""
    row, col, direction = placement
    return grid[row, col : col + length] if direction == ACROSS else grid[row : row + length, col]
