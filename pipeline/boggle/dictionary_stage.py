"""The dictionary stage: boggle_dictionary.parquet, each Boggle variant's compiled dictionary (the trie the
solver walks), so that `boggle solve` and `boggle score` read it instead of compiling the words each time."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipeline.boggle.dictionary import compile_dictionary, dictionary_table
from pipeline.boggle.settings import boggle_variants
from pipeline.core.config import Config, LexiconSpec
from pipeline.core.stages import Output, StageContext


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The rules of every variant (recorded in provenance)."""
    variants = boggle_variants(config)
    return {name: {"min_length": r.min_length, "points": list(r.points)} for name, r in variants.items()}


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """One row per variant: its compiled dictionary of the lexicon's words."""
    words = inputs["words"]["word"].to_list()
    variants = boggle_variants(ctx.config)
    return ctx.result(boggle_dictionary=dictionary_table([compile_dictionary(words, r) for r in variants.values()]))
