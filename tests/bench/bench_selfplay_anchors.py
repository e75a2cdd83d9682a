"""Greedy self-play on ENABLE in CPU time, wordstats beside MAGPIE and wolges in one run, rounds interleaved.

Each engine's rate is its marginal rate: games per CPU-second between a short and a long run, so that start-up
and lexicon loading cancel (ours: a warm process after a compile run, timed with process_time). The anchors:
MAGPIE built under /tmp by `../shared/anchors/magpie/build.sh` (found at $MAGPIE_ANCHOR, default
/tmp/magpie-anchor/run.sh) and wolges (`../shared/anchors/wolges/run.sh`); each is skipped when absent.
Reports per engine the median over ROUNDS and each round's figure, and our ratio to each anchor per round.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from pathlib import Path

from tests.bench.enable import ENABLE, ROOT, missing

ROUNDS = 5
SHORT, LONG = 200, 1200  # games of the short and the long run of each round
SEED = 99
WOLGES = ROOT.parent / "shared" / "anchors" / "wolges" / "run.sh"
MAGPIE = Path(os.environ.get("MAGPIE_ANCHOR", "/tmp/magpie-anchor/run.sh"))


def _child_cpu(argv: list[str]) -> float:
    """The CPU seconds (user + system) a child process and its children used."""
    before = os.times()
    subprocess.run(argv, capture_output=True, check=True, timeout=1800)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def _anchor_rate(script: Path) -> float | None:
    """An anchor's marginal greedy games per CPU-second, or None when it is not here."""
    if not script.is_file():
        return None
    short = _child_cpu(["sh", str(script), str(SHORT)])
    long = _child_cpu(["sh", str(script), str(LONG)])
    return (LONG - SHORT) / max(long - short, 1e-9)


def _ours(lexicon, variant, first: int) -> float:
    """Our marginal greedy games per CPU-second: LONG - SHORT games in this warm process."""
    from pipeline.scrabble.play.game import play_game
    from pipeline.scrabble.play.turns import game_rng

    start = time.process_time()
    for number in range(first, first + LONG - SHORT):
        play_game(variant, lexicon, game_rng(SEED, variant.name, number))
    return (LONG - SHORT) / (time.process_time() - start)


def run() -> dict:
    """The three engines' greedy self-play rates in CPU time, and our ratios."""
    if missing():
        return missing()
    from tests.bench.bench_gaddag import _lexicon

    lexicon, variant = _lexicon()
    _ = lexicon.gaddag
    from pipeline.scrabble.play.game import play_game
    from pipeline.scrabble.play.turns import game_rng

    play_game(variant, lexicon, game_rng(SEED, variant.name, 0))  # compile (or load) the game kernel
    rates: dict[str, list[float]] = {"wordstats": [], "magpie": [], "wolges": []}
    for k in range(ROUNDS):
        rates["wordstats"].append(_ours(lexicon, variant, first=1 + k * LONG))
        for name, script in (("magpie", MAGPIE), ("wolges", WOLGES)):
            rate = _anchor_rate(script)
            if rate is not None:
                rates[name].append(rate)
    ours = rates["wordstats"]
    out: dict = {
        "lexicon": f"ENABLE ({ENABLE.name})",
        "method": f"greedy self-play, one thread, marginal games per CPU-second between {SHORT} and {LONG} "
        f"games, {ROUNDS} interleaved rounds",
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    for name, runs in rates.items():
        out[name] = {
            "median_games_per_cpu_s": round(statistics.median(runs), 1) if runs else None,
            "rounds": [round(x, 1) for x in runs],
        }
        if name != "wordstats" and runs:
            per_round = [a / b for a, b in zip(ours, runs)]
            out[name]["ours_over_theirs_per_round"] = [round(x, 3) for x in per_round]
            out[name]["ours_over_theirs_median"] = round(statistics.median(per_round), 3)
        elif name != "wordstats":
            out[name]["skipped"] = "anchor not present"
    return out
