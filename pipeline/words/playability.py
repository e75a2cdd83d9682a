"""Playability, a fact about words every package may read: the table of every word's points and rank from the
summed losses of Scrabble games (pipeline/scrabble/playability plays them), the columns the words table gains
from the lexicon's playability reference, and the order named once (`--sort playability` of word lists, `--order
playability` of study decks and anagram listings) with the columns it adds to a listing."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline.core import parts
from pipeline.core.config import Config
from pipeline.core.errors import WordstatsError
from pipeline.core.fields import Field
from pipeline.core.jobs import words_digest
from pipeline.core.registry import value

MILLI = 1000  # losses are summed as integer thousandths of a point
REFERENCE_STAGE = "playability-reference"  # the stage a reference table's footer names
PLAYABILITY_SCHEMA = {"word": pl.String, "playability": pl.Float64, "turns": pl.Int32, "rank": pl.Int32}
LOSSES_TYPES = {"word": pl.String, "half": pl.Int8, "milli": pl.Int64, "turns": pl.Int64}  # job.LOSSES_SCHEMA
WORD_COLUMNS = {"playability": pl.Float64, "playability_rank": pl.Int32}  # what words.parquet gains


def playability_table(losses: pl.DataFrame, words: list[str]) -> pl.DataFrame:
    """Every word with the points lost without it over all the games (0 for a word never needed), the turns whose
    best move formed it, and its rank (1 = most points; words of equal playability share the better rank, so the
    words never needed share the rank after the last needed one), sorted by word."""
    totals = losses.group_by("word").agg(pl.col("milli").sum(), pl.col("turns").sum())
    table = (
        pl.DataFrame({"word": sorted(words)}, schema={"word": pl.String})
        .join(totals, on="word", how="left")
        .with_columns(pl.col("milli").fill_null(0), pl.col("turns").fill_null(0))
    )
    return table.select(
        "word",
        (pl.col("milli") / MILLI).round(3).alias("playability"),
        "turns",
        pl.col("milli").rank("min", descending=True).alias("rank"),
    ).cast(PLAYABILITY_SCHEMA)  # type: ignore[arg-type]


def reference_params(config: Config) -> dict:
    """The path (relative to the config that names it) and digest (pipeline.core.parts.digest: of its parts'
    bytes) of [playability] reference, a folder of parts, so that the stages that read it are stale when it
    changes; nothing when the config names none. A top-level table of its own, so that the ingest stage, which
    reads it, is not stale whenever a Scrabble setting changes."""
    name = value(config, "playability.reference")
    if not name:
        return {}
    path = config.folder("playability", "reference") / name
    if not path.is_dir():
        config.section("playability").fail("reference", f"no such folder of parts: {path}")
    return {"reference": str(path), "reference_sha256": parts.digest(path)}


def reference_parts(path: Path) -> tuple[list[Path], list[pl.DataFrame], list[dict]]:
    """A reference table's parts (a folder of them), each part's losses (word, half, milli, turns: the sums of
    its block's games) and footer; a one-line error naming the folder or the part that is not one."""
    if not path.is_dir():
        raise WordstatsError(f"{path}: not a playability reference table (a folder of part-NNNNN.parquet)")
    files = parts.part_files(path)
    if not files:
        raise WordstatsError(f"{path}: not a playability reference table (no parts)")
    blocks, metas = [parts.read_part(f) for f in files], parts.footers(files)
    games = 0
    for part, block, meta in zip(files, blocks, metas):
        if meta.get("stage") != REFERENCE_STAGE or not {"word", "half", "milli", "turns"} <= set(block.columns):
            raise WordstatsError(f"{part}: not a playability reference table's part (columns {block.columns})")
        if _run_keys(meta) != _run_keys(metas[0]):
            raise WordstatsError(f"{part}: not a part of the table its first part begins (another run's keys)")
        if not isinstance(meta.get("params"), dict) or int(meta["params"].get("games", 0)) <= games:
            raise WordstatsError(f"{part}: does not hold games after those of the part before it")
        games = int(meta["params"]["games"])
    return files, blocks, metas


def _run_keys(meta: dict) -> tuple:
    """What every part of one reference table shares: the lexicon, the variant and seed, the inputs' digests."""
    p = meta["params"] if isinstance(meta.get("params"), dict) else {}
    return meta.get("lexicon"), p.get("variant"), p.get("seed"), meta.get("inputs")


def reference_file(path: Path) -> tuple[pl.DataFrame, dict]:
    """A reference table's losses summed over its parts (word, half, milli, turns; sorted by word and half) and
    the footer of its last part (the table as it stands); a one-line error naming the part that is not one."""
    _, blocks, metas = reference_parts(path)
    frames = [b.select("word", "half", "milli", "turns").cast(LOSSES_TYPES) for b in blocks]  # type: ignore[arg-type]
    losses = (
        pl.concat(frames)
        .group_by("word", "half")
        .agg(pl.col("milli").sum(), pl.col("turns").sum())
        .sort("word", "half")
    )
    return losses.cast(LOSSES_TYPES), metas[-1]  # type: ignore[arg-type]


def covered(meta: dict, words: list[str]) -> bool:
    """Whether the table's games were played on a words table of exactly these words."""
    return (meta.get("inputs") or {}).get("table_words") == words_digest(sorted(words))


def word_columns(words: pl.DataFrame, reference: Path | None) -> pl.DataFrame:
    """The words table with each word's playability and rank from the reference table when it was played on
    this lexicon's words; null for every word otherwise (rows kept in order)."""
    found = None
    if reference is not None:
        losses, meta = reference_file(reference)
        if covered(meta, words["word"].to_list()):
            found = playability_table(losses, words["word"].to_list())
    if found is None:
        return words.with_columns(pl.lit(None, dtype).alias(name) for name, dtype in WORD_COLUMNS.items())
    ranks = found.select("word", "playability", pl.col("rank").alias("playability_rank"))
    return words.join(ranks, on="word", how="left", maintain_order="left")


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
