"""Letter counts and values, racks and bags as counts, and bag arithmetic (draw probabilities), shared by anagrams,
stems and Scrabble.

Counts are numpy arrays indexed by letter (A = 0 ... Z = 25); a bag or a rack adds index 26 for blanks.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import A_CODE, BLANK, LETTERS
from pipeline.letters.racks import rack_slots, rack_text
from pipeline.letters.tilesets import TileSet

BLANK_INDEX = 26


def bag(tiles: TileSet) -> np.ndarray:
    """The full bag as 27 counts: A–Z, then blanks."""
    return np.array([tiles.counts[c] for c in LETTERS] + [tiles.counts.get(BLANK, 0)], dtype=np.int64)


def letter_values(tiles: TileSet) -> np.ndarray:
    """The score of each letter A–Z (a blank scores 0 whatever it stands for)."""
    return np.array([tiles.values[c] for c in LETTERS], dtype=np.int64)


def letter_counts(text: str) -> np.ndarray:
    """The 26 letter counts of an upper-case word or alphagram."""
    codes = np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int64) - A_CODE
    return np.bincount(codes, minlength=26)[:26]


def letter_matrix(words: pl.Series) -> np.ndarray:
    """The letter counts of upper-case words or alphagrams as an (n, 26) int64 matrix, a row per word."""
    n = words.len()
    if n == 0:
        return np.zeros((0, 26), dtype=np.int64)
    lengths = words.str.len_bytes().to_numpy().astype(np.int64)
    codes = np.frombuffer(words.str.join("").item().encode("ascii"), dtype=np.uint8).astype(np.int64) - A_CODE
    owner = np.repeat(np.arange(n, dtype=np.int64), lengths)
    return np.bincount(owner * 26 + codes, minlength=n * 26).reshape(n, 26)


def rack_counts(text: str) -> np.ndarray:
    """The 27 int64 counts of a rack written in capitals and ?: A–Z, then blanks (racks.rack_slots)."""
    return np.array(rack_slots(text), dtype=np.int64)


def parse_rack(rack: str, what: str = "rack") -> np.ndarray:
    """A rack as typed (at most MAX_RACK tiles and MAX_BLANKS blanks) as its 27 counts."""
    return rack_counts(rack_text(rack, what))


def binomials(n: np.ndarray, k_max: int) -> np.ndarray:
    """C(n[i], k) for k = 0..k_max as an int64 table of shape (len(n), k_max + 1); 0 when k > n."""
    table = np.zeros((len(n), k_max + 1), dtype=np.int64)
    for i, total in enumerate(n):
        for k in range(min(int(total), k_max) + 1):
            table[i, k] = math.comb(int(total), k)
    return table


def combinations(counts: np.ndarray, tiles: TileSet, use_blanks: bool = True) -> np.ndarray:
    """Ways to draw each row of letter counts (n × 26) from the bag, blanks standing in for missing letters.

    A draw is a set of physical tiles: b of the bag's blanks, standing for b of the letters, and for each
    letter its count minus the blanks that stand for it of that letter's tiles (the Zyzzyva definition).
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    full = bag(tiles)
    n_blanks = int(full[BLANK_INDEX]) if use_blanks else 0
    choose = binomials(full[:26], int(counts.max(initial=0)))
    ways = _ways(counts, choose, n_blanks, np.int64)
    # a draw is a set of tiles, so ways <= C(bag, length); check exactness only where that bound passes 2**62
    risky = np.array([draws(int(n), tiles) >= 2**62 for n in counts.sum(axis=1)], dtype=bool)
    if risky.any() and _ways(counts[risky], choose, n_blanks, np.float64).max() >= 2.0**62:
        raise WordstatsError("a word has too many ways to be drawn to count exactly in 64 bits")
    return ways


def _ways(counts: np.ndarray, choose: np.ndarray, n_blanks: int, dtype) -> np.ndarray:
    """combinations(), given the table C(tiles of letter, k) and the number of blanks, in `dtype`."""
    # ways[:, b] = ways to draw the letters seen so far with exactly b blanks standing for some of them
    ways = np.zeros((counts.shape[0], n_blanks + 1), dtype=dtype)
    ways[:, 0] = 1
    top = choose.shape[1] - 1
    for letter in range(26):
        need = counts[:, letter]
        if not need.any():
            continue
        step = np.zeros_like(ways)
        for stand_ins in range(n_blanks + 1):  # blanks standing for this letter
            real = need - stand_ins
            factor = np.where(real >= 0, choose[letter, np.clip(real, 0, top)], 0).astype(dtype)
            for before in range(n_blanks + 1 - stand_ins):
                step[:, before + stand_ins] += ways[:, before] * factor
        ways = step
    pick_blanks = np.array([math.comb(n_blanks, b) for b in range(n_blanks + 1)], dtype=dtype)
    return ways @ pick_blanks


def draws(length: int, tiles: TileSet) -> int:
    """Ways to draw `length` tiles from the full bag: C(bag size, length)."""
    return math.comb(tiles.size, length) if 0 <= length <= tiles.size else 0


def draw_chance(ways: np.ndarray, lengths: np.ndarray, tiles: TileSet) -> np.ndarray:
    """Ways to draw a word divided by all ways to draw as many tiles from the full bag."""
    lengths = np.asarray(lengths, dtype=np.int64)
    totals = np.array([draws(n, tiles) for n in range(int(lengths.max(initial=0)) + 1)], dtype=np.float64)
    ways = np.asarray(ways, dtype=np.float64)
    denominator = totals[lengths]
    return np.divide(ways, denominator, out=np.zeros_like(ways), where=denominator > 0)


def probability(counts: np.ndarray, tiles: TileSet, use_blanks: bool = True) -> np.ndarray:
    """The chance that as many tiles drawn from the full bag can spell each row of letter counts."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    return draw_chance(combinations(counts, tiles, use_blanks), counts.sum(axis=1), tiles)


def unseen(tiles: TileSet, drawn: np.ndarray) -> np.ndarray:
    """The 27 counts left in the bag after `drawn` (26 letters or 27 with blanks) is taken out, never below 0."""
    drawn = np.asarray(drawn, dtype=np.int64)
    if drawn.shape[-1] == 26:
        drawn = np.concatenate([drawn, np.zeros(drawn.shape[:-1] + (1,), dtype=np.int64)], axis=-1)
    return np.clip(bag(tiles) - drawn, 0, None)
