"""Ingest's peak memory on generated word lists of 100 MB and 500 MB: the whole `wordstats run ingest`
process, measured by the kernel (its peak resident set). Two kinds of list: ENABLE's words repeated in
shuffled order (the output stays 172,820 words however large the list), and distinct random words (the output
grows with the list). Ingest reads a list a block at a time, so its memory follows the words it keeps, not the
size of the list; the baseline is the same process ingesting ENABLE once."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tests.bench.enable import ROOT

ENABLE = ROOT / "data" / "raw" / "enable1.txt"
SIZES_MB = (100, 500)
SEED = 20261201
CONFIG = ROOT / "tests" / "configs" / "small.toml"
WORD_LETTERS = (6, 14)  # distinct random words have 6 to 13 letters
CHUNK_WORDS = 1 << 20  # words generated at a time


def repeated_list(path: Path, size: int) -> None:
    """ENABLE's words, shuffled afresh each time round, until the file holds `size` bytes."""
    words = np.array(ENABLE.read_text().split())
    rng = np.random.default_rng(SEED)
    written = 0
    with open(path, "w") as fh:
        while written < size:
            text = "\n".join(rng.permutation(words)) + "\n"
            fh.write(text[: size - written])
            written += min(len(text), size - written)


def distinct_list(path: Path, size: int) -> None:
    """Random lower-case words (distinct but for chance repeats, which are rare), until `size` bytes."""
    rng = np.random.default_rng(SEED)
    written = 0
    with open(path, "wb") as fh:
        while written < size:
            lengths = rng.integers(*WORD_LETTERS, CHUNK_WORDS)
            letters = rng.integers(ord("a"), ord("z") + 1, int(lengths.sum() + lengths.size), dtype=np.uint8)
            ends = np.cumsum(lengths + 1) - 1
            letters[ends] = ord("\n")
            data = letters.tobytes()[: size - written]
            fh.write(data)
            written += len(data)


def measure(source: Path, data_dir: Path) -> dict:
    """Peak resident memory, wall time and words kept of `wordstats run ingest` on one list."""
    args = [sys.executable, "-m", "pipeline", "run", "ingest", "--source", str(source), "--lexicon", "big"]
    args += ["--data-dir", str(data_dir), "--config", str(CONFIG), "--quiet"]
    started = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    error = proc.stderr.read() if proc.stderr else ""
    if proc.returncode != 0:
        return {"exit_code": proc.returncode, "error": error.strip()[-500:]}
    import json

    report = json.loads((data_dir / "big" / "ingest_report.json").read_text())
    return {
        "list_bytes": source.stat().st_size,
        "entries": report["entries"],
        "words_kept": report["kept"],
        "seconds": round(seconds, 2),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),  # Linux reports kilobytes
    }


def run() -> dict:
    """Peak memory of ingest: the ENABLE baseline, then each kind of list at each size."""
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="wordstats-ingest-memory-") as tmp:
        folder = Path(tmp)
        results["baseline_enable"] = measure(ENABLE, folder / "out-enable")
        for kind, make in (("repeated", repeated_list), ("distinct", distinct_list)):
            for mb in SIZES_MB:
                source = folder / f"{kind}-{mb}.txt"
                make(source, mb * 1_000_000)
                figure = measure(source, folder / f"out-{kind}-{mb}")
                if "peak_rss_mib" in figure:
                    above = figure["peak_rss_mib"] - results["baseline_enable"]["peak_rss_mib"]
                    figure["peak_above_baseline_mib"] = round(above, 1)
                    figure["bytes_above_baseline_per_word_kept"] = round(above * 2**20 / figure["words_kept"], 1)
                results[f"{kind}_{mb}mb"] = figure
                source.unlink()
    return {"unit": "MiB of peak resident memory (the whole process)", "results": results}
