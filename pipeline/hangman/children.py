"""The hangman_children stage: Hangman difficulty against the children's pool (pipeline/words/children.py), for
the children's Hangman lists and sheets: the guesser guesses among the words a child knows; easy, medium and
hard are the thirds of the pool by expected misses over fair tie-breaks, then the deterministic misses and
guesses."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.schemas import declared
from pipeline.core.stages import Output, StageContext
from pipeline.hangman.expected import expected_misses
from pipeline.hangman.settings import BANDS  # easiest first: the pool's thirds
from pipeline.hangman.solver import solve_lexicon
from pipeline.words.children import CHILDREN_GRADE, children_pool
from pipeline.words.classroom import Classroom, classroom_files, classroom_of, settings_file


def classroom(config: Config) -> Classroom:
    """The classroom review and block list the config's word-list settings file names."""
    return classroom_of(settings_file(config))


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The files the pool is chosen by (the word-list settings, their block list and classroom review) and the
    highest grade it takes."""
    return {"grade": CHILDREN_GRADE, "files": classroom_files(classroom(config))}


def banded(pool: list[str]) -> pl.DataFrame:
    """The pool's words solved against the pool and banded by thirds: word, band, expected_misses, misses,
    guesses, sorted by word."""
    fair = pl.Series("expected_misses", expected_misses(pool), pl.Float64)
    solved = solve_lexicon(pool).select("word", "misses", "guesses").with_columns(fair)
    ranked = solved.sort(["expected_misses", "misses", "guesses", "word"]).with_row_index("rank")
    n = max(ranked.height, 1)
    band = (
        pl.when(pl.col("rank") * 3 < n)
        .then(pl.lit(BANDS[0]))
        .when(pl.col("rank") * 3 < 2 * n)
        .then(pl.lit(BANDS[1]))
        .otherwise(pl.lit(BANDS[2]))
    )
    table = ranked.with_columns(band=band).select("word", "band", "expected_misses", "misses", "guesses")
    return table.with_columns(pl.col("misses", "guesses").cast(pl.Int32)).sort("word")


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """words.parquet and phonics.parquet → hangman_children.parquet."""
    pool = children_pool(inputs["words"].lazy(), inputs["phonics"].lazy(), classroom(ctx.config))
    return ctx.result(hangman_children=banded(pool) if pool else pl.DataFrame(schema=declared("hangman_children", {})))
