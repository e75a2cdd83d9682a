"""Boggle proof against hybrid-boggle in the same run: CPU seconds per class, one thread each, same classes.

The anchor is hybrid-boggle (github.com/danvk/hybrid-boggle), built outside the project (never copied into
it) as its README says: its C++ extension `cpp_boggle` compiled with pybind11 into its checkout, run by a
Python that has pybind11 and numpy. BENCH_HYBRID_BOGGLE names the checkout (default /tmp/hb) and
BENCH_HYBRID_PYTHON its Python (default /tmp/hbvenv/bin/python); without them the benchmark is skipped.

Each side proves one class per child process of one thread (ours runs the proof's C kernels, hybrid-boggle its
breaker): the child reports its own CPU seconds (`time.process_time`, which includes building the class's
tree), the boards it found at or above the floor, and its peak resident memory. Ours runs `prove_shard` on the class
(its kernels loaded before the clock starts); hybrid-boggle runs its `HybridTreeBreaker` (the breaker of
its `break_all`) with its default switchover (1.7 × the floor), on its own copy of ENABLE2K (the same 173,528
words, with Qu written Q). Both use hybrid-boggle's partition and class ids.

* `3x4`: floor 1500, classes 16762 (which holds PERSLATESIND, 1651) and 38659, and a seeded sample of
  BENCH_PROVE_HYBRID_SAMPLE (default 24) canonical classes, the two programs alternating class by class.
  The sample's mean gives the projection of the whole 3×4 proof for each.
* `class_705707`: floor 3500, ENABLE2K, class 705707 (which holds PERSLATGSINETERS, 3625), hybrid-boggle
  then ours (one class takes each of them half an hour of CPU or more). Each side's report is kept in
  BENCH_PROVE_HYBRID_705707_DIR (default data/out/bench/class_705707/, `hybrid.json` and `ours.json`) as it
  finishes, and a side whose report is there is not run again: a stopped run resumes, and the two sides
  may be run apart (`python -m tests.bench.bench_prove_hybrid SIDE` runs one side and keeps its report).
* `4x4_sample` (ENABLE2K) and `twl06_sample` (TWL06, whose best 4×4 board is not proven): floor 3500, a
  seeded sample of BENCH_PROVE_HYBRID_4X4_SAMPLE (default 100) canonical 4×4 classes, alternating; each
  side's projection of the whole 4×4 proof (1,068,363 classes) in CPU-hours with ±2 standard errors, and
  its wall time on 10, 100 and 1,000 nodes of 2 cores. With BENCH_PROVE_HYBRID_ROWS_DIR set, each class's
  row is appended, as it ends, to `4x4_<lexicon>.jsonl` there, and a class whose row is there (same floor,
  same boards on both sides) is not run again: a stopped sample resumes where it stopped, and the part's
  `resumed` says how many of its rows came from the file. Without it, every class is measured.

Each side's projection assumes the sample's mean; the classes' cost is heavy-tailed, so a small sample
understates the spread.
* `3x3`: the whole 3×3 proof at floor 500, two buckets (`aeiouy` and the rest), hybrid-boggle's `break_all` and
  ours, each one process of one thread, CPU seconds of the whole process, boards compared.
* `4x4_named`: class 156513 at floor 3500 on ENABLE2K, the class the issue timed hybrid-boggle on.

BENCH_PROVE_HYBRID_PARTS chooses the parts (default "3x3,3x4,class_705707,4x4_named,4x4_sample").
BENCH_PROVE_HYBRID_AT_ONCE=1 runs the two sides of each class at the same time, one core each (on a machine with
two cores free; each child's CPU seconds are its own either way).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from pipeline.core.config import PROJECT_ROOT

SHARED = PROJECT_ROOT.parent / "shared" / "corpora"
ENABLE2K = SHARED / "enable2k" / "enable2k.txt"
WORD_LISTS = {  # ours (from ../shared), and hybrid-boggle's own copy of the same list (in its checkout)
    "enable2k": (ENABLE2K, "wordlists/enable2k.txt"),
    "twl06": (SHARED / "princeton-boggle" / "dictionary-twl06.txt", "wordlists/twl06.txt"),
}
HYBRID = Path(os.environ.get("BENCH_HYBRID_BOGGLE", "/tmp/hb"))
HYBRID_PYTHON = Path(os.environ.get("BENCH_HYBRID_PYTHON", "/tmp/hbvenv/bin/python"))
PARTITION = "aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz"  # hybrid-boggle's
PARTS = os.environ.get("BENCH_PROVE_HYBRID_PARTS", "3x3,3x4,class_705707,4x4_named,4x4_sample").split(",")
ROWS_DIR = os.environ.get("BENCH_PROVE_HYBRID_ROWS_DIR")  # where a long sample keeps its rows, to resume
REPORTS_705707 = Path(os.environ.get("BENCH_PROVE_HYBRID_705707_DIR", PROJECT_ROOT / "data/out/bench/class_705707"))
SAMPLE_3X4 = int(os.environ.get("BENCH_PROVE_HYBRID_SAMPLE", "24"))
SAMPLE_4X4 = int(os.environ.get("BENCH_PROVE_HYBRID_4X4_SAMPLE", "100"))
AT_ONCE = os.environ.get("BENCH_PROVE_HYBRID_AT_ONCE", "0") == "1"  # both sides of a class at the same time
CORES_PER_NODE = 2  # like this machine
RAY_OVERHEAD_SECONDS = 0.013  # per shard, measured by bench_cluster (docs/cluster.md)
SEED = 2025
NAMED_3X4 = (16762, 38659)  # PERSLATESIND's class, and a heavy one
NAMED_4X4 = (156513,)  # the 4x4 class the issue timed hybrid-boggle on
CLASS_4X4 = 705707  # PERSLATGSINETERS's class
FLOORS = {"3x3": 500, "3x4": 1500, "4x4": 3500}
PARTITION_3X3 = "aeiouy bcdfghjklmnpqrstvwxz"  # two buckets: hybrid-boggle's fastest 3x3 setting, and our default
HYBRID_3X4_CPU_HOURS = 24_300 / 3600  # hybrid-boggle's README: the whole 3×4 proof, user CPU on a laptop

HYBRID_DRIVER = """
import argparse, json, resource, sys, time
from boggle.args import get_trie_and_boggler_from_args
from boggle.board_id import from_board_id, parse_classes
from boggle.breaker import HybridTreeBreaker
from boggle.dimensional_bogglers import cpp_orderly_tree_builder

rows, cols, floor, class_id = (int(x) for x in sys.argv[1:5])
partition = sys.argv[5]
dims = (rows, cols) if rows <= cols else (cols, rows)
size = 10 * dims[0] + dims[1]
args = argparse.Namespace(size=size, dictionary=sys.argv[6], python=False)
trie, boggler = get_trie_and_boggler_from_args(args)
builder = cpp_orderly_tree_builder(trie, dims)
breaker = HybridTreeBreaker(
    builder, boggler, dims, floor, switchover_score=1.7 * floor, log_breaker_progress=False
)
started = time.process_time()
assert breaker.SetBoard(from_board_id(parse_classes(partition, dims), class_id))
details = breaker.Break()
cpu = time.process_time() - started
boards = {}
for failure in details.failures:
    board = failure if isinstance(failure, str) else failure[-1]
    boards[board] = int(boggler.score(board))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cpu": cpu, "boards": boards, "peak_rss_mib": peak}))
"""

OURS_DRIVER = """
import json, resource, sys, time
import numpy as np
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.prove import Problem, parse_partition, prove_shard
from pipeline.boggle.rules import Rules

rows, cols, floor, class_id = (int(x) for x in sys.argv[1:5])
partition, words = sys.argv[5], sys.argv[6]
rules = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))
dictionary = compile_dictionary(open(words).read().upper().split(), rules)
problem = Problem(rows, cols, dictionary, parse_partition(partition), floor)
small = Problem(2, 2, dictionary, parse_partition("AEIOU BCDFGHJKLMNPQRSTVWXYZ"), 1)
prove_shard(small, np.array([0]))  # load the kernels before the clock starts
started = time.process_time()
parts = prove_shard(problem, np.array([class_id]))
cpu = time.process_time() - started
boards = dict(zip(parts["boards"]["board"].to_list(), parts["boards"]["score"].to_list()))
row = parts["classes"].row(0, named=True)
report = {"cpu": cpu, "boards": boards, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
report.update({k: row[k] for k in ("boards_scored", "tree_bound", "word_paths", "tree_slots")})
print(json.dumps(report))
"""


OURS_WHOLE_DRIVER = """
import json, sys
from pipeline.boggle.classes import ClassSpace
from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.prove import Problem, parse_partition, prove_shard
from pipeline.boggle.rules import Rules

rows, cols, floor = (int(x) for x in sys.argv[1:4])
partition, words = sys.argv[4], sys.argv[5]
rules = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))
dictionary = compile_dictionary(open(words).read().upper().split(), rules)
problem = Problem(rows, cols, dictionary, parse_partition(partition), floor)
parts = prove_shard(problem, ClassSpace(rows, cols, problem.partition).canonical_ids())
print(json.dumps(dict(zip(parts["boards"]["board"].to_list(), parts["boards"]["score"].to_list()))))
"""


def available() -> str | None:
    """Why the benchmark cannot run, or None."""
    if not ENABLE2K.is_file():
        return f"{ENABLE2K} not present"
    if not HYBRID_PYTHON.is_file() or not list(HYBRID.glob("cpp_boggle*.so")):
        return (
            f"hybrid-boggle is not built at {HYBRID} (BENCH_HYBRID_BOGGLE), or no {HYBRID_PYTHON} (BENCH_HYBRID_PYTHON)"
        )
    return None


def launch(side: str, size: str, class_id: int, lexicon: str = "enable2k") -> subprocess.Popen:
    """A child process proving one class on one side ("ours" or "hybrid"), one thread."""
    rows, cols = (int(x) for x in size.split("x"))
    argv = [str(rows), str(cols), str(FLOORS[size]), str(class_id), PARTITION]
    ours_words, hybrid_words = WORD_LISTS[lexicon]
    env = {**os.environ, "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    if side == "ours":
        cmd, cwd = [sys.executable, "-c", OURS_DRIVER, *argv, str(ours_words)], PROJECT_ROOT
    else:
        cmd, cwd = [str(HYBRID_PYTHON), "-c", HYBRID_DRIVER, *argv, hybrid_words], HYBRID
        env["PYTHONPATH"] = str(HYBRID)
    return subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def result(child: subprocess.Popen) -> dict:
    """A child's report (its last line of output), or its error."""
    out, err = child.communicate()
    if child.returncode:
        return {"error": err.strip().splitlines()[-1] if err.strip() else f"exit {child.returncode}"}
    report = json.loads(out.strip().splitlines()[-1])
    report["cpu"] = round(report["cpu"], 2)
    report["peak_rss_mib"] = round(report["peak_rss_mib"], 1)
    return report


def canonical(boards: dict, rows: int, cols: int) -> dict[str, int]:
    """Boards in our canonical form (hybrid-boggle writes them in lower case; its 3x4 strings read in row order
    are the same boards up to symmetry)."""
    from pipeline.boggle.classes import canonical_board

    return {canonical_board(b.upper(), rows, cols): s for b, s in boards.items()}


def compare(size: str, class_id: int, ours: dict, hybrid: dict) -> dict:
    """One class's figures on both sides, and whether they found the same boards."""
    rows, cols = (int(x) for x in size.split("x"))
    out = {"class": class_id, "ours": ours, "hybrid": hybrid}
    if "error" in ours or "error" in hybrid:
        return out
    mine = canonical(ours["boards"], rows, cols)
    theirs = canonical(hybrid["boards"], rows, cols)
    out["same_boards"] = mine == theirs
    out["boards"] = len(mine)
    out["best"] = max(mine.values(), default=None)
    out["hybrid_over_ours_cpu"] = round(hybrid["cpu"] / ours["cpu"], 2) if ours["cpu"] else None
    for side, found in ((ours, mine), (hybrid, theirs)):
        side["boards"] = sorted(found)
    return out


def kept_rows(path: Path | None) -> dict[int, dict]:
    """The rows a stopped run kept in path (JSON lines), by class; a torn last line is ignored."""
    if path is None or not path.is_file():
        return {}
    kept = {}
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and row.get("same_boards") is True and "class" in row:
            kept[row["class"]] = row
    return kept


def interleaved(size: str, classes: list[int], lexicon: str = "enable2k", keep: Path | None = None) -> list[dict]:
    """Each class on both sides, one after the other, the first side alternating (or both at once, AT_ONCE);
    with keep, each row is appended there as it ends and a class already kept there is not run again."""
    kept = kept_rows(keep)
    rows = []
    for i, class_id in enumerate(classes):
        if class_id in kept and kept[class_id].get("floor") == FLOORS[size]:
            rows.append(kept[class_id] | {"resumed": True})
            continue
        sides = ("ours", "hybrid") if i % 2 == 0 else ("hybrid", "ours")
        if AT_ONCE:
            children = {side: launch(side, size, class_id, lexicon) for side in sides}
            reports = {side: result(child) for side, child in children.items()}
        else:
            reports = {side: result(launch(side, size, class_id, lexicon)) for side in sides}
        rows.append(compare(size, class_id, reports["ours"], reports["hybrid"]) | {"floor": FLOORS[size]})
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)  # a long run shows each class as it ends
        if keep is not None and rows[-1].get("same_boards") is True:
            keep.parent.mkdir(parents=True, exist_ok=True)
            torn = keep.is_file() and keep.stat().st_size and not keep.read_bytes().endswith(b"\n")
            with keep.open("a") as out:
                out.write(("\n" if torn else "") + json.dumps(rows[-1]) + "\n")
    return rows


def canonical_classes(size: str) -> np.ndarray:
    """Every canonical class of the grid under hybrid-boggle's partition."""
    from pipeline.boggle.classes import ClassSpace, parse_partition

    rows, cols = (int(x) for x in size.split("x"))
    return ClassSpace(rows, cols, parse_partition(PARTITION)).canonical_ids()


def sample(size: str, k: int) -> list[int]:
    """A seeded sample of k canonical classes, in the sample's random order (so a run stopped early has measured
    a random subset of it)."""
    canon = canonical_classes(size)
    rng = np.random.default_rng(SEED)
    return canon[rng.choice(canon.shape[0], k, replace=False)].tolist()


def projection(rows: list[dict], n_classes: int) -> dict:
    """Each side's CPU-hours for all n_classes from the sample's mean (with ±2 standard errors), and the wall
    hours on 10, 100 and 1,000 nodes of CORES_PER_NODE cores (one class per shard, Ray's overhead per shard;
    never less than the slowest sampled class)."""
    out: dict = {"canonical_classes": n_classes, "cores_per_node": CORES_PER_NODE}
    for side in ("ours", "hybrid"):
        per = np.array([r[side]["cpu"] for r in rows if "same_boards" in r], dtype=np.float64)
        if per.size < 2:
            continue
        mean, sem = float(per.mean()), float(per.std(ddof=1) / np.sqrt(per.size))
        total = (mean + RAY_OVERHEAD_SECONDS) * n_classes
        out[side] = {
            "seconds_per_class": {"mean": round(mean, 2), "median": round(float(np.median(per)), 2)},
            "seconds_per_class_max": round(float(per.max()), 2),
            "cpu_hours": round(mean * n_classes / 3600, 1),
            "cpu_hours_2sem": [
                round(max(0.0, mean - 2 * sem) * n_classes / 3600, 1),
                round((mean + 2 * sem) * n_classes / 3600, 1),
            ],
            "wall_hours": {
                f"{nodes}_nodes": round(max(total / (nodes * CORES_PER_NODE), float(per.max())) / 3600, 2)
                for nodes in (10, 100, 1000)
            },
        }
    return out


def totals(rows: list[dict]) -> dict:
    """CPU seconds summed over classes on each side, and the ratio."""
    done = [r for r in rows if "same_boards" in r]
    ours = sum(r["ours"]["cpu"] for r in done)
    hybrid = sum(r["hybrid"]["cpu"] for r in done)
    return {
        "classes": len(done),
        "ours_cpu": round(ours, 2),
        "hybrid_cpu": round(hybrid, 2),
        "hybrid_over_ours": round(hybrid / ours, 2) if ours else None,
        "all_same_boards": all(r["same_boards"] for r in done),
        "ours_peak_rss_mib": max((r["ours"]["peak_rss_mib"] for r in done), default=None),
        "hybrid_peak_rss_mib": max((r["hybrid"]["peak_rss_mib"] for r in done), default=None),
    }


def part_3x4() -> dict:
    """The named 3x4 classes and the sample, interleaved, with each side's projection of the whole proof."""
    named = interleaved("3x4", list(NAMED_3X4))
    rows = interleaved("3x4", sample("3x4", SAMPLE_3X4)) if SAMPLE_3X4 else []
    out: dict = {"floor": FLOORS["3x4"], "named": named, "sample": rows, "sample_totals": totals(rows)}
    out["projection"] = projection(rows, int(canonical_classes("3x4").shape[0]))
    out["projection"]["hybrid_readme_laptop_cpu_hours"] = round(HYBRID_3X4_CPU_HOURS, 1)
    return out


def whole_proof(side: str, rows: int, cols: int, floor: int, partition: str) -> dict:
    """One side's whole proof of a grid in one process of one thread: the process's CPU seconds (start-up and
    dictionary included on both sides), its peak memory, and the boards it found."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as scratch:  # hybrid-boggle's per-class log files
        if side == "ours":
            cmd = [sys.executable, "-c", OURS_WHOLE_DRIVER, str(rows), str(cols), str(floor), partition]
            cmd, cwd = [*cmd, str(ENABLE2K)], PROJECT_ROOT
        else:
            env["PYTHONPATH"] = str(HYBRID)
            cmd = [str(HYBRID_PYTHON), "-m", "boggle.break_all", partition, str(floor), f"--size={rows}{cols}"]
            cmd += ["--num_threads=1", "--omit_times", f"--output_base={scratch}/tasks"]
            cwd = HYBRID
        child = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
    if status:
        return {"error": f"exit status {status}"}
    if side == "ours":
        boards = json.loads(out.strip().splitlines()[-1])
    else:  # its last lines: "Found N breaking failure(s):" and the boards, one per line
        lines = out.strip().splitlines()
        found = [i for i, line in enumerate(lines) if line.startswith("Found ") and "breaking failure" in line][-1]
        scorer = Scorer(rows, cols)
        boards = {b: scorer(b.upper()) for b in lines[found + 1 :] if b.strip()}
    return {
        "cpu": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
        "boards": boards,
    }


class Scorer:
    """Our exact score of a board of ENABLE2K (to score hybrid-boggle's boards, which it lists unscored)."""

    def __init__(self, rows: int, cols: int):
        from pipeline.boggle.dictionary import compile_dictionary
        from pipeline.boggle.rules import Rules

        rules = Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11))
        self.dictionary = compile_dictionary(ENABLE2K.read_text().upper().split(), rules)
        self.rows, self.cols = rows, cols

    def __call__(self, board: str) -> int:
        from pipeline.boggle.rules import parse_board
        from pipeline.boggle.solver import score

        return int(score(parse_board(board, f"{self.rows}x{self.cols}"), self.dictionary))


def part_3x3() -> dict:
    """The whole 3x3 proof at floor 500 on each side, hybrid-boggle's `break_all` against ours, one thread each."""
    reports = {side: whole_proof(side, 3, 3, FLOORS["3x3"], PARTITION_3X3) for side in ("hybrid", "ours")}
    out: dict = {"floor": FLOORS["3x3"], "partition": PARTITION_3X3, **reports}
    if "error" not in reports["ours"] and "error" not in reports["hybrid"]:
        mine, theirs = canonical(reports["ours"]["boards"], 3, 3), canonical(reports["hybrid"]["boards"], 3, 3)
        out.update(same_boards=mine == theirs, boards=len(mine), best=max(mine.values(), default=None))
        out["hybrid_over_ours_cpu"] = round(reports["hybrid"]["cpu"] / reports["ours"]["cpu"], 2)
        for side in ("ours", "hybrid"):
            out[side]["boards"] = len(out[side]["boards"])
    return out


def part_4x4_named() -> dict:
    """The named 4x4 classes at floor 3500 on ENABLE2K, interleaved."""
    rows = interleaved("4x4", list(NAMED_4X4))
    return {"lexicon": "enable2k", "floor": FLOORS["4x4"], "named": rows, "totals": totals(rows)}


def part_4x4_sample(lexicon: str) -> dict:
    """A seeded sample of canonical 4x4 classes at floor 3500, interleaved, with each side's projection."""
    keep = Path(ROWS_DIR) / f"4x4_{lexicon}.jsonl" if ROWS_DIR else None
    rows = interleaved("4x4", sample("4x4", SAMPLE_4X4), lexicon, keep=keep)
    out: dict = {"lexicon": lexicon, "floor": FLOORS["4x4"], "sample": rows, "sample_totals": totals(rows)}
    out["resumed"] = sum(1 for r in rows if r.get("resumed"))
    out["projection"] = projection(rows, int(canonical_classes("4x4").shape[0]))
    return out


def side_report(side: str, size: str, class_id: int, folder: Path) -> dict:
    """One side's report on one class: kept in folder/<side>.json, computed (and kept) when it is not there."""
    path = folder / f"{side}.json"
    if path.is_file():
        return json.loads(path.read_text())
    started = time.perf_counter()
    report = result(launch(side, size, class_id))
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    report["load_average_after"] = os.getloadavg()
    if "error" not in report:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, sort_keys=True) + "\n")
    return report


def part_class_705707() -> dict:
    """Class 705707 at floor 3500 on each side in turn (a side already reported is reused)."""
    reports = {side: side_report(side, "4x4", CLASS_4X4, REPORTS_705707) for side in ("hybrid", "ours")}
    scores = {
        side: dict(sorted(canonical(r["boards"], 4, 4).items(), key=lambda kv: (-kv[1], kv[0])))
        for side, r in reports.items()
        if "error" not in r
    }
    out = compare("4x4", CLASS_4X4, reports["ours"], reports["hybrid"])
    out.update({f"{side}_scores": found for side, found in scores.items()})
    out.update(floor=FLOORS["4x4"], lexicon="enable2k")
    return out


def run() -> dict:
    """Both parts, as chosen."""
    missing = available()
    if missing:
        return {"skipped": missing}
    out: dict = {"anchor": f"hybrid-boggle HybridTreeBreaker at {HYBRID}", "load_average_before": os.getloadavg()}
    if "3x3" in PARTS:
        out["proof_3x3"] = part_3x3()
    if "3x4" in PARTS:
        out["proof_3x4"] = part_3x4()
    if "class_705707" in PARTS:
        out["proof_4x4_class_705707"] = part_class_705707()
    if "4x4_named" in PARTS:
        out["proof_4x4_named"] = part_4x4_named()
    if "4x4_sample" in PARTS:
        out["sample_4x4_enable2k"] = part_4x4_sample("enable2k")
    if "twl06_sample" in PARTS:
        out["sample_4x4_twl06"] = part_4x4_sample("twl06")
    out["load_average_after"] = os.getloadavg()
    return out


if __name__ == "__main__":  # one side of class 705707, its report kept for the `class_705707` part
    print(json.dumps(side_report(sys.argv[1], "4x4", CLASS_4X4, REPORTS_705707)))
