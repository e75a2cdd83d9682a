"""What the CLI asks of Hangman: a word's guess trace, lists by difficulty."""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from pipeline.core.config import LETTERS
from pipeline.core.errors import NotFound, WordstatsError, pick
from pipeline.core.store import MAX_ROWS
from pipeline.hangman.settings import BANDS, setter_weights, settings

if TYPE_CHECKING:
    import numpy as np


def trace(word: str, words: list[str], weights: np.ndarray | None = None) -> list[dict]:
    """The solver's game against `word` (one of `words`, all its length): each guess, hit or miss, what is left."""
    import numpy as np  # here: the hardest-first listing needs no numpy

    from pipeline.letters.trie import letter_codes

    codes = letter_codes(words).astype(np.int64)
    n = len(words)
    weights = np.ones(n, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    has = np.zeros((n, 26), dtype=bool)
    has[np.repeat(np.arange(n), codes.shape[1]), codes.ravel()] = True
    secret = codes[words.index(word)]
    steps: list[dict] = []
    alive, guessed, revealed, misses = np.ones(n, dtype=bool), np.zeros(26, dtype=bool), ["_"] * len(word), 0
    while alive.sum() > 1:
        mass = (has[alive] * weights[alive, None]).sum(axis=0)
        mass[guessed] = -1
        guess = int(np.argmax(mass))  # the first of the heaviest: ties to the alphabetically first letter
        guessed[guess] = True
        hit = secret == guess
        alive &= ((codes == guess) == hit).all(axis=1)
        misses += not hit.any()
        for i in np.flatnonzero(hit):
            revealed[i] = LETTERS[guess]
        steps.append(
            {
                "step": len(steps) + 1,
                "guess": LETTERS[guess],
                "result": "hit" if hit.any() else "miss",
                "pattern": " ".join(revealed),
                "candidates": int(alive.sum()),
                "misses": misses,
            }
        )
    return steps


TRACE_SCHEMA = {
    "step": pl.Int64,
    "guess": pl.String,
    "result": pl.String,
    "pattern": pl.String,
    "candidates": pl.Int64,
    "misses": pl.Int64,
}


def trace_word(store, config, word: str, weighted: bool = False) -> tuple[pl.DataFrame, dict]:
    """The solver's game against `word` in the store's lexicon, a row per guess, and facts about it
    (candidates, misses, rank if built)."""
    from pipeline.anagrams.lookups import parse_letters

    text = parse_letters(word, "word")
    words = (
        store.scan("words", ["word", "length", "zipf"])
        .filter(pl.col("length") == len(text))
        .select("word", "zipf")
        .collect()
        .sort("word")
    )
    names = words["word"].to_list()
    if text not in names:
        raise NotFound(f"{text} is not in lexicon {store.lexicon!r}: the solver only knows the lexicon's words")
    weights = None
    if weighted:
        s = settings(config)
        weights = setter_weights(words["zipf"].to_numpy(), s.prior, s.unknown_zipf)
    steps = trace(text, names, weights)
    facts = {
        "word": text,
        "length": len(text),
        "candidates": len(names),
        "weighted": weighted,
        "misses": steps[-1]["misses"] if steps else 0,
        "guesses": len(steps),
        "sequence": "".join(step["guess"] for step in steps),
    }
    if store.exists("hangman"):
        row = (
            store.scan("hangman", ["word", "rank_in_length", "band", "percentile_in_length"])
            .filter(pl.col("word") == text)
            .select("rank_in_length", "band", "percentile_in_length")
            .collect()
        )
        if row.height:
            facts.update(row.to_dicts()[0])
    return pl.DataFrame(steps, schema=TRACE_SCHEMA), facts


LIST_COLUMNS = [
    "word",
    "length",
    "misses",
    "guesses",
    "sequence",
    "rank_in_length",
    "percentile_in_length",
    "band",
    "misses_weighted",
    "heuristic_band",
]  # of hangman.parquet, as the lists show them


def select(
    store,
    config,
    length: int | tuple[int, int] | None = None,
    hardest: int | None = None,
    easiest: int | None = None,
    band: str | None = None,
    common: bool = False,
) -> pl.DataFrame:
    """Words from hangman.parquet: filtered by length, band, commonness; hardest or easiest first."""
    if hardest is not None and easiest is not None:
        raise WordstatsError("choose one of --hardest and --easiest")
    if band is not None:
        band = pick(band, BANDS, "--band")
    span = (length, length) if isinstance(length, int) else length
    for name, value in (("--hardest", hardest), ("--easiest", easiest), ("--length", span and span[0])):
        if value is not None and value < 1:
            raise WordstatsError(f"{name} must be at least 1, got {value}")
    table = store.scan("hangman", LIST_COLUMNS).join(
        store.scan("words", ["word", "zipf"]).select("word", "zipf"), on="word", how="left"
    )
    if span is not None:
        table = table.filter(pl.col("length").is_between(*span))
    if band is not None:
        table = table.filter(pl.col("band") == band.lower())
    if common:
        table = table.filter(pl.col("zipf") >= settings(config).common_zipf)
    if easiest is not None:
        table = table.sort(["misses", "guesses", "word"]).head(min(easiest, MAX_ROWS))
    else:
        table = table.sort(["misses", "guesses", "word"], descending=[True, True, False])
        table = table.head(min(hardest, MAX_ROWS)) if hardest is not None else table
    found = table.select(*LIST_COLUMNS, "zipf").collect()
    if found.is_empty():
        asked = [
            (f"length {span[0]}" if span[0] == span[1] else f"length {span[0]}-{span[1]}") if span else "",
            f"band {band.lower()}" if band else "",
            "common" if common else "",
        ]
        raise NotFound(f"no words in lexicon {store.lexicon!r} match ({', '.join(a for a in asked if a) or 'all'})")
    return found
