"""The leaves reference in the tests: its table (data/raw/leaves-enable.parquet) and the tile counts the fit uses."""

from __future__ import annotations

from pipeline.core.config import load_config
from pipeline.scrabble.rules.variant import variants
from tests.conftest import DEFAULT_CONFIG, ROOT

REFERENCE = ROOT / "data" / "raw" / "leaves-enable.parquet"
COUNTS = variants(load_config(DEFAULT_CONFIG))["scrabble"].tile_set.counts
