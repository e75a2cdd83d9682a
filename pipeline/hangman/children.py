"""The hangman_children stage: Hangman difficulty against the children's pool (pipeline/words/children.py), for
the children's Hangman lists and sheets: the guesser guesses among the words a child knows; easy, medium and
hard are the thirds of the pool by expected misses over fair tie-breaks, then the deterministic misses and
guesses."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.files import sha256_if_file
from pipeline.core.stages import Output, StageContext
from pipeline.hangman.expected import expected_misses
from pipeline.hangman.solver import solve_lexicon
from pipeline.words.children import CHILDREN_GRADE, children_pool
from pipeline.words.classroom import Classroom, classroom_of, settings_file

BANDS = ("easy", "medium", "hard")  # thirds of the pool, easiest first
SCHEMA = {"word": pl.String, "band": pl.String, "expected_misses": pl.Float64, "misses": pl.Int32, "guesses": pl.Int32}


def classroom(config: Config) -> Classroom:
    """The classroom review and block list the config's word-list settings file names."""
    return classroom_of(settings_file(config))


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The files the pool is chosen by (the word-list settings, their block list and classroom review) and the
    highest grade it takes."""
    c = classroom(config)
    files = {"settings": c.path, "blocklist": c.blocklist, "review": c.review}
    return {
        "grade": CHILDREN_GRADE,
        "files": {name: {"file": path.name, "sha256": sha256_if_file(path)} for name, path in files.items()},
    }


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
    return ctx.result(hangman_children=banded(pool) if pool else pl.DataFrame(schema=SCHEMA))
