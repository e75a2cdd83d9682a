"""Racks and hands: the anagram / words / hunt / pattern queries over the anagram index in memory (the lookups
by key, hooks, word and stems, are in lookups.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from pipeline.anagrams.lookups import (  # noqa: F401  (the lookups, also importable from here)
    facts_table,
    hooks,
    lower_first,
    stem,
    study_list,
    top_stems,
    word_facts,
)
from pipeline.core.errors import FieldError, WordstatsError
from pipeline.letters.alphabet import LETTERS, parse_letters
from pipeline.letters.patterns import pattern_regex, pattern_tokens
from pipeline.letters.tiles import BLANK_INDEX, letter_matrix, parse_rack

# ---- the anagram index in memory -----------------------------------------------------------------


class WordIndex:
    """A lexicon's anagram families (anagrams.parquet) in memory, with letter counts per word length.

    Families are addressed by their row in the file; the letter counts of the alphagrams of one length
    are computed the first time a query needs that length.
    """

    COLUMNS = ["alphagram", "length", "words", "probability_order"]

    def __init__(self, families: pl.DataFrame, values: np.ndarray):
        self.values = np.asarray(values, dtype=np.int64)  # tile value of each letter A–Z
        self.alphagrams = families["alphagram"]
        self.length = families["length"].to_numpy().astype(np.int64)
        self.order = families["probability_order"].to_numpy()
        self.words = families["words"].explode()  # every word, family after family
        sizes = families["words"].list.len().to_numpy().astype(np.int64)
        self.first_word = np.cumsum(sizes) - sizes  # index in self.words of each family's first word
        self.n_words = sizes
        self._blocks: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @classmethod
    def load(cls, path: Path, values: np.ndarray) -> WordIndex:
        """Read the index from an anagrams.parquet file."""
        return cls(pl.read_parquet(path, columns=cls.COLUMNS), values)

    def block(self, length: int) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the alphagrams of this length and their letter counts (26 × rows)."""
        if length not in self._blocks:
            rows = np.flatnonzero(self.length == length)
            counts = letter_matrix(self.alphagrams.gather(rows)).astype(np.uint8)  # small: the index stays in memory
            self._blocks[length] = rows, np.ascontiguousarray(counts.T)
        return self._blocks[length]

    def fitting(self, rack: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the alphagrams of length lo..hi made of some of the rack's tiles (27 counts, blanks
        standing for any letter), and their letter counts (rows × 26)."""
        letters, blanks = rack[:26], rack[BLANK_INDEX]
        found_rows, found_counts = [np.zeros(0, dtype=np.int64)], [np.zeros((0, 26), dtype=np.uint8)]
        for length in range(max(lo, 1), min(hi, int(self.length.max(initial=0))) + 1):
            rows, counts = self.block(length)
            covered = np.zeros(len(rows), dtype=np.int64)
            for letter in np.flatnonzero(letters):
                covered += np.minimum(counts[letter], letters[letter])
            keep = np.flatnonzero(length - covered <= blanks)
            found_rows.append(rows[keep])
            found_counts.append(counts[:, keep].T)
        return np.concatenate(found_rows), np.concatenate(found_counts)

    def spread(self, rows: np.ndarray) -> tuple[list[str], np.ndarray]:
        """The words of the families at `rows`, and for each word the index of its family in `rows`."""
        sizes = self.n_words[rows]
        owner = np.repeat(np.arange(len(rows)), sizes)
        rank = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        return self.words.gather(self.first_word[rows][owner] + rank).to_list(), owner

    def plays(self, rows: np.ndarray, counts: np.ndarray, rack: np.ndarray) -> pl.DataFrame:
        """The words of the families at `rows` (letter counts `counts`) spelled from the rack (27 counts):
        word (blanks lower-case), plain, length, score (blanks score 0), blanks (the letters they stand
        for), probability_order."""
        counts = counts.astype(np.int64)
        stand_ins = np.clip(counts - rack[None, :26], 0, None)  # per letter, how many blanks stand for it
        blank_text = _spell_out(stand_ins)
        words, owner = self.spread(rows)
        blanks = [blank_text[i] for i in owner.tolist()]
        return pl.DataFrame(
            {
                "word": pl.Series([lower_first(w, b) for w, b in zip(words, blanks)], dtype=pl.String),
                "plain": pl.Series(words, dtype=pl.String),
                "length": pl.Series(self.length[rows][owner], dtype=pl.UInt32),
                "score": pl.Series(((counts - stand_ins) @ self.values)[owner], dtype=pl.Int64),
                "blanks": pl.Series(blanks, dtype=pl.String),
                "probability_order": pl.Series(self.order[rows][owner], dtype=pl.UInt32),
            }
        )

    def words_at(self, rows: np.ndarray) -> pl.DataFrame:
        """The words of the families at `rows`, one row each: word, length."""
        words, owner = self.spread(rows)
        return pl.DataFrame(
            {"word": pl.Series(words, dtype=pl.String), "length": pl.Series(self.length[rows][owner], dtype=pl.UInt32)}
        )


def _spell_out(stand_ins: np.ndarray) -> list[str]:
    """Rows of per-letter blank counts as text: the letters the blanks stand for, sorted ('' for none)."""
    text = [""] * len(stand_ins)
    for row, letter in zip(*np.nonzero(stand_ins)):
        text[row] += LETTERS[letter] * int(stand_ins[row, letter])
    return text


_INDEXES: dict[tuple, WordIndex] = {}


def load_index(store, values: np.ndarray) -> WordIndex:
    """The lexicon's WordIndex, read once per process (again when anagrams.parquet changes)."""
    path = store.require("anagrams", WordIndex.COLUMNS)
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size, tuple(int(v) for v in values))
    if key not in _INDEXES:
        _INDEXES.clear()
        _INDEXES[key] = WordIndex.load(path, values)
    return _INDEXES[key]


def open_index(store, config) -> WordIndex:
    """The lexicon's WordIndex, scoring with the values of the tile set of [indexes] tiles."""
    from pipeline.anagrams.settings import index_tiles
    from pipeline.letters.tiles import letter_values

    _, tiles = index_tiles(config)
    return load_index(store, letter_values(tiles))


# ---- the word-finding queries ----------------------------------------------------------------------


def anagram(index: WordIndex, rack: str) -> pl.DataFrame:
    """Every word that uses all the tiles of the rack (? = blank), blank-played letters in lower case."""
    tiles = parse_rack(rack)
    size = int(tiles.sum())
    found = index.plays(*index.fitting(tiles, size, size), tiles)
    return found.sort("plain").drop("plain", "length")


def anagram_plus(index: WordIndex, rack: str, through: str | None = None) -> pl.DataFrame:
    """For each board letter (A–Z or `through`), the words that use every rack tile plus that letter."""
    tiles = parse_rack(rack)
    board = sorted(set(parse_letters(through, "--through letters"))) if through is not None else list(LETTERS)
    size = int(tiles.sum()) + 1
    parts = []
    for letter in board:
        with_board = tiles.copy()
        with_board[LETTERS.index(letter)] += 1
        found = index.plays(*index.fitting(with_board, size, size), with_board)
        parts.append(found.sort("plain").select(pl.lit(letter).alias("through"), pl.all()))
    return pl.concat(parts).drop("plain", "length")


def subanagrams(index: WordIndex, hand: str, min_length: int = 1, max_length: int | None = None) -> pl.DataFrame:
    """Every word made from some of the hand's tiles (? = blank), longest then highest-scoring first."""
    tiles = parse_rack(hand, "hand")
    size = int(tiles.sum())
    top = size if max_length is None else min(size, max_length)
    found = index.plays(*index.fitting(tiles, min_length, top), tiles)
    return found.sort(["length", "score", "plain"], descending=[True, True, False]).drop("plain")


def hunt(index: WordIndex, letters: str, center: str | None = None, min_length: int = 1) -> pl.DataFrame:
    """Words spelled only with these letters, each usable any number of times; pangrams use them all."""
    allowed = "".join(sorted(set(parse_letters(letters, "letters"))))
    alphagram = pl.col("alphagram")
    keep = alphagram.str.contains(f"^[{allowed}]+$")
    if center is not None:
        middle = parse_letters(center, "--center letter")
        if len(middle) != 1 or middle not in allowed:
            raise FieldError("{center} {got!r} must be one letter among {allowed}", got=center, allowed=allowed)
        keep &= alphagram.str.contains(middle, literal=True)
    rows = (
        pl.DataFrame({"alphagram": index.alphagrams, "length": index.length})
        .with_row_index("row")
        .filter(keep & (pl.col("length") >= min_length))["row"]
        .to_numpy()
    )
    uses_all = pl.all_horizontal(pl.col("word").str.contains(c, literal=True) for c in allowed)
    return (
        index.words_at(rows)
        .with_columns(uses_all.alias("pangram"))
        .sort(["pangram", "length", "word"], descending=[True, True, False])
    )


def pattern(index: WordIndex, text: str, regex: bool = False) -> pl.DataFrame:
    """Words matching a pattern (? one letter, * any run, [ABC], [^ABC]) or, with regex, a whole-word regex."""
    if regex:
        if not text.strip():
            raise WordstatsError("empty regex")
        expr, lo, hi = f"(?i)^(?:{text.strip()})$", 1, 10**9
    else:
        expr, tokens = pattern_regex(text), pattern_tokens(text)
        lo = sum(token != "*" for token in tokens)
        hi = 10**9 if "*" in tokens else lo
    words = index.words_at(np.flatnonzero((index.length >= lo) & (index.length <= hi)))
    try:
        return words.filter(pl.col("word").str.contains(expr)).sort("word")
    except pl.exceptions.PolarsError as exc:  # "regex parse error:", the regex, a caret, "error: <why>", ...
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()] or [type(exc).__name__]
        why = next((line.removeprefix("error: ") for line in lines if line.startswith("error: ")), lines[0])
        raise WordstatsError(f"bad regex {text!r}: {why}") from None
