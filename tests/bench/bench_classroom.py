"""Children's presets cold (a fresh process each, median of 10) on the teacher lexicon, listed and printed as
a PDF sheet, against `python -c "import polars"` in the same run, interleaved; and each preset's pool before and
after the classroom review (block list only, then reviewed words and the sheet's puzzle rules)."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

from pipeline.core.config import load_config
from pipeline.core.progress import SILENT
from pipeline.core.stages import run as run_stages
from pipeline.core.store import Store
from pipeline.wordlists.choices import Choices
from tests.bench.timing import process_seconds

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "default.toml"
REPEAT = 10
PRESETS = ("spelling-3", "blends", "phase-3", "word-search", "scramble", "hangman-easy", "handwriting")


def pools(data: Path, lexicon: str) -> dict[str, dict[str, int]]:
    """Each preset's pool with the block list only and with the review and puzzle rules."""
    import pipeline.wordlists.select as select
    from pipeline.wordlists.settings import load_settings

    config = load_config(CONFIG)
    store = Store(data, lexicon)
    out = {}
    reviewed = select.for_children
    for name in load_settings(config).presets:
        select.for_children = lambda options, printed: False
        before = select.word_list(store, config, name, Choices.of({"count": 10**6})).pool
        select.for_children = reviewed
        after = select.word_list(store, config, name, Choices.of({"count": 10**6}), printed=True).pool
        out[name] = {"block_list_only": before, "reviewed": after}
    return out


def run() -> dict:
    """Cold times of the children's presets and the pools before and after the review."""
    config = load_config(CONFIG)
    lexicon = config.teacher_lexicon
    exe = str(Path(sys.executable).with_name("wordstats"))
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "out"
        run_stages(config, data, lexicon, ["ingest", "hangman", "phonics"], progress=SILENT)
        common = ["--data-dir", str(data), "--config", str(CONFIG)]
        argvs = {}
        for name in PRESETS:
            argvs[name] = [exe, "wordlist", "--preset", name, *common]
            argvs[f"{name} (PDF)"] = [
                exe,
                "wordlist",
                "--preset",
                name,
                "--out",
                f"{tmp}/{name}.pdf",
                "--force",
                *common,
            ]
        for argv in argvs.values():
            process_seconds(argv)  # warm the file cache and the expanded block list's cache
        baseline = [sys.executable, "-c", "import polars"]
        load_before = os.getloadavg()
        base_times: list[float] = []
        times: dict[str, list[float]] = {name: [] for name in argvs}
        for _ in range(REPEAT):
            base_times.append(process_seconds(baseline))
            for name, argv in argvs.items():
                times[name].append(process_seconds(argv))
        sizes = pools(data, lexicon)
    base = statistics.median(base_times)
    return {
        "lexicon": lexicon,
        "repeat": REPEAT,
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
        "baseline": "python -c 'import polars'",
        "baseline_median_s": round(base, 4),
        "presets": {
            name: {
                "median_s": round(statistics.median(t), 4),
                "ratio_to_import_polars": round(statistics.median(t) / base, 2),
            }
            for name, t in times.items()
        },
        "pools": sizes,
    }
