"""The exact endgame's speed and answers on ENABLE beside MAGPIE's endgame solver (jvc56/MAGPIE, C) on the same
positions: endgames of seeded greedy games played on until the racks hold at most TILES tiles
(tests/support/endgames.py). For each: our value, first move, whether proven, positions searched and CPU
seconds (the search in this process); MAGPIE's value, first move and times (one thread, `-eplies` as deep as our
search went to prove the value, where every line has ended, else PLIES; its own solving time, and the marginal CPU
of a process that solves it over one that only loads the position, which adds its transposition table's
allocation). Values
must agree; first moves may differ where two moves tie. MAGPIE is the build of `../shared/anchors/magpie/build.sh`
(MAGPIE_DIR, default /tmp/magpie-anchor), skipped when absent."""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import time
from pathlib import Path

from tests.bench.bench_sim import MAGPIE_DIR, win_pct_table
from tests.bench.enable import missing

SEEDS = range(12)
TILES = 9
SECONDS = 120.0  # our time limit per position
PLIES = 25  # MAGPIE's depth: more than any of these endgames' lines
ROW = re.compile(r"^(\S+ \S+|pass)\s+(-?\d+)(?:\s+\([^)]*\))?\s+(-?\d+)\s+(-?\d+)")  # move, score, (out), V, S


def cgp(board_text: str, mover: str, other: str) -> str:
    """The position in MAGPIE's CGP: rows of tiles with runs of empty squares as numbers, both racks, no score."""
    rows = [re.sub(r"\.+", lambda m: str(len(m.group())), line) for line in board_text.splitlines()]
    return f"cgp {'/'.join(rows)} {mover}/{other} 0/0 0 -lex TWLENABLE -ld english"


def magpie_cpu(commands: str) -> tuple[float, str]:
    """The CPU seconds of one MAGPIE process running `commands`, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        ["bin/magpie"], input=commands, cwd=MAGPIE_DIR, capture_output=True, text=True, timeout=900, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, out.stdout


def magpie_endgame(board_text: str, mover: str, other: str, plies: int) -> dict:
    """MAGPIE's value, first move, its own solving time and the marginal CPU seconds of its process (its
    transposition table's allocation included) for the position searched `plies` deep."""
    load = f"set -mode sync -savesettings false\n{cgp(board_text, mover, other)}\n"
    loaded, _ = magpie_cpu(load)
    solved, text = magpie_cpu(load + f"endgame -eplies {plies} -threads 1\n")
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if line.startswith("Play ")), None)
    row = ROW.match(lines[header + 1].strip()) if header is not None and header + 1 < len(lines) else None
    if row is None:
        return {"value": None, "first": None, "printed": text[-400:], "cpu_s": round(max(solved - loaded, 0.0), 4)}
    status = re.search(r"time: ([0-9.]+)s, status: (\w+)", text)
    return {
        "value": int(row.group(3)),
        "first": row.group(1),
        "plies": plies,
        "status": status.group(2) if status else None,
        "solve_s": float(status.group(1)) if status else None,
        "cpu_s": round(max(solved - loaded, 0.0), 4),
    }


def run() -> dict:
    """Both solvers on each position: values, first moves, CPU seconds and their ratio."""
    skipped = missing()
    if skipped:
        return skipped
    import tempfile

    from pipeline.scrabble.endgame import solve
    from tests.bench.enable import scrabble_lexicon
    from tests.support.endgames import late_endgame

    with tempfile.TemporaryDirectory() as tmp:
        scrabble, lexicon = scrabble_lexicon(Path(tmp))
    have_magpie = (MAGPIE_DIR / "bin" / "magpie").is_file()
    if have_magpie:
        win_pct_table(MAGPIE_DIR / "data" / "strategy" / "winpct.csv")
    load_before = os.getloadavg()
    rows = []
    for seed in SEEDS:
        board, mover, other = late_endgame(seed, scrabble, lexicon, TILES)
        started = time.process_time()
        found = solve(board, mover, other, scrabble, lexicon, SECONDS)
        cpu = time.process_time() - started
        row = {
            "seed": seed,
            "racks": f"{mover}/{other}",
            "ours": {
                "value": found.value,
                "first": found.best.text,
                "proven": found.proven,
                "positions": found.nodes,
                "cpu_s": round(cpu, 4),
                "positions_per_cpu_s": round(found.nodes / cpu) if cpu > 0 else None,
            },
        }
        if have_magpie:
            theirs = magpie_endgame(board.text(), mover, other, found.depth if found.proven else PLIES)
            row["magpie"] = theirs
            row["same_value"] = theirs["value"] == found.value
            row["same_first"] = theirs["first"] == found.best.text
            solve_s = theirs["solve_s"]
            row["time_ratio_ours_to_magpie"] = round(cpu / solve_s, 2) if solve_s else None
        rows.append(row)
    ratios = [r["time_ratio_ours_to_magpie"] for r in rows if r.get("time_ratio_ours_to_magpie")]
    return {
        "tiles_at_most": TILES,
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
        "positions": rows,
        "values_agree": all(r.get("same_value", True) for r in rows) if have_magpie else None,
        "median_time_ratio_ours_to_magpie": statistics.median(ratios) if ratios else None,
        "total_cpu_s": {
            "ours": round(sum(r["ours"]["cpu_s"] for r in rows), 3),
            "magpie_solving": round(sum(r["magpie"]["solve_s"] or 0 for r in rows), 3) if have_magpie else None,
        },
        "magpie": str(MAGPIE_DIR) if have_magpie else f"skipped: no build at {MAGPIE_DIR} (MAGPIE_DIR)",
    }
