"""Alphagrams, anagram families with draw probabilities, prefixes and hooks: the indexes stage."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from pipeline.anagrams.settings import index_tiles
from pipeline.core.config import Config, LexiconSpec
from pipeline.core.stages import Output, StageContext
from pipeline.letters.tiles import combinations, draw_chance, letter_matrix
from pipeline.letters.tilesets import TileSet


def within_group_rank(group: np.ndarray, order: np.ndarray) -> np.ndarray:
    """1-based rank of each row inside its group, rows taken in `order` (a permutation)."""
    ranked_groups = group[order]
    starts = np.flatnonzero(np.r_[True, ranked_groups[1:] != ranked_groups[:-1]])
    sizes = np.diff(np.r_[starts, len(order)])
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = np.arange(len(order)) - np.repeat(starts, sizes) + 1
    return ranks


def anagram_table(words: pl.DataFrame, tiles: TileSet) -> pl.DataFrame:
    """One row per alphagram: its words, how many ways the bag can deal it and its probability order."""
    families = (
        words.group_by("alphagram")
        .agg(pl.col("length").first(), pl.col("word").sort().alias("words"))
        .sort("alphagram")
        .with_columns(pl.col("words").list.len().cast(pl.UInt32).alias("n_words"))
    )
    ways = combinations(letter_matrix(families["alphagram"]), tiles)
    length = families["length"].to_numpy()
    chance = draw_chance(ways, length, tiles)
    # most probable first; ties by alphagram, which is the row order already
    order = np.lexsort((np.arange(len(ways)), -ways, length))
    return families.with_columns(
        pl.Series("combinations", ways, dtype=pl.Int64),
        pl.Series("probability", chance, dtype=pl.Float64),
        pl.Series("probability_order", within_group_rank(length, order), dtype=pl.UInt32),
    ).select("alphagram", "length", "words", "n_words", "combinations", "probability", "probability_order")


def prefix_table(words: pl.DataFrame) -> pl.DataFrame:
    """Every prefix of every word, the empty one included: is it a word, how many words start with it, next letters."""
    spelled = (
        words.select("word", "length")
        .with_columns(pl.int_ranges(0, pl.col("length") + 1, dtype=pl.UInt32).alias("cut"))
        .explode("cut")
        .select(
            pl.col("word").str.slice(0, pl.col("cut")).alias("prefix"),
            pl.col("word").str.slice(pl.col("cut"), 1).alias("next"),
            (pl.col("cut") == pl.col("length")).alias("complete"),
        )
    )
    return (
        spelled.group_by("prefix")
        .agg(
            pl.col("complete").any().alias("is_word"),
            pl.len().cast(pl.UInt32).alias("n_words"),
            pl.col("next").filter(pl.col("next") != "").unique().sort().alias("next_letters"),
        )
        .sort("prefix")
        .select(
            "prefix",
            pl.col("prefix").str.len_bytes().cast(pl.UInt32).alias("length"),
            "is_word",
            "n_words",
            "next_letters",
        )
    )


def hook_table(words: pl.DataFrame) -> pl.DataFrame:
    """Per word: the letters that make a word in front of it / behind it, and whether it stays a word minus its ends."""
    lexicon = words.select("word")
    longer = words.filter(pl.col("length") >= 2).select("word", "length")
    inner_front = longer.select(pl.col("word").str.slice(1).alias("base"), pl.col("word").str.slice(0, 1).alias("hook"))
    inner_back = longer.select(
        pl.col("word").str.slice(0, pl.col("length") - 1).alias("base"), pl.col("word").str.slice(-1).alias("hook")
    )

    def hooks(pairs: pl.DataFrame, name: str) -> pl.DataFrame:
        """Per base word, the sorted hook letters of the (base, hook) pairs that are words."""
        return (
            pairs.join(lexicon, left_on="base", right_on="word", how="semi")
            .group_by("base")
            .agg(pl.col("hook").unique().sort().alias(name))
        )

    return (
        lexicon.join(hooks(inner_front, "front_hooks"), left_on="word", right_on="base", how="left")
        .join(hooks(inner_back, "back_hooks"), left_on="word", right_on="base", how="left")
        .with_columns(pl.col("front_hooks", "back_hooks").fill_null(pl.lit([], dtype=pl.List(pl.String))))
        .with_columns(
            pl.col("word").str.slice(1).is_in(lexicon["word"].implode()).alias("front_inner"),
            pl.col("word")
            .str.slice(0, pl.col("word").str.len_bytes() - 1)
            .is_in(lexicon["word"].implode())
            .alias("back_inner"),
        )
        .sort("word")
        .select("word", "front_hooks", "back_hooks", "front_inner", "back_inner")
    )


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The tile set used for probabilities, recorded in provenance."""
    name, tiles = index_tiles(config)
    return {"tiles": name, "counts": dict(sorted(tiles.counts.items()))}


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The indexes stage: words → anagrams, prefixes, hooks."""
    words = inputs["words"]
    _, tiles = index_tiles(ctx.config)
    with ctx.progress.task("anagram families, prefixes, hooks", total=3) as task:
        anagrams = anagram_table(words, tiles)
        task.advance()
        prefixes = prefix_table(words)
        task.advance()
        hooks = hook_table(words)
        task.advance()
    return ctx.result(anagrams=anagrams, prefixes=prefixes, hooks=hooks)
