"""The playability stage: playability.parquet (the points a player would lose over seeded games between equity
players by not knowing each word: losses.py) and playability_summary.json (the top words, the stability of the
ranking between the halves of the games)."""

from __future__ import annotations

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.gaddag import from_table
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.play.jobs import local_processes
from pipeline.scrabble.playability.api import DEFAULT_SEED
from pipeline.scrabble.rules.variant import declared_variant

DEFAULT_GAMES = 20


def params(config: Config, spec: LexiconSpec | None) -> dict:
    """The games and seed of [scrabble.playability] (validated); the variant is that of the leave values."""
    sec = config.section("scrabble").section("playability", {})
    sec.allow("games", "seed")
    variant = config.section("scrabble").section("leaves", {}).text("variant", "scrabble")
    declared_variant(config, variant)
    return {
        "variant": variant,
        "games": sec.integer("games", DEFAULT_GAMES, lo=1, hi=10_000_000),
        "seed": sec.integer("seed", DEFAULT_SEED, lo=0),
    }


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """Playability of every word from the stage's games, and the run's summary."""
    from pipeline.core import executor
    from pipeline.scrabble.playability.job import playability_job
    from pipeline.scrabble.playability.table import playability_table, summary

    p = ctx.params
    variant = declared_variant(ctx.config, p["variant"])
    words = inputs["words"]["word"].to_list()
    lexicon = Lexicon(words)
    lexicon.__dict__["gaddag"] = from_table(inputs["gaddag"])
    leaves = LeaveValues(inputs["leaves"].select("leave", "value"))
    with executor.engine_session(ctx.cluster, local_processes(p["games"])) as engine:
        job = playability_job(variant, lexicon, leaves, p["seed"], p["games"])
        losses = executor.run(job, ctx.data_dir, ctx.lexicon, engine, ctx.progress).tables["losses"]
    table = playability_table(losses, words)
    return {
        "playability.parquet": table,
        "playability_summary.json": summary(table, losses, p["games"], variant.name, p["seed"]),
    }
