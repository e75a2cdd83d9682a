"""Playability beside other tables' words: the order named once (`--sort playability` of word lists, `--order
playability` of study decks and anagram listings) and the columns it adds (playability, playability_rank)."""

from __future__ import annotations

import polars as pl

from pipeline.core.fields import Field

PLAYABILITY = "playability"  # the order: the words' playability, highest first
COLUMNS = ("playability", "playability_rank")  # what a word table gains from playability.parquet
ORDER = Field(  # a listing's --order: its own order unless playability is asked for
    "order",
    str,
    "playability: most playable words first, with their playability and rank (playability.parquet).",
    metavar="[playability]",
    choices=(PLAYABILITY,),
)


def playability_scan(store, option: str) -> pl.LazyFrame:
    """playability.parquet as (word, playability, playability_rank), or a one-line error naming the option
    that needs it and how to build it."""
    from pipeline.core.errors import WordstatsError

    if not store.exists("playability"):
        raise WordstatsError(
            f"{option} needs playability.parquet, which is not built for lexicon {store.lexicon!r}: "
            f"run `wordstats run playability --lexicon {store.lexicon}` (or `make all`)"
        )
    table = pl.scan_parquet(store.require("playability", ["word", "playability", "rank"]))
    return table.select("word", "playability", pl.col("rank").alias("playability_rank"))


def with_playability(store, table: pl.DataFrame, option: str, column: str = "word") -> pl.DataFrame:
    """The table with each word's playability and rank (upper-cased `column`; rows kept in order)."""
    keys = table.select(pl.col(column).str.to_uppercase().alias("_key")).unique()
    found = playability_scan(store, option).join(keys.lazy(), left_on="word", right_on="_key", how="semi").collect()
    return (
        table.with_columns(pl.col(column).str.to_uppercase().alias("_key"))
        .join(found.rename({"word": "_key"}), on="_key", how="left", maintain_order="left")
        .drop("_key")
    )


def by_playability(table: pl.DataFrame, column: str = "word") -> pl.DataFrame:
    """Rows by playability, highest first (then by `column`); rows without one last."""
    return table.sort(["playability", column], descending=[True, False], nulls_last=True)


def ordered(store, table: pl.DataFrame, order: str | None, option: str = "--order playability") -> pl.DataFrame:
    """A listing as it is, or (order playability) with each word's playability and rank, most playable first
    (within each rack or pattern of a batch)."""
    if order is None or table.is_empty() or "word" not in table.columns:
        return table
    table = with_playability(store, table, option)
    groups = [c for c in ("rack", "pattern") if c in table.columns]
    first = pl.col("_row").min().over(groups) if groups else pl.lit(0)  # each batch where it began
    return (
        table.with_row_index("_row")
        .with_columns(first.alias("_batch"))
        .sort(["_batch", "playability", "word"], descending=[False, True, False], nulls_last=True)
        .drop("_batch", "_row")
    )
