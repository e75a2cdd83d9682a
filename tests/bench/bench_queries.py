"""Query latency on ENABLE: warm (in-process, index loaded) and cold (a fresh CLI process), for 7-tile racks
with 0, 1 and 2 blanks, against the straightforward approach (scan every word, compare sorted letters).

Targets: anagram with 2 blanks < 5 ms warm and ≥ 100× the scan; subanagrams of a 7-tile hand with
2 blanks < 50 ms warm; cold CLI < 0.5 s.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench import enable
from tests.bench.timing import median_seconds

BLANKS = (0, 1, 2)
RACKS_PER_GROUP = 8  # warm figures and scans use the same racks
COLD_RACKS = 3  # racks per group for cold CLI runs
SEED = 20240603


def racks(blanks: int, n: int, seed: int = SEED) -> list[str]:
    """n racks of 7 tiles drawn from the Scrabble bag without replacement, `blanks` of them blanks."""
    from pipeline.core.config import load_config
    from pipeline.letters.alphabet import LETTERS

    tiles = load_config(enable.CONFIG).tiles["scrabble"]
    bag = [c for c in LETTERS for _ in range(tiles.counts[c])]
    rng = random.Random(seed + blanks)
    return ["".join(sorted(rng.sample(bag, 7 - blanks))) + "?" * blanks for _ in range(n)]


# ---- the straightforward approach ----------------------------------------------------------------


def fits_sorted(word_letters: list[str], rack_letters: list[str], blanks: int, every_tile: bool) -> bool:
    """Walk two sorted letter lists: does the word take its letters from the rack, blanks filling in?"""
    i = unmatched = 0
    for ch in word_letters:
        while i < len(rack_letters) and rack_letters[i] < ch:
            i += 1
        if i < len(rack_letters) and rack_letters[i] == ch:
            i += 1
        else:
            unmatched += 1
    if every_tile:
        return unmatched == blanks and len(word_letters) == len(rack_letters) + blanks
    return unmatched <= blanks


def scan(words: list[str], rack: str, every_tile: bool) -> list[str]:
    """Every word whose sorted letters fit the rack's (anagrams when every_tile, else subanagrams)."""
    rack_letters = sorted(rack.replace("?", ""))
    blanks = rack.count("?")
    if every_tile and blanks == 0:
        return [w for w in words if sorted(w) == rack_letters]
    return [w for w in words if fits_sorted(sorted(w), rack_letters, blanks, every_tile)]


def scan_plus(words: list[str], rack: str) -> list[tuple[str, str]]:
    """For each letter A–Z, scan for the anagrams of rack + letter."""
    return [(c, w) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for w in scan(words, rack + c, every_tile=True)]


# ---- measuring -------------------------------------------------------------------------------------


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def warm(fn, args: list) -> tuple[float, list[float]]:
    """Median over args of the median time of fn(arg), in ms; and the per-arg medians."""
    each = [median_seconds(lambda a=a: fn(a), repeat=7, warmup=2) for a in args]
    return ms(statistics.median(each)), each


def cold(argv: list[str], data_dir: Path) -> float:
    """Wall time of one `wordstats` process, in seconds."""
    exe = Path(sys.executable).with_name("wordstats")
    env = {**os.environ, "WORDSTATS_QUIET": "1"}
    start = time.perf_counter()
    done = subprocess.run(
        [str(exe), *argv, "--lexicon", enable.LEXICON, "--data-dir", str(data_dir), "--config", str(enable.CONFIG)],
        capture_output=True,
        env=env,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"wordstats {' '.join(argv)} failed: {done.stderr.decode()[:300]}")
    return elapsed


def run() -> dict:
    """Warm and cold query latencies on ENABLE, and the scan they replace."""
    skipped = enable.missing()
    if skipped:
        return skipped
    import polars as pl

    from pipeline.anagrams.queries import (
        anagram,
        anagram_plus,
        hooks,
        hunt,
        open_index,
        pattern,
        stem,
        subanagrams,
        top_stems,
        word_facts,
    )
    from pipeline.core.config import load_config
    from pipeline.core.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        data = enable.build(Path(tmp), ["indexes", "stems"])
        store = Store(data, enable.LEXICON)
        words = pl.read_parquet(store.path("words"), columns=["word"])["word"].to_list()
        started = time.perf_counter()
        index = open_index(store, load_config(enable.CONFIG))
        load_ms = ms(time.perf_counter() - started)
        for n in range(1, 16):
            index.block(n)  # "lexicon already loaded": every length's letter counts ready

        groups = {b: racks(b, RACKS_PER_GROUP) for b in BLANKS}
        kinds = {
            "anagram": lambda r: anagram(index, r),
            "anagram_plus": lambda r: anagram_plus(index, r),
            "words": lambda r: subanagrams(index, r),
            "pattern": lambda r: pattern(index, r),
        }
        warm_ms, per_rack = {}, {}
        for kind, fn in kinds.items():
            warm_ms[kind] = {}
            for b, group in groups.items():
                warm_ms[kind][str(b)], per_rack[(kind, b)] = warm(fn, group)
        letters = [sorted(set(r.replace("?", ""))) for r in groups[0]]
        warm_ms["hunt"] = warm(lambda ls: hunt(index, "".join(ls), ls[0], 4), letters)[0]
        sample = [words[i] for i in range(0, len(words), len(words) // RACKS_PER_GROUP)][:RACKS_PER_GROUP]
        warm_ms["hooks"] = warm(lambda w: hooks(store, w), sample)[0]
        warm_ms["word"] = warm(lambda w: word_facts(store, w), sample)[0]
        warm_ms["stems"] = warm(lambda o: top_stems(store, 7, o, 50), ["letters", "bingos", "usefulness"])[0]
        warm_ms["stem"] = warm(lambda s: stem(store, s), ["AEIRST", "AEINST", "EINRST"])[0]

        scan_ms = {"anagram": {}, "words": {}, "anagram_plus": {}}
        speedup = {"anagram": {}, "words": {}, "anagram_plus": {}}
        agrees = True
        for b, group in groups.items():
            for kind, fn in (("anagram", lambda r: scan(words, r, True)), ("words", lambda r: scan(words, r, False))):
                each = [median_seconds(lambda r=r: fn(r), repeat=1, warmup=0) for r in group]  # noqa: B023 (called at once)
                scan_ms[kind][str(b)] = ms(statistics.median(each))
                speedup[kind][str(b)] = round(statistics.median(each) / statistics.median(per_rack[(kind, b)]), 1)
            plus = median_seconds(lambda: scan_plus(words, group[0]), repeat=1, warmup=0)  # noqa: B023 (called at once)
            scan_ms["anagram_plus"][str(b)] = ms(plus)
            speedup["anagram_plus"][str(b)] = round(plus / per_rack[("anagram_plus", b)][0], 1)
            for r in group:
                agrees &= sorted(w.upper() for w in anagram(index, r)["word"]) == scan(words, r, True)
                agrees &= sorted(w.upper() for w in subanagrams(index, r)["word"]) == scan(words, r, False)

        cold_s = {}
        for kind, argv in (
            ("anagram", ["anagram"]),
            ("anagram_plus", ["anagram", "--plus"]),
            ("words", ["words"]),
            ("pattern", ["pattern"]),
        ):
            cold_s[kind] = {
                str(b): round(statistics.median(cold([*argv, r], data) for r in group[:COLD_RACKS]), 3)
                for b, group in groups.items()
            }
        for kind, argv in (
            ("hunt", ["hunt", "".join(letters[0]), "--center", letters[0][0]]),
            ("hooks", ["hooks", sample[1]]),
            ("word", ["word", sample[1]]),
            ("stems", ["stems", "--length", "7"]),
            ("stem", ["stem", "AEIRST"]),
        ):
            cold_s[kind] = round(statistics.median(cold(argv, data) for _ in range(COLD_RACKS)), 3)
        help_s = round(statistics.median(_process_time(["-m", "pipeline", "--help"]) for _ in range(3)), 3)
        floor_s = round(statistics.median(_process_time(["-c", "import typer, polars, numpy"]) for _ in range(3)), 3)

    slowest_cold = max(v for per in cold_s.values() for v in (per.values() if isinstance(per, dict) else [per]))
    return {
        "lexicon": f"ENABLE ({enable.ENABLE.name}), {len(words):,} words",
        "racks": {str(b): g for b, g in groups.items()},
        "index_load_ms": load_ms,
        "warm_ms": warm_ms,
        "scan_ms": scan_ms,
        "speedup_vs_scan": speedup,
        "cold_cli_s": cold_s,
        "cold_cli_help_s": help_s,
        "cold_import_floor_s": floor_s,
        "agrees_with_scan": agrees,
        "notes": {
            "warm": "median over the racks of the median of 7 calls, index loaded and every length's counts ready",
            "scan": "Python: for every word, sort its letters and walk them against the rack's sorted letters; "
            "anagram_plus scans once per letter A-Z (one rack per group)",
            "cold": "wall time of a fresh `wordstats` process (median of 3), including Python start-up; "
            "cold_import_floor_s is a bare `python -c 'import typer, polars, numpy'`, "
            "cold_cli_help_s `--help`",
            "hunt": "the letters of the 0-blank racks, center = first letter, min length 4",
            "pattern": "the rack itself as a pattern (a blank = ? = any letter)",
        },
        "targets": {
            "anagram_2_blanks_warm_under_5_ms": warm_ms["anagram"]["2"] < 5,
            "anagram_2_blanks_at_least_100x_scan": speedup["anagram"]["2"] >= 100,
            "words_2_blanks_warm_under_50_ms": warm_ms["words"]["2"] < 50,
            "cold_cli_under_0_5_s": slowest_cold < 0.5,
        },
    }


def _process_time(args: list[str]) -> float:
    """Wall time of `python ARGS` in a fresh process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], capture_output=True)
    return time.perf_counter() - start
