"""The ingest stage: word-list sources → words.parquet and ingest_report.json."""

from __future__ import annotations

from pipeline.core.config import LexiconSpec, TileSet
from pipeline.core.errors import WordstatsError
from pipeline.ingest.words import ingest


def params(config, spec: LexiconSpec | None) -> dict:
    """The ingest parameters recorded in provenance: the lexicon rules and the tile values used."""
    return {
        "min_length": spec.min_length if spec else None,
        "max_length": spec.max_length if spec else None,
        "drop_capitalised": spec.drop_capitalised if spec else None,
        "fold_accents": spec.fold_accents if spec else None,
        "tile_values": dict(sorted(scrabble_tiles(config).values.items())),
    }


def scrabble_tiles(config) -> TileSet:
    """The standard English tile set that gives `scrabble_value` ([tiles.scrabble] in the config)."""
    if "scrabble" not in config.tiles:
        raise WordstatsError(f"{config.path}: field tiles.scrabble: missing (the letter values for scrabble_value)")
    return config.tiles["scrabble"]


def build(inputs: dict, ctx) -> dict:
    """The ingest stage."""
    words, report = ingest(ctx.sources, ctx.spec, scrabble_tiles(ctx.config))
    return {"words.parquet": words, "ingest_report.json": report}
