"""Published leave values beside ours: data/raw/leaves-published.csv holds Macondo's (its NWL23 leaves, every
leave listed there) and Quackle's (its single-tile worths) for the single tiles and the leaves most often kept
in the reference run (data/raw/SOURCES.md says where each number comes from)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline.core.config import PROJECT_ROOT
from pipeline.core.errors import WordstatsError

PUBLISHED = PROJECT_ROOT / "data" / "raw" / "leaves-published.csv"
SOURCES = ("macondo", "quackle")
COMMON = 100  # the leaves most often observed whose signs are compared


def published(path: Path = PUBLISHED) -> pl.DataFrame:
    """The published values: leave, then one column per source (null where that source gives none)."""
    schema = {"leave": pl.String, **{s: pl.Float64 for s in SOURCES}}
    try:
        return pl.read_csv(path, schema=schema)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise WordstatsError(f"{path}: unreadable published leave values ({str(exc).splitlines()[0]})") from None


def single_tile_spearman(ours: pl.DataFrame, values: pl.DataFrame) -> dict[str, float]:
    """Per source, the Spearman rank correlation of our single-tile values with its values."""
    both = ours.filter(pl.col("length") == 1).select("leave", "value").join(values, on="leave")
    return {s: float(both.select(pl.corr("value", s, method="spearman")).item()) for s in SOURCES}


def common_leaves(ours: pl.DataFrame, number: int = COMMON) -> pl.DataFrame:
    """Our `number` leaves most often observed (ties by leave), with their values."""
    return ours.sort(["count", "leave"], descending=[True, False]).head(number).select("leave", "count", "value")


def sign_disagreements(ours: pl.DataFrame, values: pl.DataFrame, number: int = COMMON) -> pl.DataFrame:
    """Those of our `number` most common leaves whose value has the other sign than Macondo's, or that the
    published table lacks (macondo null)."""
    common = common_leaves(ours, number).join(values.select("leave", "macondo"), on="leave", how="left")
    return common.filter(pl.col("macondo").is_null() | ((pl.col("value") > 0) != (pl.col("macondo") > 0)))
