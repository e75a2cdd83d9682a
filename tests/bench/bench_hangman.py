"""Hangman over the whole web2 lexicon: the decision-tree kernel vs a plain recursive Python solver.

Two word sets, both from the installed `english-words` package as the config reads it: the configured
`web2` lexicon (lower-case entries, 210,768 words) and the full web2 set upper-cased, capitalised entries
(proper nouns) included. Each is timed for the reference solver (kernel), the whole hangman stage (both
solvers, ranks, bands, heuristic, summary) and the plain recursive Python solver, all in this one run.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path

from pipeline.core.config import PROJECT_ROOT, load_config
from pipeline.core.progress import SILENT
from pipeline.core.stages import run as run_stages
from pipeline.core.store import Store
from pipeline.hangman.difficulty import difficulty_table, summary
from pipeline.hangman.settings import defaults
from pipeline.hangman.solver import solve_lexicon, solve_plain
from pipeline.ingest.sources import read_source
from pipeline.ingest.stage import scrabble_tiles
from pipeline.ingest.words import ingest
from tests.bench.timing import median_seconds

REPEAT = 5
PLAIN_REPEAT = 3


def lexicons() -> dict:
    """The configured web2 words table and the full upper-cased web2 set (capitalised entries kept)."""
    config = load_config(PROJECT_ROOT / "configs" / "default.toml")
    spec = config.lexicon("web2")
    texts = [read_source(src) for src in spec.sources]
    full = dataclasses.replace(spec, name="web2-full", drop_capitalised=False)
    return {name: ingest(texts, s, scrabble_tiles(config))[0] for name, s in (("web2", spec), ("web2_full", full))}


def stage_with_files(name: str, words) -> float:
    """Median time of `wordstats run hangman` in-process: read words.parquet, solve, write both files."""
    config = load_config(PROJECT_ROOT / "configs" / "default.toml")
    with tempfile.TemporaryDirectory() as tmp:
        Store(Path(tmp), name).write({"words.parquet": words}, {"stage": "ingest"})
        return median_seconds(lambda: run_stages(config, Path(tmp), name, ["hangman"], progress=SILENT), repeat=3)


def measure(name: str, words) -> dict:
    """Times (medians) of the kernel solver, the whole stage and the plain solver on one words table."""
    names = words["word"].to_list()
    s = defaults()
    started = time.perf_counter()
    kernel = solve_lexicon(names)  # first call: loads (or compiles) the numba kernel
    first_call = time.perf_counter() - started
    solver = median_seconds(lambda: solve_lexicon(names), repeat=REPEAT)
    stage = median_seconds(lambda: summary(difficulty_table(words, s), s), repeat=REPEAT)
    with_files = stage_with_files(name, words)
    plain_result = solve_plain(names)
    plain = median_seconds(lambda: solve_plain(names), repeat=PLAIN_REPEAT, warmup=0)
    agree = {w: (m, g, q) for w, m, g, q in kernel.iter_rows()} == plain_result
    return {
        "words": len(names),
        "lengths": words["length"].n_unique(),
        "kernel_first_call_s": round(first_call, 4),
        "solver_s": round(solver, 4),
        "stage_s": round(stage, 4),
        "stage_with_files_s": round(with_files, 4),
        "plain_python_s": round(plain, 4),
        "speedup_solver_vs_plain": round(plain / solver, 2),
        "speedup_stage_vs_plain": round(plain / stage, 2),
        "kernel_agrees_with_plain": agree,
        "target_stage_under_3s": stage < 3.0,
        "target_5x_plain": plain / solver >= 5.0,
    }


def run() -> dict:
    """Measure both web2 word sets."""
    results = {name: measure(name, words) for name, words in lexicons().items()}
    return {
        "what": "reference Hangman solver over every word of the lexicon (all lengths); solver_s = the "
        "numba decision-tree kernel (one solver), stage_s = the whole hangman stage in memory (both "
        "solvers, ranks, bands, heuristic, summary; no file I/O), stage_with_files_s = `wordstats run "
        "hangman` in-process (reads words.parquet, writes hangman.parquet and the summary with "
        "provenance; 3 runs), plain_python_s = the plain recursive Python solver (hangman.solve_plain) "
        f"on the same full word set, no sampling; medians of {REPEAT} runs ({PLAIN_REPEAT} for plain) "
        "after a warm-up",
        "baseline": "plain_python_s",
        "targets": "whole web2 under 3 s; at least 5x the plain version",
        **results,
    }
