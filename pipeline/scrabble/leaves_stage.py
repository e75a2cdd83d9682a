"""The leaves stage: leaves.parquet (the value of every leave of 1 to 6 tiles) and the GCG records of the
greedy self-play games it learnt from (leaves_games.zip)."""

from __future__ import annotations

import io
import zipfile

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.scrabble.gcg import game_gcg
from pipeline.scrabble.leaves import game_observations, leave_values, merge_summaries, summarise
from pipeline.scrabble.lexicon import Lexicon
from pipeline.scrabble.selfplay import game_rng, self_play
from pipeline.scrabble.variant import Variant, variants

BLOCK = 50  # games per block of observations (the unit a scale-out executor would ship)
GCG_KEPT = 20  # GCG records kept in leaves_games.zip (the first games)


def params(config: Config, spec: LexiconSpec | None) -> dict:
    """The variant, number of games, seed and prior weight of [scrabble.leaves] (validated)."""
    sec = config.section("scrabble").section("leaves", {})
    sec.allow("variant", "games", "seed", "prior_weight")
    known = variants(config)
    name = sec.str("variant", "scrabble")
    if name not in known:
        sec.fail("variant", f"unknown variant {name!r} (declared: {', '.join(known)})")
    return {
        "variant": name,
        "games": sec.int("games", 200, lo=1, hi=10_000_000),
        "seed": sec.int("seed", 0, lo=0),
        "prior_weight": sec.int("prior_weight", 20, lo=0, hi=1_000_000),
    }


def play_block(variant: Variant, lexicon: Lexicon, seed: int, first: int, last: int) -> tuple[pl.DataFrame, list]:
    """Games first..last (inclusive): their leave summary and the games themselves."""
    rows, games = [], []
    for number in range(first, last + 1):
        game = self_play(variant, lexicon, game_rng(seed, variant.name, number))
        rows.extend(game_observations(game, variant))
        games.append(game)
    obs = pl.DataFrame(rows, schema={"leave": pl.String, "next_score": pl.Int32}, orient="row")
    return summarise(obs), games


def gcg_zip(records: list[tuple[str, str]]) -> bytes:
    """GCG records as a zip (fixed timestamps, so the same games give the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in records:
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text)
    return buffer.getvalue()


def learn(variant: Variant, lexicon: Lexicon, games: int, seed: int, prior_weight: float, progress=None, keep_gcg=0):
    """Leave values from `games` seeded greedy games, and the GCG records of the first `keep_gcg` games."""
    parts, records = [], []
    for first in range(1, games + 1, BLOCK):
        last = min(first + BLOCK - 1, games)
        summary, played = play_block(variant, lexicon, seed, first, last)
        parts.append(summary)
        for number, game in zip(range(first, last + 1), played):
            if number <= keep_gcg:
                records.append((f"game-{number:06d}.gcg", game_gcg(game, variant, lexicon="")))
        if progress is not None:
            progress.advance(last - first + 1)
    table = leave_values(merge_summaries(parts), variant.tile_set.counts, prior_weight)
    return table, records


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """Leave values from seeded greedy self-play, and the GCG records of the first games."""
    p = ctx.params
    variant = variants(ctx.config)[p["variant"]]
    lexicon = Lexicon(inputs["words"]["word"].to_list())
    with ctx.progress.task("leave self-play games", total=p["games"]) as task:
        table, records = learn(variant, lexicon, p["games"], p["seed"], p["prior_weight"], task, GCG_KEPT)
    return {"leaves.parquet": table, "leaves_games.zip": gcg_zip(records)}
