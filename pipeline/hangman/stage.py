"""The hangman stage: hangman.parquet and hangman_summary.json."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.stages import Output, StageContext
from pipeline.hangman.difficulty import difficulty_table, optimal_play, summary
from pipeline.hangman.expected import in_background
from pipeline.hangman.settings import settings


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The hangman parameters recorded in provenance."""
    return asdict(settings(config))


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The hangman stage: words.parquet → hangman.parquet, hangman_summary.json."""
    s = settings(ctx.config)
    words = inputs["words"].sort("word")
    names = words["word"].to_list()
    with in_background(names) as fair:  # on the other core while the solvers and the optimal search run
        plays, proofs = optimal_play(names, s.optimal_states, s.optimal_max_words)
        table = difficulty_table(words, s, plays, fair)
    return ctx.result(hangman=table, hangman_summary=summary(table, s, proofs))
