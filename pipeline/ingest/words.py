"""The words table: each word with its length, alphagram, Scrabble value and frequency."""

from __future__ import annotations

import itertools
import math

import numpy as np
import polars as pl

from pipeline.core.config import LexiconSpec
from pipeline.ingest.normalise import merge_sources, read_words
from pipeline.ingest.sources import VOWELS, SourceFile, SourceText
from pipeline.letters.alphabet import LETTERS
from pipeline.letters.tiles import letter_matrix, letter_values
from pipeline.letters.tilesets import TileSet


def zipf_table() -> pl.DataFrame:
    """wordfreq's English list as (lower-case word, zipf), with zipf_frequency's exact rounding."""
    import wordfreq

    pack = wordfreq.get_frequency_list("en", wordlist="best")
    zipf_of_bucket = []
    for index in range(len(pack)):  # wordfreq stores frequencies in centibel buckets: 10 ** (-index / 100)
        f = 10 ** (-index / 100)
        f = round(f, math.floor(-math.log(f, 10)) + 3)
        zipf_of_bucket.append(round(math.log(f, 10) + 9, 2))
    sizes = np.fromiter(map(len, pack), dtype=np.int64, count=len(pack))
    return pl.DataFrame(
        {
            "key": pl.Series(list(itertools.chain.from_iterable(pack)), dtype=pl.String),
            "zipf": pl.Series(np.repeat(np.array(zipf_of_bucket), sizes), dtype=pl.Float64),
        }
    ).unique("key", keep="last", maintain_order=True)  # a word in two buckets: the later one wins, as in wordfreq


def zipf_frequencies(words: pl.Series, table: pl.DataFrame | None = None) -> pl.Series:
    """English Zipf frequency of each word from wordfreq (as zipf_frequency gives it), 0.0 when unknown
    (`table`: zipf_table(), when the caller holds it)."""
    keys = pl.DataFrame({"key": words.str.to_lowercase()})
    table = zipf_table() if table is None else table
    return keys.join(table, on="key", how="left", maintain_order="left")["zipf"].fill_null(0.0)


def alphagrams(counts: np.ndarray) -> pl.Series:
    """Each word's letters in alphabetical order, built from its letter counts."""
    n = counts.shape[0]
    letters = np.tile(np.frombuffer(LETTERS.encode(), dtype=np.uint8), n)
    data = np.repeat(letters, counts.ravel())
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts.sum(axis=1), out=offsets[1:])
    import pyarrow as pa

    array = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data.tobytes()))
    return pl.Series("alphagram", pl.from_arrow(array), dtype=pl.String)


ROWS_AT_ONCE = 1 << 18  # words whose letter counts are held at once (26 integers each) while the table is built


def word_table(words: list[str] | pl.Series, tiles: TileSet) -> pl.DataFrame:
    """The words table: one row per word with its letter statistics, Scrabble value (`tiles`) and frequency,
    built ROWS_AT_ONCE words at a time."""
    word = pl.Series("word", words, dtype=pl.String)
    zipf = zipf_table()
    slices = [word.slice(start, ROWS_AT_ONCE) for start in range(0, max(word.len(), 1), ROWS_AT_ONCE)]
    return pl.concat([word_rows(part, tiles, zipf) for part in slices])


def word_rows(word: pl.Series, tiles: TileSet, zipf: pl.DataFrame) -> pl.DataFrame:
    """The words table's rows of some words (`zipf`: wordfreq's table), in the types of its schema."""
    counts = letter_matrix(word)
    present = counts > 0
    bits = (1 << np.arange(26, dtype=np.uint64)).astype(np.uint64)
    vowel_idx = [LETTERS.index(v) for v in VOWELS]
    return pl.DataFrame(
        {
            "word": word,
            "length": pl.Series(counts.sum(axis=1).astype(np.int32)),
            "alphagram": alphagrams(counts),
            "letter_mask": pl.Series((present.astype(np.uint64) @ bits).astype(np.int64)),
            "vowels": pl.Series(counts[:, vowel_idx].sum(axis=1).astype(np.int32)),
            "distinct_letters": pl.Series(present.sum(axis=1).astype(np.int32)),
            "scrabble_value": pl.Series((counts @ letter_values(tiles)).astype(np.int32)),
            "zipf": zipf_frequencies(word, zipf),
        }
    )


def ingest(texts: list[SourceText | SourceFile], spec: LexiconSpec, tiles: TileSet) -> tuple[pl.DataFrame, dict]:
    """The ingest stage: sources → (words table, ingest report), each source read a block at a time."""
    words, report = merge_sources([read_words(t, spec) for t in texts], spec)
    return word_table(words, tiles), report
