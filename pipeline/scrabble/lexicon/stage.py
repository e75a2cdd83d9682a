"""The gaddag stage: gaddag.parquet, the GADDAG of the lexicon's playable words (read by the leaves and
scrabble stages and by every command that generates plays)."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.stages import Output, StageContext
from pipeline.scrabble.lexicon.gaddag import build_gaddag, gaddag_table
from pipeline.scrabble.lexicon.words import Lexicon


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """No settings: the GADDAG depends on the words alone."""
    return {}


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The GADDAG of the words of 2 to 15 letters."""
    lexicon = Lexicon(inputs["words"]["word"].to_list())
    return ctx.result(gaddag=gaddag_table(build_gaddag(lexicon.words)))
