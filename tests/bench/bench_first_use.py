"""First and second use of the commands that run compiled kernels (numba's; `boggle prove`'s are C), after `make
install`: each command twice in fresh processes (the second with another seed or input, so that no job result is
reused), on ENABLE built into a scratch folder, with the kernels numba compiled meanwhile (WORDSTATS_COMPILE_LOG:
none when `make install` warmed them all). The issue's target: a first use within 2x the second."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench import enable
from tests.bench.timing import process_env

STAGES = ["ingest", "indexes", "gaddag", "leaves", "dictionary", "hangman", "phonics"]
# command → (first use, second use): the same work on other seeds or inputs
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "scrabble best --sim 50": (
        ["scrabble", "best", "--empty", "--rack", "ZIKRVTH", "--sim", "50", "--candidates", "3", "--seed", "1"],
        ["scrabble", "best", "--empty", "--rack", "QUIZERS", "--sim", "50", "--candidates", "3", "--seed", "2"],
    ),
    "boggle best": (
        ["boggle", "best", "--runs", "2", "--steps", "2000", "--seed", "1"],
        ["boggle", "best", "--runs", "2", "--steps", "2000", "--seed", "2"],
    ),
    "boggle prove": (
        ["boggle", "prove", "--size", "3x3", "--floor", "300", "--classes", "AEIO LNRST", "--workers", "1", "-q"],
        ["boggle", "prove", "--size", "3x3", "--floor", "310", "--classes", "AEIO LNRST", "--workers", "1", "-q"],
    ),
    "hangman-learn": (
        ["hangman-learn", "--games", "200", "--seed", "1"],
        ["hangman-learn", "--games", "200", "--seed", "2"],
    ),
    "children's sheet": (
        ["wordlist", "--preset", "cvc-a", "--seed", "1", "--out", "{tmp}/a.pdf"],
        ["wordlist", "--preset", "cvc-a", "--seed", "2", "--out", "{tmp}/b.pdf"],
    ),
}


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one fresh `wordstats` process; a failure is an error, not a figure."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pipeline", *argv], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"wordstats {' '.join(argv)} failed: {done.stderr.strip()[-300:]}")
    return time.perf_counter() - started


def run() -> dict:
    """First and second use of each command, and the kernels compiled meanwhile."""
    skipped = enable.missing()
    if skipped:
        return skipped
    with tempfile.TemporaryDirectory(prefix="wordstats-bench-first-") as tmp:
        data = enable.build(Path(tmp) / "out", STAGES)
        log = Path(tmp) / "compiles.log"
        env = process_env(WORDSTATS_COMPILE_LOG=str(log))
        shared = ["--data-dir", str(data), "--lexicon", enable.LEXICON, "--config", str(enable.CONFIG)]
        rows = {}
        for name, (first, second) in COMMANDS.items():
            a = timed([w.format(tmp=tmp) for w in first] + shared, env)
            b = timed([w.format(tmp=tmp) for w in second] + shared, env)
            rows[name] = {"first_s": round(a, 3), "second_s": round(b, 3), "ratio": round(a / b, 2)}
        compiled = log.read_text().splitlines() if log.is_file() else []
    return {
        "load_average": os.getloadavg(),
        "commands": rows,
        "kernels_compiled": len(compiled),
        "compiled": compiled[:20],
    }
