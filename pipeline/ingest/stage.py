"""The ingest stage: word-list sources → words.parquet and ingest_report.json. The words table takes its
playability columns from [playability] reference when that table was played on the lexicon's words
(pipeline/words/playability.py; null otherwise), so no stage after this one feeds it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.core.stages import Output, StageContext
from pipeline.ingest.normalise import merge_sources, read_words
from pipeline.ingest.sources import read_source
from pipeline.ingest.words import word_table
from pipeline.letters.tilesets import TileSet
from pipeline.words.playability import reference_params, word_columns


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The ingest parameters recorded in provenance: the lexicon rules and the tile values used."""
    return {
        "min_length": spec.min_length if spec else None,
        "max_length": spec.max_length if spec else None,
        "drop_capitalised": spec.drop_capitalised if spec else None,
        "fold_accents": spec.fold_accents if spec else None,
        "tile_values": dict(sorted(scrabble_tiles(config).values.items())),
        **{f"playability_{k}": v for k, v in reference_params(config).items()},
    }


def scrabble_tiles(config: Config) -> TileSet:
    """The standard English tile set that gives `scrabble_value` ([tiles.scrabble] in the config)."""
    if "scrabble" not in config.tiles:
        raise WordstatsError(f"{config.path}: field tiles.scrabble: missing (the letter values for scrabble_value)")
    return config.tiles["scrabble"]


def read_sources(ctx: StageContext) -> dict[str, str]:
    """Read the lexicon's word list files, a block at a time, into ctx.sources (each source's distinct words
    and counts, so memory follows the words kept); their sha256 by label."""
    assert ctx.spec is not None
    ctx.sources = [read_words(read_source(src), ctx.spec) for src in ctx.spec.sources]
    return {s.label: s.sha256 for s in ctx.sources}


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The ingest stage: the word list sources → the words table and the ingest report."""
    assert ctx.spec is not None
    words, report = merge_sources(ctx.sources, ctx.spec)
    table = word_table(words, scrabble_tiles(ctx.config))
    reference = ctx.params.get("playability_reference")
    return ctx.result(words=word_columns(table, Path(reference) if reference else None), ingest_report=report)
