"""Ingest speed: the ingest stage (read, normalise, words table) per default lexicon and for ENABLE."""

from __future__ import annotations

import subprocess
import sys
import tempfile

from pipeline.core.config import adhoc_lexicon, load_config
from pipeline.ingest.sources import read_source
from pipeline.ingest.stage import scrabble_tiles
from pipeline.ingest.words import ingest
from tests.bench.enable import CONFIG, ENABLE, ROOT
from tests.bench.timing import median_seconds

TARGET_ENABLE_SECONDS = 1.0


def stage_seconds(spec, tiles) -> tuple[float, int]:
    """Median time of the ingest stage function (sources read from disk each time) and the words kept."""
    kept = 0

    def once():
        nonlocal kept
        table, _ = ingest([read_source(s) for s in spec.sources], spec, tiles)
        kept = table.height

    return median_seconds(once, repeat=5, warmup=1), kept


def cli_seconds(args: list[str]) -> float:
    """Median wall time of the whole `wordstats run ... ingest` process."""

    def once():
        with tempfile.TemporaryDirectory() as out:
            subprocess.run(
                [sys.executable, "-m", "pipeline", "run", "ingest", "--quiet", "--data-dir", out, *args],
                check=True,
                cwd=ROOT,
            )

    return median_seconds(once, repeat=3, warmup=1)


def run() -> dict:
    """Ingest timings per default lexicon, and for ENABLE when present."""
    config = load_config(CONFIG)
    tiles = scrabble_tiles(config)
    results = {}
    for name, spec in config.lexicons.items():
        seconds, kept = stage_seconds(spec, tiles)
        results[name] = {
            "words": kept,
            "stage_median_s": round(seconds, 4),
            "cli_process_median_s": round(cli_seconds(["--lexicon", name]), 3),
        }
    if ENABLE.is_file():
        seconds, kept = stage_seconds(adhoc_lexicon("enable", [ENABLE]), tiles)
        results["enable"] = {
            "words": kept,
            "stage_median_s": round(seconds, 4),
            "cli_process_median_s": round(cli_seconds(["--source", str(ENABLE), "--lexicon", "enable-adhoc"]), 3),
            "target_s": TARGET_ENABLE_SECONDS,
            "meets_target": seconds < TARGET_ENABLE_SECONDS,
        }
    return {"unit": "seconds", "results": results}
