"""The hangman stage: hangman.parquet and hangman_summary.json."""

from __future__ import annotations

from dataclasses import asdict

import polars as pl

from pipeline.hangman.difficulty import difficulty_table, summary
from pipeline.hangman.settings import settings


def params(config, spec) -> dict:
    """The hangman parameters recorded in provenance."""
    return asdict(settings(config))


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """The hangman stage: words.parquet → hangman.parquet, hangman_summary.json."""
    s = settings(ctx.config)
    table = difficulty_table(inputs["words"], s)
    return {"hangman.parquet": table, "hangman_summary.json": summary(table, s)}
