"""The word pools lists draw from: the tables a filter reads, the children's pool and its Hangman difficulty,
the words that make fair scramble and Hangman puzzles, and the classroom review's split of a pool."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

import polars as pl

from pipeline.core.errors import WordstatsError
from pipeline.core.store import Store
from pipeline.wordlists.puzzles import Banned, misleading, other_answers, scramble
from pipeline.wordlists.settings import Settings
from pipeline.words.children import CHILDREN_GRADE as CHILDREN_GRADE  # the lists' filters name it
from pipeline.words.classroom import Classroom, classroom_vocabulary, offensive_words

COLUMNS = {
    "words": ["word", "length", "zipf"],
    "phonics": [
        "word",
        "syllables",
        "cvc",
        "pattern",
        "blends",
        "digraphs",
        "magic_e",
        "vowel_teams",
        "r_controlled",
        "short_vowels",
        "long_vowels",
        "double_letters",
        "regular",
        "in_cmu",
        "phonemes",
        "dolch",
        "grade",
        "spelling",
        "uk_phase",
        "us_step",
        "graphemes",
    ],
    "hangman": ["word", "band", "expected_misses", "misses", "guesses"],
    "hangman_children": ["word", "band", "expected_misses", "misses", "guesses"],
    "boggle_words": ["word", "find_rate"],
}  # what the filters read of each table


def need_table(store: Store, table: str, option: str) -> pl.LazyFrame:
    """Scan a table a filter needs, or a one-line error naming it and how to build it."""
    if not store.exists(table):
        from pipeline.core.stages import producer

        raise WordstatsError(
            f"{option} needs {table}.parquet, which is not built for lexicon {store.lexicon!r}: "
            f"run `wordstats run {producer(table).name} --lexicon {store.lexicon}` (or `make all`)"
        )
    return store.scan(table, COLUMNS.get(table, ()))


def scramble_pool(
    df: pl.DataFrame, store: Store, settings: Settings, banned: Banned, seed: int = 0
) -> tuple[pl.DataFrame, dict[str, list[str]], list[str]]:
    """The words that make a fair scramble, their other answers (the key gives every one) and, in the same
    order, their scrambled letters: a word whose letters also spell a word a child may know (any reviewed word,
    or a common word of the lexicon) that the review does not keep is left out, and so is a word whose letters
    cannot be shuffled into a non-word free of banned strings (each word shuffled by its own generator, seeded
    by the list's seed and the word, so that a word's letters do not depend on the other words)."""
    vocab = classroom_vocabulary(settings.classroom)
    lengths = sorted(set(df["length"].to_list()))
    lexicon = store.scan("words", ["word", "length", "zipf"]).filter(pl.col("length").is_in(lengths)).collect()
    common = lexicon.filter(pl.col("zipf") >= settings.common_zipf)["word"].to_list()
    known = frozenset(w for w in vocab.decisions if len(w) in lengths) | frozenset(common) | frozenset(df["word"])
    words = df["word"].to_list()
    alternatives = other_answers(words, known)
    everything = frozenset(lexicon["word"].to_list()) | known
    fair, letters = [], []
    for w in words:
        if not all(a in vocab.kept for a in alternatives[w]):
            continue
        try:
            letters.append(scramble(w, random.Random(f"{seed}:{w}"), everything, banned))
        except ValueError:
            continue
        fair.append(w)
    return df.filter(pl.col("word").is_in(fair)), {w: alternatives[w] for w in fair}, letters


def hangman_pool(df: pl.DataFrame, store: Store, settings: Settings) -> pl.DataFrame:
    """The words of `df` with no misleading Hangman reveal state (puzzles.misleading): the unsafe words are the
    offensive words a reader would recognise, the known words the reviewed ones and the lexicon's common words."""
    known = frozenset(classroom_vocabulary(settings.classroom).decisions) | frozenset(common_words(store, settings))
    lexicon = frozenset(store.scan("words", ["word"]).collect()["word"].to_list())
    bad = misleading_words(tuple(df["word"].to_list()), offensive_words(settings.classroom, lexicon | known), known)
    return df.filter(~pl.col("word").is_in(sorted(bad)))


@functools.lru_cache(maxsize=16)  # the page asks for one pool again and again: each seed, each preview, each case
def misleading_words(words: tuple[str, ...], unsafe: frozenset[str], known: frozenset[str]) -> frozenset[str]:
    """The words of a Hangman pool with a misleading reveal state (puzzles.misleading), worked out once per pool,
    unsafe and known words."""
    return frozenset(misleading(list(words), unsafe, known))


def common_words(store: Store, settings: Settings) -> list[str]:
    """The lexicon's common words (Zipf at least the settings' common_zipf), upper case."""
    words = store.scan("words", ["word", "zipf"]).filter(pl.col("zipf") >= settings.common_zipf)
    return words.select("word").collect()["word"].to_list()


def children_hangman(store: Store) -> pl.DataFrame:
    """Hangman difficulty against the children's pool (the hangman_children stage's table)."""
    return need_table(store, "hangman_children", "--children with Hangman").collect()


@dataclass(frozen=True)
class Review:
    """The words of a pool split by the classroom review: kept, excluded, never reviewed."""

    kept: pl.DataFrame
    excluded: int
    unreviewed: int
    dropped: pl.DataFrame  # the rows not kept


UNREVIEWED = "no classroom review decision yet"


def review(df: pl.DataFrame, settings: Settings) -> Review:
    """The rows of `df` whose word has a keep decision, and how many others are excluded or unreviewed."""
    reviewed, keep = reviewed_words(settings.classroom)
    decided = df["word"].is_in(reviewed.implode())
    kept = df["word"].is_in(keep.implode())
    return Review(df.filter(kept), int((decided & ~kept).sum()), int((~decided).sum()), df.filter(~kept))


@functools.lru_cache(maxsize=4)
def reviewed_words(classroom: Classroom) -> tuple[pl.Series, pl.Series]:
    """The words the classroom review decides on, and those it keeps, as columns (made once per review)."""
    vocab = classroom_vocabulary(classroom)
    return pl.Series(sorted(vocab.decisions), dtype=pl.String), pl.Series(sorted(vocab.kept), dtype=pl.String)


def review_reasons(words: list[str], settings: Settings) -> dict[str, str]:
    """Why the review leaves out each of `words` (upper case), in a teacher's words."""
    vocab = classroom_vocabulary(settings.classroom)
    out = {}
    for word in words:
        decision = vocab.decision(word)
        out[word] = UNREVIEWED if decision is None else f"the classroom review leaves it out ({decision.category})"
    return out
