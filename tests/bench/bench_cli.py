"""Cold start of `wordstats sql` and of each query command on ENABLE (a fresh process each time, median of 10),
against `python -c "import polars"` measured in the same run (Python writing its bytecode cache, as a user's
shell has it), interleaved so that machine noise hits both; and
which heavy modules each command imports (a lookup should import neither numba nor numpy)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.bench import enable
from tests.bench.timing import imported_modules, process_env, process_seconds

REPEAT = 10
COMMANDS: dict[str, list[str]] = {
    "sql": ["sql", "SELECT count(*) AS n FROM words"],
    "sql (join)": ["sql", "SELECT w.word, a.n_words FROM words w JOIN anagrams a USING (alphagram) LIMIT 5"],
    "info": ["info"],
    "anagram": ["anagram", "RETAINS"],
    "words": ["words", "RETAIN?", "--limit", "20"],
    "hunt": ["hunt", "RETAINS", "--limit", "20"],
    "pattern": ["pattern", "R?T*S", "--limit", "20"],
    "hooks": ["hooks", "RETAIN"],
    "word": ["word", "RETAINS"],
    "stems": ["stems", "--limit", "10"],
    "stem": ["stem", "RETAIN"],
    "hangman": ["hangman", "--limit", "10"],
    "hangman WORD": ["hangman", "RETAINS"],
    "boggle solve": ["boggle", "solve", "PERSLATGSINETERS"],
    "wordlist": ["wordlist", "--length", "5", "--limit", "10"],
    "scrabble best": ["scrabble", "best", "--empty", "--rack", "RETAINS"],
}


def once(argv: list[str]) -> float:
    """Wall time of one process, in seconds; a failure is an error, not a figure."""
    return process_seconds(argv)


HEAVY = ("numba", "numpy", "duckdb", "rich", "pyarrow", "matplotlib", "ray")


def heavy_imports(argv: list[str]) -> list[str]:
    """The heavy modules a command imports (from `python -X importtime`)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pipeline", *argv[1:]],
        capture_output=True,
        text=True,
        env=process_env(),
    )
    names = imported_modules(done.stderr)
    return [m for m in HEAVY if m in names]


def run() -> dict:
    """Median cold start of each command and of `import polars`, and their ratio."""
    skipped = enable.missing()
    if skipped:
        return skipped
    exe = str(Path(sys.executable).with_name("wordstats"))
    baseline = [sys.executable, "-c", "import polars"]
    with tempfile.TemporaryDirectory() as tmp:
        data = enable.build(Path(tmp) / "out", ["ingest", "indexes", "stems", "hangman", "gaddag", "dictionary"])
        common = ["--lexicon", enable.LEXICON, "--data-dir", str(data), "--config", str(enable.CONFIG)]
        argvs = {name: [exe, *args, *common] for name, args in COMMANDS.items()}
        for argv in argvs.values():  # warm the OS file cache and numba's on-disk cache
            once(argv)
        imports = {name: heavy_imports(argv) for name, argv in argvs.items()}
        load_before = os.getloadavg()
        polars_times: list[float] = []
        times: dict[str, list[float]] = {name: [] for name in argvs}
        for _ in range(REPEAT):
            polars_times.append(once(baseline))
            for name, argv in argvs.items():
                times[name].append(once(argv))
    base = statistics.median(polars_times)
    return {
        "repeat": REPEAT,
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
        "baseline": "python -c 'import polars'",
        "baseline_median_s": round(base, 4),
        "commands": {
            name: {
                "median_s": round(statistics.median(t), 4),
                "ratio_to_import_polars": round(statistics.median(t) / base, 2),
                "imports": imports[name],
            }
            for name, t in times.items()
        },
    }
