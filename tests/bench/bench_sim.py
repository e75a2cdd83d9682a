"""Monte Carlo simulation's speed on ENABLE (`scrabble best --sim N`): iterations per CPU second of our two-ply
rollouts beside MAGPIE's sim (jvc56/MAGPIE, C) of the same position, candidates and iterations, in alternating
rounds (medians and their ratio). An iteration is one draw of the unseen tiles played out for every candidate.

The position: MEGRIMS at 8D, rack HIKRTVZ, CANDIDATES candidates, two plies. MAGPIE runs with zero leave values
(its own `create klv`: its players then move by score), so ours is measured with zero leave values too, and
again with the lexicon's leaves.parquet values (what the command uses). Our rate is the rollouts' CPU time in the
process (simulate_position: the kernels compiled before it starts); MAGPIE's the marginal rate between two
iteration counts of whole processes (their start-up, lexicon loading and move generation cancel), counted from the
iterations MAGPIE reports it ran (its sim stops itself after 60 s of wall time unless told otherwise: it runs here
with `-tlim 0`, and the status it printed is kept). MAGPIE is
the build of `../shared/anchors/magpie/build.sh` (MAGPIE_DIR, default /tmp/magpie-anchor), skipped when absent;
a win-percentage table it reads (data/strategy/winpct.csv, not in the build) is written there when missing: a
flat logistic one, which its sim only reports from."""

from __future__ import annotations

import math
import os
import re
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

from tests.bench.enable import missing

RACK = "HIKRTVZ"
CANDIDATES = 5
ITERATIONS = 2000  # ours, a round
MAGPIE_ITERATIONS = (1000, 5000)  # per candidate: the marginal rate between the two
ROUNDS = 5
SEED = 1
MAGPIE_DIR = Path(os.environ.get("MAGPIE_DIR", "/tmp/magpie-anchor"))
MEGRIMS_CGP = "/".join("3MEGRIMS5" if r == 7 else "15" for r in range(15))
MEGRIMS = "".join(("...MEGRIMS....." if r == 7 else "." * 15) + "\n" for r in range(15))


def win_pct_table(path: Path) -> None:
    """A win-percentage table in MAGPIE's format (per number of unseen tiles: games, then wins x 2 per spread
    from -400 to 400), a logistic curve of the spread; MAGPIE's sim needs one and only reports from it."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    row = " ".join(["1000", *(str(round(2000 / (1 + math.exp(-s / 40)))) for s in range(-400, 401))])
    path.write_text("".join(row + "\n" for _ in range(100)))


def magpie(iterations: int) -> tuple[float, str]:
    """The CPU seconds of one MAGPIE process simulating the position `iterations` times per candidate (one
    thread, round robin, no early stop), and what it printed."""
    commands = (
        "set -mode sync -savesettings false\n"
        f"cgp {MEGRIMS_CGP} {RACK}/ 0/0 0 -lex TWLENABLE -leaves TWLENABLE -ld english\n"
        f"gsimulate -plies 2 -numplays {CANDIDATES} -iterations {iterations * CANDIDATES} "
        f"-minplayiterations {iterations} -sr rr -scondition none -threads 1 -seed {SEED} -hr true -tlim 0\n"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        ["bin/magpie"], input=commands, cwd=MAGPIE_DIR, capture_output=True, text=True, timeout=900, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, out.stdout


def magpie_ran(text: str) -> tuple[int, str]:
    """The iterations per candidate MAGPIE's sim reports it ran (its `Iters:` counts every candidate's), and its
    status line."""
    iters = re.findall(r"Iters:\s+(\d+)", text)
    status = re.findall(r"Status:\s+(.+?)\s*$", text, flags=re.M)
    if not iters:
        raise ValueError("MAGPIE printed no iteration count")
    return int(iters[-1]) // CANDIDATES, status[-1] if status else "?"


def magpie_rows(text: str) -> list[dict]:
    """MAGPIE's sim table: each candidate's play, score, iterations and mean score of each ply."""
    rows = []
    for m in re.finditer(
        r"\d+: (\S+ \S+)\s+\S*\s+(\d+)\s+[-\d.]+\s+[-\d.]+\s+[-\d.]+\s+(\d+)\s+([-\d.]+)\s+[-\d.]+\s+([-\d.]+)", text
    ):
        rows.append(
            {
                "play": m.group(1),
                "score": int(m.group(2)),
                "iterations": int(m.group(3)),
                "reply": float(m.group(4)),
                "next": float(m.group(5)),
            }
        )
    return rows


def run() -> dict:
    """Iterations per CPU second: ours (zero leaves, the lexicon's leaves) and MAGPIE's, alternating."""
    skipped = missing()
    if skipped:
        return skipped
    import polars as pl

    from pipeline.scrabble.equity.values import LeaveValues
    from pipeline.scrabble.rules.board import parse_board
    from pipeline.scrabble.sim import simulate_position
    from tests.bench.enable import LEXICON, build, scrabble_lexicon

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "out"
        variant, lexicon = scrabble_lexicon(data)
        build(data, ["leaves"])
        leaves = LeaveValues(pl.read_parquet(data / LEXICON / "leaves.parquet"))
    zero = LeaveValues.of({})
    board = parse_board(MEGRIMS)
    have_magpie = (MAGPIE_DIR / "bin" / "magpie").is_file() and (
        MAGPIE_DIR / "data" / "lexica" / "TWLENABLE.kwg"
    ).is_file()
    if have_magpie:
        win_pct_table(MAGPIE_DIR / "data" / "strategy" / "winpct.csv")

    def ours(values: LeaveValues, seed: int):
        """One round of ours: the simulation and its rate."""
        found = simulate_position(board, RACK, variant, lexicon, values, ITERATIONS, CANDIDATES, seed)
        return found, ITERATIONS / found.cpu_seconds

    ours(zero, 0)  # compiled before timing
    rates: dict[str, list[float]] = {"ours_zero_leaves": [], "ours_leaves": [], "magpie": []}
    found = {}
    magpie_table: list[dict] = []
    magpie_runs: list[dict] = []
    for r in range(ROUNDS):
        found["zero"], rate = ours(zero, SEED + r)
        rates["ours_zero_leaves"].append(rate)
        found["leaves"], rate = ours(leaves, SEED + r)
        rates["ours_leaves"].append(rate)
        if have_magpie:
            (small, short_text), (large, text) = (magpie(n) for n in MAGPIE_ITERATIONS)
            (ran_small, status_small), (ran_large, status_large) = magpie_ran(short_text), magpie_ran(text)
            rates["magpie"].append((ran_large - ran_small) / (large - small))
            magpie_runs.append({"iterations_ran": [ran_small, ran_large], "status": [status_small, status_large]})
            magpie_table = magpie_rows(text)
    median = {name: statistics.median(xs) for name, xs in rates.items() if xs}

    def table(sim) -> list[dict]:
        """A simulation's candidates, best first."""
        return [
            {
                "play": str(c.play),
                "score": c.play.score,
                "equity": round(c.equity, 2),
                "value": round(c.value, 2),
                "stderr": round(c.stderr, 2),
                "reply": round(c.reply, 2),
                "next": round(c.next, 2),
            }
            for c in sim.candidates
        ]

    theirs = median.get("magpie")
    return {
        "position": "MEGRIMS at 8D, rack HIKRTVZ, two plies",
        "candidates": CANDIDATES,
        "iterations_a_round": ITERATIONS,
        "magpie_iterations": list(MAGPIE_ITERATIONS),
        "magpie_runs": magpie_runs,
        "rounds": ROUNDS,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "ours_zero_leaves_iterations_per_cpu_second": round(median["ours_zero_leaves"], 1),
        "ours_leaves_iterations_per_cpu_second": round(median["ours_leaves"], 1),
        "magpie_iterations_per_cpu_second": round(theirs, 1) if theirs else None,
        "ratio_ours_zero_leaves_to_magpie": round(median["ours_zero_leaves"] / theirs, 3) if theirs else None,
        "ratio_per_round": [round(x / y, 3) for x, y in zip(rates["ours_zero_leaves"], rates["magpie"])],
        "magpie": str(MAGPIE_DIR) if have_magpie else f"skipped: no build at {MAGPIE_DIR} (MAGPIE_DIR)",
        "rounds_iterations_per_cpu_second": {name: [round(x, 1) for x in xs] for name, xs in rates.items()},
        "ours_zero_leaves_last_round": table(found["zero"]),
        "ours_leaves_last_round": table(found["leaves"]),
        "magpie_last_round": magpie_table,
    }
