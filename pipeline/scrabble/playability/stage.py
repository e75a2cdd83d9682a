"""The playability stage: playability.parquet (the points a player would lose over seeded games between equity
players by not knowing each word: losses.py) and playability_summary.json (the top words, the stability of the
ranking between the halves of the games, and where the games come from). With a reference table ([playability]
reference, the default config's data/raw/playability-enable.parquet: reference.py), the lexicon whose words it
was played on takes its games, in seconds; any other lexicon plays the `games` games of a small sample here."""

from __future__ import annotations

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.registry import value
from pipeline.core.settings import read
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.gaddag import from_table
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.manifest import SETTINGS
from pipeline.scrabble.play.jobs import local_processes
from pipeline.scrabble.rules.variant import declared_variant
from pipeline.words.playability import reference_params


def params(config: Config, spec: LexiconSpec | None) -> dict:
    """The games and seed of [scrabble.playability] (validated) and [playability] reference (path, sha256); the
    variant is that of the leave values."""
    own = read(config.section("scrabble").section("playability", {}), SETTINGS)
    variant = value(config, "scrabble.leaves.variant")
    declared_variant(config, variant)
    return {"variant": variant, "games": own["games"], "seed": own["seed"], **reference_params(config)}


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """Playability of every word from the reference table's games when it covers the lexicon, else from the
    stage's own games; and the run's summary."""
    from pathlib import Path

    from pipeline.scrabble.playability.reference import covers, read_reference
    from pipeline.scrabble.playability.table import summary
    from pipeline.words.playability import playability_table

    p = ctx.params
    words = inputs["words"]["word"].to_list()
    ref = read_reference(Path(p["reference"])) if "reference" in p else None
    if ref is None or not covers(ref, words):
        return sample(inputs, ctx, words)
    table = playability_table(ref.losses, words)
    found = summary(table, ref.losses, ref.games, ref.variant, ref.seed)
    source = {"source": "reference", "reference": p["reference"], "target": ref.target, "partial": ref.partial}
    return {"playability.parquet": table, "playability_summary.json": {**found, **source}}


def sample(inputs: dict[str, pl.DataFrame], ctx, words: list[str]) -> dict[str, object]:
    """Playability of every word from the stage's own `games` games, and the run's summary."""
    from pipeline.core import executor
    from pipeline.scrabble.playability.job import playability_job
    from pipeline.scrabble.playability.table import summary
    from pipeline.words.playability import playability_table

    p = ctx.params
    variant = declared_variant(ctx.config, p["variant"])
    lexicon = Lexicon(words)
    lexicon.__dict__["gaddag"] = from_table(inputs["gaddag"])
    leaves = LeaveValues(inputs["leaves"].select("leave", "value"))
    with executor.engine_session(ctx.cluster, local_processes(p["games"])) as engine:
        job = playability_job(variant, lexicon, leaves, p["seed"], p["games"])
        losses = executor.run(job, ctx.data_dir, ctx.lexicon, engine, ctx.progress).tables["losses"]
    table = playability_table(losses, words)
    return {
        "playability.parquet": table,
        "playability_summary.json": {**summary(table, losses, p["games"], variant.name, p["seed"]), "source": "sample"},
    }
