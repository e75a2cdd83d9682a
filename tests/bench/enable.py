"""The ENABLE word list for benchmarks: where it is, and its tables built into a scratch folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.config import load_config
from pipeline.core.progress import SILENT
from pipeline.core.stages import run

ROOT = Path(__file__).resolve().parents[2]
ENABLE = ROOT.parent / "shared" / "corpora" / "enable" / "enable1.txt"
CONFIG = ROOT / "configs" / "default.toml"
LEXICON = "enable"

if TYPE_CHECKING:
    from pipeline.scrabble.lexicon.words import Lexicon
    from pipeline.scrabble.rules.variant import Variant


def missing() -> dict | None:
    """A 'skipped' result when ../shared is absent, else None."""
    if ENABLE.is_file():
        return None
    return {"skipped": f"{ENABLE} not present (../shared is only on developer machines)"}


def build(data_dir: Path, stages: list[str]) -> Path:
    """Build the stages for ENABLE (the config's bundled lexicon 'enable') into data_dir; returns data_dir."""
    run(load_config(CONFIG), data_dir, LEXICON, stages, progress=SILENT)
    return data_dir


def scrabble_lexicon(data_dir: Path) -> tuple[Variant, Lexicon]:
    """The config's scrabble variant and ENABLE as a Scrabble lexicon with its GADDAG (words and GADDAG built into
    data_dir and read back)."""
    import polars as pl

    from pipeline.scrabble.lexicon.gaddag import from_table
    from pipeline.scrabble.lexicon.words import Lexicon
    from pipeline.scrabble.rules.variant import variants

    build(data_dir, ["ingest", "gaddag"])
    variant = variants(load_config(CONFIG))["scrabble"]
    lexicon = Lexicon(pl.read_parquet(data_dir / LEXICON / "words.parquet")["word"].to_list())
    lexicon.__dict__["gaddag"] = from_table(pl.read_parquet(data_dir / LEXICON / "gaddag.parquet"))
    return variant, lexicon
