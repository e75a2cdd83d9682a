"""Bingo stems: 6- and 7-letter alphagrams, the letters that make them 7- and 8-letter words, and their odds."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from pipeline.anagrams.indexes import within_group_rank
from pipeline.anagrams.lookups import STEM_LENGTHS
from pipeline.anagrams.manifest import SETTINGS
from pipeline.anagrams.settings import index_tiles
from pipeline.core.config import Config, LexiconSpec
from pipeline.core.settings import read
from pipeline.core.stages import Output, StageContext
from pipeline.letters.tiles import (
    BLANK_INDEX,
    combinations,
    draw_chance,
    letter_matrix,
    unseen,
)
from pipeline.letters.tilesets import TileSet, tile_set


def stem_bingos(anagrams: pl.DataFrame, lengths=STEM_LENGTHS) -> pl.DataFrame:
    """One row per stem and combining letter: the bingos (words of stem + letter), from the anagram families."""
    families = anagrams.filter(pl.col("length").is_in([n + 1 for n in lengths])).select("alphagram", "length", "words")
    alphagram, cut = pl.col("alphagram"), pl.col("cut")
    return (
        families.with_columns(pl.int_ranges(0, pl.col("length"), dtype=pl.UInt32).alias("cut"))
        .explode("cut")
        .filter((cut == 0) | (alphagram.str.slice(cut, 1) != alphagram.str.slice(cut - 1, 1)))  # once per letter
        .select(
            pl.concat_str(alphagram.str.slice(0, cut), alphagram.str.slice(cut + 1)).alias("stem"),
            alphagram.str.slice(cut, 1).alias("letter"),
            "words",
        )
        .sort("stem", "letter")
    )


def stem_table(anagrams: pl.DataFrame, tiles: TileSet) -> pl.DataFrame:
    """The stems table: combining letters, bingos, draw odds and ranks (see README)."""
    stems = (
        stem_bingos(anagrams)
        .group_by("stem", maintain_order=True)
        .agg(
            pl.col("letter").alias("letters"),
            pl.len().cast(pl.UInt32).alias("n_letters"),
            pl.col("words").list.len().sum().cast(pl.UInt32).alias("n_bingos"),
            pl.struct("letter", "words").alias("bingos"),
        )
        .with_columns(pl.col("stem").str.len_bytes().cast(pl.UInt8).alias("stem_length"))
        .sort("stem_length", "stem")
    )
    counts = letter_matrix(stems["stem"])
    length = counts.sum(axis=1)
    chance = draw_chance(combinations(counts, tiles, use_blanks=False), length, tiles)
    completes = letter_matrix(stems["letters"].list.join("")) > 0
    left = unseen(tiles, counts)
    hits = left[:, BLANK_INDEX] + (left[:, :26] * completes).sum(axis=1)
    draw = hits / (tiles.size - length)
    useful = chance * draw
    n_letters, n_bingos = stems["n_letters"].to_numpy(), stems["n_bingos"].to_numpy()
    position = np.arange(stems.height)  # stems are sorted, so position breaks ties by stem
    return stems.with_columns(
        pl.col("stem").str.contains("S", literal=True).alias("has_s"),
        pl.Series("stem_probability", chance, dtype=pl.Float64),
        pl.Series("draw_chance", draw, dtype=pl.Float64),
        pl.Series("usefulness", useful, dtype=pl.Float64),
        _rank("rank_letters", length, (position, -n_bingos.astype(np.int64), -n_letters.astype(np.int64))),
        _rank("rank_bingos", length, (position, -n_letters.astype(np.int64), -n_bingos.astype(np.int64))),
        _rank("rank_usefulness", length, (position, -useful)),
    ).select(
        "stem",
        "stem_length",
        "letters",
        "n_letters",
        "n_bingos",
        "bingos",
        "has_s",
        "stem_probability",
        "draw_chance",
        "usefulness",
        "rank_letters",
        "rank_bingos",
        "rank_usefulness",
    )


def _rank(name: str, length: np.ndarray, keys: tuple) -> pl.Series:
    """Rank 1.. within each stem length by the lexsort keys (last key first)."""
    return pl.Series(name, within_group_rank(length, np.lexsort((*keys, length))), dtype=pl.UInt32)


def stem_tiles(config: Config) -> tuple[str, TileSet]:
    """The tile set named by [stems] tiles (default: the one of [indexes])."""
    name = read(config.section("stems"), SETTINGS)["tiles"] or index_tiles(config)[0]
    return name, tile_set(config, name, "stems.tiles")


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The stem lengths and tile set, recorded in provenance."""
    name, tiles = stem_tiles(config)
    return {"lengths": list(STEM_LENGTHS), "tiles": name, "counts": dict(sorted(tiles.counts.items()))}


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The stems stage: anagram families → stems.parquet."""
    _, tiles = stem_tiles(ctx.config)
    return ctx.result(stems=stem_table(inputs["anagrams"], tiles))
