"""Prove the best Boggle boards: branch and bound over board classes (see docs/boggle-prove.md).

A *board class* gives every cell a set of letters and stands for every board that picks one letter per cell.
A *partition* splits the letters into groups; a *top-level class* gives every cell one group. Each top-level
class is bounded from above by its orderly tree (the kernels in `prove_kernels`); a class whose bound is
below the floor holds no board worth keeping, the others are split cell by cell, in a fixed split order,
down to single boards, which the exact solver scores. Only one top-level class per symmetry of the grid is
examined (8 symmetries of a square, 4 of a rectangle), and every board found is written in its canonical
form: the least, in row order, of the letter strings of its symmetric images.

The work of one shard (a run of top-level classes) is `prove_shard`; `prove_job` makes the proof a job of
the sharded-job executor (`pipeline.core.executor`), which runs the shards on local processes or a Ray
cluster, keeps each finished one under the lexicon's jobs folder so that a rerun computes only the missing
ones, and merges them; `proof_of` turns the merged tables into the boards and the proof's summary.
"""

from __future__ import annotations

import hashlib
import math
import os
import resource
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from pipeline.boggle.dictionary import Dictionary
from pipeline.boggle.rules import check_size, neighbours
from pipeline.core.errors import WordstatsError
from pipeline.core.executor import Engine, Job, JobResult, LocalEngine, Shard, run_job
from pipeline.letters.alphabet import A_CODE

METHOD = (
    "orderly sum/choice tree (Vanderkam 2025) per top-level class, a word once per set of choices, "
    "min with sum/union at the top; "
    "depth-first split in a fixed cell order; exact solver on single boards"
)
MAX_TOP_CLASSES = 20_000_000  # top-level classes enumerated in memory
MAX_BOARDS = 2_000_000  # more candidate boards than this means the floor is far too low
SHARDS = 1024  # a proof is cut into about this many shards (fewer when there are fewer classes)

# Default letter partitions per grid size: a few large groups keep the top-level classes few (the work of
# bounding short words grows with the number of classes), while the orderly tree's bound stays tight.
DEFAULT_PARTITIONS = {
    (2, 2): "AEIOU BCDFGHJKLMNPQRSTVWXYZ",
    (2, 3): "AEIOU BCDFGHJKLMNPQRSTVWXYZ",
    (3, 3): "AEIOUY BCDFGHJKLMNPQRSTVWXZ",
}
FALLBACK_PARTITION = "AEIJOU BCDFGMPQVWXZ HKLNRSTY"


# ---- partitions, split order, symmetry -----------------------------------------------------------


@dataclass(frozen=True)
class Partition:
    """Groups of letters (Q = the Qu cube); a cell of a top-level class holds one group."""

    groups: tuple[str, ...]

    @property
    def text(self) -> str:
        """The partition as written on the command line: groups separated by spaces."""
        return " ".join(self.groups)

    @property
    def alphabet(self) -> str:
        """Every letter of the partition, in alphabetical order."""
        return "".join(sorted("".join(self.groups)))

    @property
    def width(self) -> int:
        """The size of the largest group."""
        return max(len(g) for g in self.groups)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The groups as letter codes (groups × width, padded) and their sizes."""
        codes = np.zeros((len(self.groups), self.width), dtype=np.int8)
        for i, g in enumerate(self.groups):
            codes[i, : len(g)] = [ord(ch) - A_CODE for ch in g]
        return codes, np.array([len(g) for g in self.groups], dtype=np.int32)


def parse_partition(text: str) -> Partition:
    """A partition from groups of letters separated by spaces or commas ("AEIOU BCDFG..."); each letter in
    at most one group. Letters left out are never placed, so the proof covers boards of the others only."""
    groups = [g for g in text.replace(",", " ").upper().split() if g]
    if not groups:
        raise WordstatsError(
            "--classes: give groups of letters separated by spaces, e.g. 'AEIOU BCDFGHJKLMNPQRSTVWXYZ'"
        )
    seen: set[str] = set()
    for g in groups:
        for ch in g:
            if not ("A" <= ch <= "Z"):
                raise WordstatsError(f"--classes: {ch!r} in group {g!r} is not a letter A-Z (Q stands for Qu)")
            if ch in seen:
                raise WordstatsError(f"--classes: letter {ch} is in more than one group")
            seen.add(ch)
    return Partition(tuple("".join(sorted(g)) for g in groups))


def default_partition(rows: int, cols: int) -> Partition:
    """The documented default partition of a grid size."""
    key = (min(rows, cols), max(rows, cols))
    return parse_partition(DEFAULT_PARTITIONS.get(key, FALLBACK_PARTITION))


def split_order(rows: int, cols: int) -> np.ndarray:
    """The order cells are split in: most neighbours first, then nearest the centre, then row order."""
    _, ncount = neighbours(rows, cols)
    centre_r, centre_c = (rows - 1) / 2, (cols - 1) / 2
    cells = range(rows * cols)
    key = [(-int(ncount[c]), (c // cols - centre_r) ** 2 + (c % cols - centre_c) ** 2, c) for c in cells]
    return np.array([k[2] for k in sorted(key)], dtype=np.int32)


def symmetries(rows: int, cols: int) -> list[np.ndarray]:
    """The symmetries of the grid as cell permutations: image[i] = the cell whose letter lands on cell i.
    Four for a rectangle (identity, flips, half turn), eight for a square (and the transposes)."""
    grid = np.arange(rows * cols).reshape(rows, cols)
    images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
    if rows == cols:
        images += [grid.T, grid.T[::-1], grid.T[:, ::-1], grid.T[::-1, ::-1]]
    return [np.ascontiguousarray(g.ravel()) for g in images]


def canonical_board(letters: str, rows: int, cols: int) -> str:
    """A board's canonical form: the least, in row order, of the letter strings of its symmetric images."""
    return min("".join(letters[i] for i in image) for image in symmetries(rows, cols))


def top_classes(n_groups: int, rows: int, cols: int) -> np.ndarray:
    """The canonical top-level classes (one row of group indices per class, in increasing order of its code
    with the first cell most significant): those whose code is the least among their symmetric images."""
    n = rows * cols
    total = n_groups**n
    if total > MAX_TOP_CLASSES:
        raise WordstatsError(
            f"{n_groups} letter groups on {n} cells make {total:,} top-level classes; at most "
            f"{MAX_TOP_CLASSES:,} are supported (use fewer groups in --classes)"
        )
    codes = np.arange(total, dtype=np.int64)
    digits = np.empty((total, n), dtype=np.int8)
    rest = codes.copy()
    for cell in range(n - 1, -1, -1):
        digits[:, cell] = rest % n_groups
        rest //= n_groups
    weights = n_groups ** np.arange(n - 1, -1, -1, dtype=np.int64)
    keep = np.ones(total, dtype=bool)
    for image in symmetries(rows, cols)[1:]:
        keep &= codes <= digits[:, image].astype(np.int64) @ weights
    return digits[keep]


# ---- one shard ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """What a proof is about: the grid, the dictionary, the partition, the floor."""

    rows: int
    cols: int
    dictionary: Dictionary
    partition: Partition
    floor: int

    @property
    def n_cells(self) -> int:
        """Cells of the grid."""
        return self.rows * self.cols

    @property
    def class_bits(self) -> int:
        """Bits of a word key that hold the word's points class (the dictionary's number of point values)."""
        return max(1, int(self.dictionary.values.shape[0] - 1).bit_length())

    @property
    def digit_bits(self) -> int:
        """Bits per cell in a word key (a letter index + 1, 0 = cell unused)."""
        return int(self.partition.width + 1).bit_length()

    @property
    def key_bits(self) -> int:
        """Bits of a word key: the points class, and a digit per cell."""
        return self.class_bits + self.n_cells * self.digit_bits


def check_problem(problem: Problem) -> None:
    """Raise a one-line error when the kernels cannot handle the problem."""
    check_size(problem.rows, problem.cols, "prove")
    bits = problem.key_bits
    if bits > 64:
        raise WordstatsError(
            f"{problem.rows}x{problem.cols} with letter groups of up to {problem.partition.width} "
            f"letters needs {bits}-bit word keys (at most 64): use smaller groups in --classes"
        )
    if problem.floor < 1:
        raise WordstatsError(f"--floor must be at least 1, got {problem.floor}")


BOARD_SCHEMA: dict[str, Any] = {"board": pl.String, "score": pl.Int32, "class": pl.String}
CLASS_SCHEMA: dict[str, Any] = {  # one row per top-level class: its bounds and the work its proof took (deterministic)
    "class": pl.String,
    "tree_bound": pl.Int64,
    "sum_union": pl.Int64,
    "best": pl.Int32,
    "word_paths": pl.Int64,
    "tree_nodes": pl.Int64,
    "boards_scored": pl.Int64,
    "visited": pl.List(pl.Int64),
    "dropped": pl.List(pl.Int64),
}
TIMING_SCHEMA: dict[
    str, Any
] = {  # one row per top-level class: CPU seconds by phase, and the process's peak memory after it
    "class": pl.String,
    "words": pl.Float64,
    "tree": pl.Float64,
    "search": pl.Float64,
    "score": pl.Float64,
    "cpu": pl.Float64,
    "peak_rss_mib": pl.Float64,
}
PARTS = ("boards", "classes", "timing")  # a shard's tables; only `timing` depends on the run


def class_name(group_row: np.ndarray) -> str:
    """A top-level class as the group index of each cell, in row order ("0120...")."""
    return "".join(str(int(g)) if g < 10 else chr(ord("a") + int(g) - 10) for g in group_row)


def prove_shard(problem: Problem, classes: np.ndarray) -> dict[str, pl.DataFrame]:
    """Every board of the given top-level classes (rows of group indices) scoring at least the floor, in
    canonical form with its exact score (`boards`), each class's bounds and work (`classes`), and its CPU
    time (`timing`). The first two are a pure function of the arguments."""
    from pipeline.boggle import prove_kernels as pk
    from pipeline.boggle.solver import score_boards

    n = problem.n_cells
    d = problem.dictionary
    nbrs, ncount = neighbours(problem.rows, problem.cols)
    order = split_order(problem.rows, problem.cols)
    group_letters, group_sizes = problem.partition.arrays()
    bits = problem.digit_bits
    keys = np.empty(1 << 16, dtype=np.uint64)
    words = np.empty(1 << 16, dtype=np.int32)
    seen = np.zeros(d.nodes.shape[0], dtype=np.int32)
    images = symmetries(problem.rows, problem.cols)
    found: dict[str, tuple[int, str]] = {}
    rows: list[dict[str, Any]] = []
    timing: list[dict[str, Any]] = []
    scored = 0
    for stamp, row in enumerate(classes, start=1):
        name = class_name(row)
        letters = np.ascontiguousarray(group_letters[row])
        n_letters = np.ascontiguousarray(group_sizes[row])
        t0 = time.process_time()
        keys, words, n_keys, union = pk.word_keys(
            d.nodes,
            d.values,
            nbrs,
            ncount,
            letters,
            n_letters,
            order,
            bits,
            problem.class_bits,
            keys,
            words,
            seen,
            stamp,
        )
        t1 = time.process_time()
        distinct = pk.distinct_keys(keys, words, n_keys, problem.key_bits)
        tree = pk.orderly_tree(distinct, d.values, n, bits, problem.class_bits)
        root, s_pts, c_pos = tree[0], tree[1], tree[4]
        t2 = time.process_time()
        out: dict[str, Any] = {
            "class": name,
            "tree_bound": int(root),
            "sum_union": int(union),
            "best": None,
            "word_paths": int(n_keys),
            "tree_nodes": int(s_pts.shape[0] + c_pos.shape[0]),
            "boards_scored": 0,
            "visited": [0] * n,
            "dropped": [0] * n,
        }
        rows.append(out)
        t3 = t4 = t2
        if min(root, union) >= problem.floor:
            picks, _, tried, cut = pk.orderly_search(n, n_letters, order, *tree[1:], problem.floor)
            t3 = time.process_time()
            out["visited"], out["dropped"] = tried.tolist(), cut.tolist()
            if picks.shape[0]:
                boards = letters[np.arange(n), picks.astype(np.int64)]
                scores = score_boards(boards, problem.rows, problem.cols, d).scores
                out["boards_scored"] = int(boards.shape[0])
                scored += int(boards.shape[0])
                if scored > MAX_BOARDS:
                    raise WordstatsError(
                        f"more than {MAX_BOARDS:,} boards reach the bound: --floor "
                        f"{problem.floor} is far too low for a proof"
                    )
                keep = np.flatnonzero(scores >= problem.floor)
                for i in keep.tolist():
                    raw = boards[i]
                    text = min((raw[image].astype(np.uint8) + A_CODE).tobytes().decode("ascii") for image in images)
                    found[text] = (int(scores[i]), name)
                if keep.size:
                    out["best"] = int(scores[keep].max())
            t4 = time.process_time()
        timing.append(
            {
                "class": name,
                "words": t1 - t0,
                "tree": t2 - t1,
                "search": t3 - t2,
                "score": t4 - t3,
                "cpu": time.process_time() - t0,
                "peak_rss_mib": _driver_peak_mib(),
            }
        )
    boards_found = pl.DataFrame(
        {"board": list(found), "score": [v[0] for v in found.values()], "class": [v[1] for v in found.values()]},
        schema=BOARD_SCHEMA,
    )
    return {
        "boards": boards_found.sort("board"),
        "classes": pl.DataFrame(rows, schema=CLASS_SCHEMA) if rows else pl.DataFrame(schema=CLASS_SCHEMA),
        "timing": pl.DataFrame(timing, schema=TIMING_SCHEMA) if timing else pl.DataFrame(schema=TIMING_SCHEMA),
    }


# ---- the job: shards on the executor, merge, summary ------------------------------------------------


def dictionary_hash(dictionary: Dictionary) -> str:
    """A digest of what the proof reads from a dictionary: its trie and points."""
    digest = hashlib.sha256()
    digest.update(np.ascontiguousarray(dictionary.nodes).tobytes())
    digest.update(np.ascontiguousarray(dictionary.values).tobytes())
    return digest.hexdigest()


def job_params(problem: Problem) -> dict[str, Any]:
    """The parameters that decide a proof's result (the executor adds the code's digest to the job id)."""
    rules = problem.dictionary.rules
    return {
        "size": f"{problem.rows}x{problem.cols}",
        "floor": problem.floor,
        "partition": problem.partition.text,
        "rules": {"name": rules.name, "min_length": rules.min_length, "points": list(rules.points)},
        "dictionary_sha256": dictionary_hash(problem.dictionary),
        "split_order": split_order(problem.rows, problem.cols).tolist(),
    }


def default_shard_size(n_classes: int, shards: int = SHARDS) -> int:
    """Top-level classes per shard by default: about `shards` shards (one class each when there are fewer)."""
    return max(1, math.ceil(n_classes / shards))


@dataclass(frozen=True)
class Proving:
    """What every shard of a proof reads (put in Ray's object store once per job): the problem, with the
    compiled dictionary's arrays but not its word list, and the canonical top-level classes."""

    problem: Problem
    classes: np.ndarray


def prove_work(shard: Shard, p: Proving) -> dict[str, pl.DataFrame]:
    """One shard of a proof: top-level classes shard.start..shard.stop-1."""
    return prove_shard(p.problem, p.classes[shard.start : shard.stop])


def prove_merge(part: str, rows: pl.DataFrame) -> pl.DataFrame:
    """The boards once each (a board lies in one top-level class), best first, then alphabetical; the other
    parts in shard order."""
    if part == "boards":
        return rows.unique(subset="board", keep="first", maintain_order=True).sort(
            ["score", "board"], descending=[True, False]
        )
    return rows


def prove_job(problem: Problem, shard_size: int | None = None) -> Job:
    """The proof as a sharded job: one item per canonical top-level class."""
    check_problem(problem)
    classes = top_classes(len(problem.partition.groups), problem.rows, problem.cols)
    n_classes = int(classes.shape[0])
    light = replace(problem, dictionary=replace(problem.dictionary, words=()))
    return Job(
        "boggle-prove",
        job_params(problem),
        n_classes,
        shard_size or default_shard_size(n_classes),
        0,
        prove_work,
        PARTS,
        Proving(light, classes),
        prove_merge,
        unit="classes",
    )


@dataclass
class Proof:
    """A finished proof: the boards (one per symmetry class, best first) and its summary."""

    boards: pl.DataFrame
    summary: dict[str, Any]


def prove(
    problem: Problem,
    jobs_root: Path,
    engine: Engine | None = None,
    progress=None,
    shard_size: int | None = None,
) -> Proof:
    """Run the proof's missing shards in jobs_root/<job id>/ on `engine` (default: this process), then merge."""
    job = prove_job(problem, shard_size)
    engine = engine or LocalEngine()
    started_cpu = time.process_time()
    result = run_job(job, Path(jobs_root) / job.job_id, engine, progress)
    return proof_of(problem, result, engine, time.process_time() - started_cpu)


def proof_of(problem: Problem, result: JobResult, engine: Engine, driver_cpu: float = 0.0) -> Proof:
    """The proof from a finished job: its boards and summary."""
    tables = result.tables
    boards = tables["boards"]
    classes, timing = tables["classes"], tables["timing"]
    n = problem.n_cells
    visited = _column_sum(classes, "visited", n)
    dropped = _column_sum(classes, "dropped", n)
    dropped_top = classes.filter(pl.min_horizontal("tree_bound", "sum_union") < problem.floor).height
    seconds = {k: round(float(timing[k].sum()), 3) for k in ("words", "tree", "search", "score")}
    best = int(boards["score"][0]) if boards.height else None
    params = result.job.params
    summary = {
        "size": params["size"],
        "floor": problem.floor,
        "partition": problem.partition.text,
        "alphabet": problem.partition.alphabet,
        "rules": params["rules"],
        "symmetries": len(symmetries(problem.rows, problem.cols)),
        "split_order": params["split_order"],
        "bound_method": METHOD,
        "job": result.job.job_id,
        "top_level_classes": classes.height,
        "top_level_dropped": dropped_top,
        "classes_examined": classes.height + int(visited.sum()),
        "classes_eliminated": dropped_top + int(dropped.sum()),
        "subclasses_by_split": {"visited": visited.tolist(), "dropped": dropped.tolist()},
        "boards_scored": int(classes["boards_scored"].sum()) if classes.height else 0,
        "boards": boards.height,
        "best": best,
        "word_paths": int(classes["word_paths"].sum()) if classes.height else 0,
        "tree_nodes": int(classes["tree_nodes"].sum()) if classes.height else 0,
        "tightness": tightness(classes.to_dicts(), problem.floor, best),
        "engine": engine.name,
        "address": engine.address,
        "workers": getattr(engine, "processes", None),
        "shards": result.computed + result.reused,
        "shards_computed": result.computed,
        "shards_reused": result.reused,
        "seconds": {
            "bounding": round(seconds["words"] + seconds["tree"], 3),
            "splitting": seconds["search"],
            "scoring": seconds["score"],
            **{f"{k}_detail": v for k, v in seconds.items()},
        },
        "cpu_seconds": round(float(timing["cpu"].sum()), 3) if timing.height else 0.0,
        "driver_cpu_seconds": round(driver_cpu, 3),
        "wall_seconds": round(result.seconds, 3),
        "peak_rss_mib": round(
            max(float(timing["peak_rss_mib"].to_numpy().max(initial=0.0)), _driver_peak_mib()),
            1,
        ),
        "job_folder": str(result.folder),
    }
    return Proof(boards, summary)


def _driver_peak_mib() -> float:
    """This process's peak memory (resident set), MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _column_sum(classes: pl.DataFrame, column: str, n: int) -> np.ndarray:
    """The element-wise sum of a list column of per-split-position counts."""
    if not classes.height:
        return np.zeros(n, dtype=np.int64)
    return np.array(classes[column].to_list(), dtype=np.int64).reshape(-1, n).sum(axis=0)


def tightness(tops: list[dict], floor: int, best: int | None) -> dict[str, Any]:
    """How tight the top-level bounds are: bound / best board of the class (classes with a board at least the
    floor), and the distribution of bound / floor over all top-level classes."""
    if not tops:
        return {}
    bounds = np.array([min(t["tree_bound"], t["sum_union"]) for t in tops], dtype=np.float64)
    out: dict[str, Any] = {
        "top_bound_max": int(bounds.max()),
        "top_bound_median": float(np.median(bounds)),
        "top_bound_over_floor_median": round(float(np.median(bounds) / floor), 3),
        "sum_union_tighter": int(sum(t["sum_union"] < t["tree_bound"] for t in tops)),
    }
    with_best = [t for t in tops if t["best"]]
    if with_best:
        ratios = np.array([min(t["tree_bound"], t["sum_union"]) / t["best"] for t in with_best])
        out["bound_over_best"] = {
            "classes": len(with_best),
            "min": round(float(ratios.min()), 3),
            "median": round(float(np.median(ratios)), 3),
            "max": round(float(ratios.max()), 3),
        }
        if best:
            holder = max(with_best, key=lambda t: (t["best"], -t["tree_bound"]))
            out["best_class"] = {
                "class": holder["class"],
                "tree_bound": holder["tree_bound"],
                "sum_union": holder["sum_union"],
                "best": holder["best"],
                "ratio": round(min(holder["tree_bound"], holder["sum_union"]) / holder["best"], 3),
            }
    return out


def default_workers() -> int:
    """Worker processes by default: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
