"""The toy stage: initials.parquet, the words of at least [toy] min_length letters counted by first letter."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.stages import Output, StageContext


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The [toy] settings: the shortest word counted (default 1)."""
    sec = config.section("toy")
    sec.allow("min_length")
    return {"min_length": sec.integer("min_length", 1, lo=1, hi=45)}


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """One row per first letter: how many words start with it."""
    words = inputs["words"].filter(pl.col("length") >= ctx.params["min_length"])
    initials = words.group_by(pl.col("word").str.slice(0, 1).alias("letter")).agg(pl.len().alias("words"))
    return ctx.result(initials=initials.sort("letter"))
