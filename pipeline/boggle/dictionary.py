"""The Boggle dictionary: a compact trie over cube spellings (QU as Q), with points per word."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

import polars as pl

from pipeline.boggle.rules import Rules
from pipeline.core.errors import WordstatsError

if TYPE_CHECKING:
    import numpy as np


def formable(word: str) -> bool:
    """Whether Boggle cubes can spell the word: every Q is followed by U."""
    return "Q" not in word or word.count("Q") == word.count("QU")


def cube_spelling(word: str) -> str:
    """The word as the cubes spell it: QU becomes Q (the Qu cube)."""
    return word.replace("QU", "Q")


class StoredWords(Sequence[str]):
    """A stored dictionary's words, read into Python strings as they are asked for: one by one (a board's few
    hundred of 170,000), or all at once when iterated."""

    def __init__(self, column: pl.Series):
        self.column = column

    def __len__(self) -> int:
        return self.column.len()

    @overload
    def __getitem__(self, at: int) -> str: ...

    @overload
    def __getitem__(self, at: slice) -> list[str]: ...

    def __getitem__(self, at: int | slice) -> str | list[str]:
        return self.column[at].to_list() if isinstance(at, slice) else self.column[int(at)]  # a numpy integer too

    def __iter__(self) -> Iterator[str]:
        return iter(self.column.to_list())


@dataclass(frozen=True)
class Dictionary:
    """The words a board can score under some rules, as a compact trie over cube spellings."""

    rules: Rules
    words: Sequence[str]  # usual spellings, indexed by word_at
    nodes: np.ndarray  # uint64 per node, see pack_nodes: child letters, points class, first child
    values: np.ndarray  # int32: the points of each points class (class 0 = no word, 0 points)
    points: np.ndarray  # int32: points of the word ending at the node, 0 when none
    rank: np.ndarray  # int32: the word's place, longest first then alphabetical (picks a board's longest word)
    word_at: np.ndarray  # int32: that word's index in `words`, -1 when none
    letter_weights: np.ndarray  # float64 cumulative counts of each cube letter in the words (+1 each)

    def __post_init__(self) -> None:
        for name in ARRAYS:  # one compiled kernel variant for a dictionary built here or read from Parquet
            object.__setattr__(self, name, frozen(getattr(self, name)))

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """(nodes, values, rank): what the kernels walk."""
        return self.nodes, self.values, self.rank

    @property
    def n_nodes(self) -> int:
        """Trie nodes, root included."""
        return int(self.nodes.shape[0])


def frozen(array):
    """A read-only view of a numpy array (`core.arrays.read_only`) or of a buffer (`boggle solve` reads its
    dictionary as buffers, without numpy: `core.buffers`)."""
    if isinstance(array, memoryview):
        return array.toreadonly()
    from pipeline.core.arrays import read_only

    return read_only(array)


# Distinct positive points a dictionary may use: a node's points class is kernels.nodes.NODE_CLASS_MASK (class 0 is
# "no word"); named here too so that reading the config needs no numba import (a test checks they agree).
MAX_POINT_VALUES = 63


def pack_nodes(mask: np.ndarray, first: np.ndarray, points: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
    """Each trie node as one uint64 (its child letters in bits 0-25, the class of its points in bits 26-31,
    its first child in bits 32-63: what a step of the walk reads, in one load), and the points of each class."""
    import numpy as np

    values = np.unique(np.concatenate([[0], points])).astype(np.int32)
    if values.size > MAX_POINT_VALUES + 1 or values[0] < 0:
        raise WordstatsError(
            f"{where}: points must be at least 0 and take at most {MAX_POINT_VALUES} "
            f"different values, got {values.size - 1} positive ones"
        )
    from pipeline.boggle.engine import kernels

    k = kernels()
    classes = np.searchsorted(values, points).astype(np.uint64)
    nodes = (
        mask.astype(np.uint64)
        | (classes << np.uint64(k.NODE_CLASS_SHIFT))
        | (first.astype(np.uint64) << np.uint64(k.NODE_FIRST_SHIFT))
    )
    return nodes, values


def compile_dictionary(words: Sequence[str], rules: Rules) -> Dictionary:
    """The Boggle dictionary of upper-case words under `rules`."""
    import numpy as np

    from pipeline.boggle.engine import kernels
    from pipeline.letters.trie import build_trie, encode

    kept = [w for w in words if len(w) >= rules.min_length and formable(w)]
    usual = {cube_spelling(w): w for w in kept}
    trie = build_trie(list(usual), kernels())
    mask, first, word_at = kernels().trie_compact(trie.children, trie.word_at)
    ordered = tuple(usual[s] for s in trie.words)
    lengths = np.fromiter(map(len, ordered), dtype=np.int32, count=len(ordered))
    table = np.array(rules.points, dtype=np.int32)
    word_points = np.where(lengths >= rules.min_length, table[np.minimum(lengths, len(table) - 1)], 0)
    has = word_at >= 0
    points = np.zeros(mask.shape[0], dtype=np.int32)
    points[has] = word_points[word_at[has]]
    word_rank = np.empty(len(ordered), dtype=np.int32)
    alphabetical = np.empty(len(ordered), dtype=np.int64)
    alphabetical[sorted(range(len(ordered)), key=ordered.__getitem__)] = np.arange(len(ordered))
    word_rank[np.lexsort((alphabetical, -lengths))] = np.arange(len(ordered), dtype=np.int32)
    rank = np.full(mask.shape[0], np.iinfo(np.int32).max, dtype=np.int32)
    rank[has] = word_rank[word_at[has]]
    codes, _ = encode(trie.words)
    letter_counts = np.bincount(codes, minlength=26).astype(np.float64) + 1.0  # every letter stays possible
    nodes, values = pack_nodes(mask, first, points, f"rules {rules.name!r}")
    return Dictionary(rules, ordered, nodes, values, points, rank, word_at, np.cumsum(letter_counts))


# boggle_dictionary.parquet: one row per rules set; its arrays as lists (docs/tables.md).
TABLE_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "variant": pl.String,
    "min_length": pl.Int32,
    "points_table": pl.List(pl.Int32),
    "words": pl.List(pl.String),
    "nodes": pl.List(pl.UInt64),
    "values": pl.List(pl.Int32),
    "points": pl.List(pl.Int32),
    "rank": pl.List(pl.Int32),
    "word_at": pl.List(pl.Int32),
    "letter_weights": pl.List(pl.Float64),
}
ARRAYS = ("nodes", "values", "points", "rank", "word_at", "letter_weights")
TRIE = ("nodes", "values")  # what a proof walks: the trie and the points of its classes
KEYS = ("variant", "min_length", "points_table")  # the rules a row holds


def dictionary_table(dictionaries: list[Dictionary]) -> pl.DataFrame:
    """The compiled dictionaries as a table, a row each."""
    rows = [
        {
            "variant": d.rules.name,
            "min_length": d.rules.min_length,
            "points_table": list(d.rules.points),
            "words": list(d.words),
            **{name: getattr(d, name) for name in ARRAYS},
        }
        for d in dictionaries
    ]
    return pl.DataFrame(rows, schema=TABLE_SCHEMA)


def stored_dictionary(table: pl.DataFrame, rules: Rules, buffers: bool = False) -> Dictionary | None:
    """The dictionary of `rules` from a boggle_dictionary table, or None when it holds no row for exactly them. A
    table of the rules and TRIE columns alone gives the trie alone (see `trie_only`). With `buffers`, its arrays are
    memoryviews, read without numpy (what solving one board needs: `core.buffers`)."""
    row = table.filter(
        (pl.col("variant") == rules.name)
        & (pl.col("min_length") == rules.min_length)
        & (pl.col("points_table") == pl.lit(list(rules.points), dtype=pl.List(pl.Int32)))
    )
    if row.height != 1:
        return None
    read: Callable[[pl.Series], Any] = pl.Series.to_numpy
    if buffers:
        from pipeline.core.buffers import values as read
    if "words" not in row.columns:
        nodes, trie_values = (read(row[name][0]) for name in TRIE)
        return Dictionary(rules, (), nodes, trie_values, *nothing())
    arrays = {name: read(row[name][0]) for name in ARRAYS}
    return Dictionary(rules, StoredWords(row["words"][0]), **arrays)


def nothing() -> tuple:
    """Empty per-node points, ranks and word indices and letter weights: a trie-only dictionary's."""
    import numpy as np

    return np.empty(0, np.int32), np.empty(0, np.int32), np.empty(0, np.int32), np.empty(0, np.float64)


def trie_only(dictionary: Dictionary) -> Dictionary:
    """The dictionary's trie and points alone, what a proof reads: no words, and its per-node points, ranks and
    word indices and its letter weights empty (nothing that solves boards, lists words or rolls them takes it)."""
    return Dictionary(dictionary.rules, (), dictionary.nodes, dictionary.values, *nothing())
