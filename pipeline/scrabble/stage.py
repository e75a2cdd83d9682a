"""The scrabble stage: openings.parquet, selfplay.parquet, selfplay_summary.json (the GADDAG is read from
gaddag.parquet; equity self-play reads leaves.parquet)."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.core.sections import Section
from pipeline.core.settings import read
from pipeline.core.stages import Output, StageContext
from pipeline.scrabble.equity.strategy import Equity
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.gaddag import from_table
from pipeline.scrabble.lexicon.words import Lexicon
from pipeline.scrabble.manifest import SETTINGS
from pipeline.scrabble.play.strategy import GREEDY, Strategy
from pipeline.scrabble.play.summary import SELFPLAY_SCHEMA, selfplay_summary
from pipeline.scrabble.rules.openings import openings
from pipeline.scrabble.rules.variant import Variant, variant_params, variants


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The variants and the openings / self-play settings (validated)."""
    known = variants(config)
    sec = config.section("scrabble")

    def chosen(sub: Section, names: tuple[str, ...] | None) -> list[str]:
        """The variants a sub-section lists (default all), each a declared one."""
        for name in names or ():
            if name not in known:
                sub.fail("variants", f"unknown variant {name!r} (declared: {', '.join(known)})")
        return list(known) if names is None else list(names)

    opening_sec, selfplay_sec = sec.section("openings", {}), sec.section("selfplay", {})
    opening, selfplay = read(opening_sec, SETTINGS), read(selfplay_sec, SETTINGS)
    strategy = selfplay["strategy"]
    played = chosen(selfplay_sec, selfplay["variants"])
    if strategy == "equity":
        leaves_variant = sec.section("leaves", {}).text("variant", "scrabble")
        others = [name for name in played if name != leaves_variant]
        if others:
            selfplay_sec.fail(
                "strategy",
                f"equity play uses the leave values of variant {leaves_variant!r} ([scrabble.leaves]); "
                f"set variants = [{leaves_variant!r}] (now also {', '.join(others)})",
            )
    return {
        "variants": {name: {k: x for k, x in variant_params(v).items() if k != "name"} for name, v in known.items()},
        "openings": {"variants": chosen(opening_sec, opening["variants"])},
        "selfplay": {"variants": played, "games": selfplay["games"], "seed": selfplay["seed"], "strategy": strategy},
    }


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """Best opening scores of every short word, and seeded self-play games (greedy, or both players by
    equity with leaves.parquet)."""
    known = variants(ctx.config)
    words = inputs["words"]["word"].to_list()
    lexicon = Lexicon(words)
    lexicon.__dict__["gaddag"] = from_table(inputs["gaddag"])
    player: Strategy = GREEDY
    if ctx.params["selfplay"]["strategy"] == "equity":
        if "leaves" not in inputs:
            raise WordstatsError("[scrabble.selfplay] strategy = 'equity' needs leaves.parquet: run the leaves stage")
        player = Equity(LeaveValues(inputs["leaves"]))
    table = None
    for name in ctx.params["openings"]["variants"]:
        part = openings(lexicon.words, known[name])
        part = part.rename({c: f"{name}_{c}" for c in part.columns if c != "word"})
        table = part if table is None else table.join(part, on="word", how="full", coalesce=True)
    if table is None:
        table = pl.DataFrame({"word": []}, schema={"word": pl.String})
    table = table.sort("word").with_columns(pl.col("word").str.len_chars().cast(pl.UInt8).alias("length"))
    table = table.select("word", "length", pl.exclude("word", "length"))
    sp = ctx.params["selfplay"]
    games = selfplay_games([known[name] for name in sp["variants"]], lexicon, sp["seed"], sp["games"], ctx, player)
    return ctx.result(openings=table, selfplay=games, selfplay_summary=selfplay_summary(games))


def selfplay_games(
    chosen: list[Variant], lexicon: Lexicon, seed: int, games: int, ctx: StageContext, player: Strategy = GREEDY
) -> pl.DataFrame:
    """Games 1..`games` of each variant (both players of the one strategy), sharded on the engine of the
    config's [cluster] address."""
    from pipeline.core import executor
    from pipeline.scrabble.play.jobs import local_processes, selfplay_job

    frames = [pl.DataFrame(schema=SELFPLAY_SCHEMA)]
    if games == 0 or not chosen:
        return frames[0]
    with executor.engine_session(ctx.cluster, local_processes(games)) as engine:
        for v in chosen:
            job = executor.run(
                selfplay_job(v, lexicon, seed, games, strategies=(player, player)),
                ctx.data_dir,
                ctx.lexicon,
                engine,
                ctx.progress,
            )
            frames.append(job.tables["games"])
    return pl.concat(frames)
