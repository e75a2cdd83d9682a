"""The ENABLE word list for benchmarks: where it is, and its tables built into a scratch folder."""

from __future__ import annotations

from pathlib import Path

from pipeline.core.config import load_config
from pipeline.core.progress import SILENT
from pipeline.core.stages import run

ROOT = Path(__file__).resolve().parents[2]
ENABLE = ROOT.parent / "shared" / "corpora" / "enable" / "enable1.txt"
CONFIG = ROOT / "configs" / "default.toml"
LEXICON = "enable"


def missing() -> dict | None:
    """A 'skipped' result when ../shared is absent, else None."""
    if ENABLE.is_file():
        return None
    return {"skipped": f"{ENABLE} not present (../shared is only on developer machines)"}


def build(data_dir: Path, stages: list[str]) -> Path:
    """Build the stages for ENABLE (the config's bundled lexicon 'enable') into data_dir; returns data_dir."""
    run(load_config(CONFIG), data_dir, LEXICON, stages, progress=SILENT)
    return data_dir
