"""Prove the best Boggle boards: branch and bound over board classes (see docs/boggle-prove.md).

Each canonical top-level class (pipeline/boggle/classes.py) is bounded from above by its orderly tree: a class
whose bound is below the floor holds no board worth keeping; the others are forced cell by cell and searched
down to single boards, which the exact solver scores. Every board found is written in its canonical form. The
kernels are C (pipeline/boggle/native/, through `pipeline.boggle.engine`), so a proof's process imports no numba;
the numba kernels `kernels/prove.py` and `kernels/breaking.py` are the reference they are tested against.

The work of one shard (a run of classes) is `prove_shard`; `prove_job` makes the proof a job of the
sharded-job executor (`pipeline.core.executor`), which runs the shards on local processes or a Ray cluster,
keeps each finished one under the lexicon's jobs folder so that a rerun computes only the missing ones, and
merges them; `proof_of` turns the merged tables into the boards and the proof's summary.
"""

from __future__ import annotations

import hashlib
import math
import os
import resource
import time
from collections import namedtuple
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from pipeline.boggle.classes import (
    ClassSpace,
    Partition,
    default_partition,
    group_codes,
    parse_partition,
    split_order,
    symmetries,
)
from pipeline.boggle.dictionary import Dictionary
from pipeline.boggle.rules import check_size, neighbours
from pipeline.core.errors import FieldError, WordstatsError
from pipeline.core.executor import Engine, JobResult, LocalEngine, run_job
from pipeline.core.jobs import Job, Shard
from pipeline.letters.alphabet import A_CODE

__all__ = ["Partition", "default_partition", "parse_partition"]

SWITCH = 1.7  # a tree whose bound is at most this times the floor is searched rather than forced
FREE_CELLS = 4  # cells always left to the search: at most n - FREE_CELLS are forced
MAX_BOARDS = 50_000_000  # more candidate boards than this means the floor is far too low (800 MB of picks)
SCORE_CHUNK = 1 << 20  # candidate boards scored at a time: memory stays flat however many there are
SHARDS = 1024  # a proof is cut into about this many shards (fewer when there are fewer classes)
ARENA_SLOTS = 1 << 22  # a worker's first arena (int32 slots) where the system refuses to reserve them all
KEPT_PATHS = 1 << 22  # word-path buffers up to this many paths are kept for the next class, larger ones renewed


def method(switch: float, free: int) -> str:
    """The bound and split method, for the summary."""
    return (
        "orderly sum/choice tree (Vanderkam 2025) per top-level class, a word once per set of choices; "
        f"cells forced (subtrees merged) while the bound is above {switch:g}x the floor, "
        f"the last {free} cells and lower bounds searched depth first; exact solver on single boards"
    )


@dataclass(frozen=True)
class Problem:
    """What a proof is about: the grid, the dictionary, the partition, the floor, and when to stop forcing."""

    rows: int
    cols: int
    dictionary: Dictionary
    partition: Partition
    floor: int
    switch: float = SWITCH
    free: int = FREE_CELLS

    @property
    def n_cells(self) -> int:
        """Cells of the grid."""
        return self.rows * self.cols

    @property
    def space(self) -> ClassSpace:
        """The top-level classes."""
        return ClassSpace(self.rows, self.cols, self.partition)

    @property
    def order(self) -> np.ndarray:
        """The split order."""
        return split_order(self.rows, self.cols)

    @property
    def key_bits(self) -> int:
        """The most bits a class's word keys take: a digit per split position after the first, wide enough for
        the largest group of its cell."""
        widths = [max(len(g) for g in groups) for groups in self.space.cell_groups]
        return sum(int(widths[c]).bit_length() for c in self.order[1:].tolist())


def check_problem(problem: Problem) -> None:
    """Raise a one-line error when the kernels cannot handle the problem."""
    check_size(problem.rows, problem.cols, "prove")
    if problem.key_bits > 64:
        raise WordstatsError(
            f"{problem.rows}x{problem.cols} with letter groups of up to {problem.partition.width} letters needs "
            f"{problem.key_bits}-bit word keys (at most 64): use smaller groups in --classes"
        )
    if problem.floor < 1:
        raise FieldError("{floor} must be at least 1, got {got}", got=problem.floor)


# The kernels' view of a class (the C functions read its fields by position, as pipeline/boggle/native/layout.c
# says; kernels.prove.Layout, the numba kernels' own, has the same fields).
Layout = namedtuple(
    "Layout",
    ["letters", "n_letters", "order", "pos_of", "shift", "width", "pos_at_bit", "high", "lows", "key_bits"],
)
Lexicon = namedtuple("Lexicon", ["nodes", "values", "nbrs", "ncount"])  # the dictionary and the grid


def class_layout(letters: list[str], order: np.ndarray) -> Layout:
    """The kernels' view of a class: its cells' letters, the split order and the word keys' digits."""
    n = len(letters)
    codes, n_letters = group_codes(letters)
    width = np.zeros(n, dtype=np.int64)
    shift = np.zeros(n, dtype=np.int64)
    for p in range(1, n):
        width[p] = int(n_letters[order[p]]).bit_length()
    for p in range(n - 2, 0, -1):
        shift[p] = shift[p + 1] + width[p + 1]
    pos_at_bit = np.zeros(64, dtype=np.int64)
    high = lows = 0
    for p in range(1, n):
        pos_at_bit[shift[p] : shift[p] + width[p]] = p
        high |= 1 << int(shift[p] + width[p] - 1)
        lows |= ((1 << int(width[p] - 1)) - 1) << int(shift[p])
    key_bits = int(shift[1] + width[1]) if n > 1 else 0
    pos_of = np.argsort(order).astype(np.int32)
    order32 = order.astype(np.int32)
    return Layout(
        codes, n_letters, order32, pos_of, shift, width, pos_at_bit, np.uint64(high), np.uint64(lows), key_bits
    )


BOARD_SCHEMA: dict[str, Any] = {"board": pl.String, "score": pl.Int32, "class": pl.Int64}
CLASS_SCHEMA: dict[str, Any] = {  # one row per class: its bounds and the work its proof took (deterministic)
    "class": pl.Int64,
    "tree_bound": pl.Int64,
    "sum_union": pl.Int64,
    "best": pl.Int32,
    "word_paths": pl.Int64,
    "tree_slots": pl.Int64,
    "forced": pl.Int64,
    "force_dropped": pl.Int64,
    "searched": pl.Int64,
    "boards_scored": pl.Int64,
    "visited": pl.List(pl.Int64),
    "dropped": pl.List(pl.Int64),
}
TIMING_SCHEMA: dict[str, Any] = {  # one row per class: CPU seconds by phase, the process's peak memory after it
    "class": pl.Int64,
    "words": pl.Float64,
    "tree": pl.Float64,
    "search": pl.Float64,
    "score": pl.Float64,
    "cpu": pl.Float64,
    "peak_rss_mib": pl.Float64,
}
PARTS = ("boards", "classes", "timing")  # a shard's tables; only `timing` depends on the run


class Prover:
    """Proves classes of one problem, one after another, reusing its buffers (the word paths grow to the largest
    class seen; the tree's arena is reserved whole, its pages committed as the largest class writes them)."""

    def __init__(self, problem: Problem):
        from pipeline.boggle.engine import kernels

        d = problem.dictionary
        self.problem = problem
        self.kernels = kernels()
        self.lexicon = Lexicon(d.nodes, d.values, *neighbours(problem.rows, problem.cols))
        self._new_path_buffers()
        self.seen = np.zeros((d.nodes.shape[0] + 63) // 64, dtype=np.uint64)  # a bit per trie node
        self.arena, self.base = reserved_arena()
        self.images = symmetries(problem.rows, problem.cols)

    def _new_path_buffers(self, size: int = 1 << 16) -> None:
        """Fresh word-path buffers of `size` paths (word_paths grows them as a class needs). numpy maps fresh pages
        for large ones, so they cost memory only for the paths a class writes: renewing a class's buffers at their
        size frees its paths and leaves the next class room without walking its words twice."""
        self.keys = np.empty(size, dtype=np.uint64)
        self.wcs = np.empty(size, dtype=np.uint32)
        self.firsts = np.empty(size, dtype=np.uint8)

    def prove(self, class_id: int) -> tuple[dict[str, tuple[int, int]], dict[str, Any], dict[str, Any]]:
        """The boards of one class at or above the floor ({canonical board: (score, class)}), the class's row
        of bounds and work, and its row of timings."""
        k = self.kernels
        p = self.problem
        n, order, floor = p.n_cells, p.order, p.floor
        lay = class_layout(p.space.letters(class_id), order)
        t0 = time.process_time()
        self.keys, self.wcs, self.firsts, n_paths, union = k.word_paths(
            self.lexicon, lay, self.keys, self.wcs, self.firsts, self.seen
        )
        row: dict[str, Any] = {"class": class_id, "tree_bound": None, "sum_union": int(union), "best": None}
        row.update(word_paths=0, tree_slots=0, forced=0, force_dropped=0, searched=0, boards_scored=0)
        row.update(visited=[0] * n, dropped=[0] * n)
        found: dict[str, tuple[int, int]] = {}
        t1 = t2 = t3 = t4 = time.process_time()
        if union >= floor:
            n_first = int(lay.n_letters[order[0]])
            keys, wcs, at = k.sort_paths(self.keys, self.wcs, self.firsts, n_paths, lay.key_bits, n_first)
            t1 = time.process_time()
            if self.keys.shape[0] > KEPT_PATHS:  # the unsorted paths are done with: free them before the tree
                self._new_path_buffers(self.keys.shape[0])
            self.arena, tip, root = _in_arena(
                k.class_tree, class_id, keys, wcs, at, p.dictionary.values, lay, self.arena, self.base
            )
            row.update(tree_bound=int(self.arena[root + k.BOUND]), word_paths=int(keys.shape[0]))
            row["tree_slots"] = int(tip - self.base)
            del keys, wcs, at  # the sorted paths are not needed by the search: free them before it writes the arena
            t2 = time.process_time()
            per_pos = lay.n_letters[order].astype(np.int64)
            switch = int(p.switch * floor)
            self.arena, picks, forced, cut, searched, visited, dropped = _in_arena(
                k.break_tree, class_id, self.arena, tip, root, per_pos, floor, switch, n - p.free
            )
            row.update(forced=int(forced.sum()), force_dropped=int(cut.sum()), searched=int(searched.sum()))
            row.update(visited=visited.tolist(), dropped=dropped.tolist())
            t3 = time.process_time()
            if picks.shape[0]:
                found = self._score(picks, lay, class_id, row)
            t4 = time.process_time()
        timing = {"class": class_id, "words": t1 - t0, "tree": t2 - t1, "search": t3 - t2, "score": t4 - t3}
        timing.update(cpu=time.process_time() - t0, peak_rss_mib=_driver_peak_mib())
        return found, row, timing

    def _score(self, picks: np.ndarray, lay, class_id: int, row: dict[str, Any]) -> dict[str, tuple[int, int]]:
        """Score the candidate boards (letter index per split position) exactly, SCORE_CHUNK at a time; those at
        or above the floor in canonical form."""
        p = self.problem
        if picks.shape[0] > MAX_BOARDS:
            raise WordstatsError(
                f"more than {MAX_BOARDS:,} boards reach the bound: --floor {p.floor} is far too low for a proof"
            )
        found: dict[str, tuple[int, int]] = {}
        for start in range(0, picks.shape[0], SCORE_CHUNK):
            found.update(self._score_chunk(picks[start : start + SCORE_CHUNK], lay, class_id))
        row["boards_scored"] = int(picks.shape[0])
        if found:
            row["best"] = max(score for score, _ in found.values())
        return found

    def _score_chunk(self, picks: np.ndarray, lay, class_id: int) -> dict[str, tuple[int, int]]:
        """The boards of one chunk of candidates scoring at least the floor, in canonical form."""
        p = self.problem
        n = p.n_cells
        per_cell = np.empty_like(picks)
        per_cell[:, p.order] = picks
        boards = lay.letters[np.arange(n), per_cell]
        lex = self.lexicon
        scores = self.kernels.boggle_scores(boards, lex.nbrs, lex.ncount, lex.nodes, lex.values)
        found = {}
        for i in np.flatnonzero(scores >= p.floor).tolist():
            text = min((boards[i][image].astype(np.uint8) + A_CODE).tobytes().decode("ascii") for image in self.images)
            found[text] = (int(scores[i]), class_id)
        return found


def prove_shard(problem: Problem, classes: np.ndarray) -> dict[str, pl.DataFrame]:
    """Every board of the given classes (ids) scoring at least the floor, in canonical form with its exact
    score (`boards`), each class's bounds and work (`classes`), and its CPU time (`timing`). The first two
    are a pure function of the arguments."""
    prover = _prover(problem)
    found: dict[str, tuple[int, int]] = {}
    rows, timing = [], []
    for class_id in np.asarray(classes).tolist():
        boards, row, times = prover.prove(int(class_id))
        found.update(boards)
        rows.append(row)
        timing.append(times)
    boards_found = pl.DataFrame(
        {"board": list(found), "score": [v[0] for v in found.values()], "class": [v[1] for v in found.values()]},
        schema=BOARD_SCHEMA,
    )
    return {
        "boards": boards_found.sort("board"),
        "classes": pl.DataFrame(rows, schema=CLASS_SCHEMA) if rows else pl.DataFrame(schema=CLASS_SCHEMA),
        "timing": pl.DataFrame(timing, schema=TIMING_SCHEMA) if timing else pl.DataFrame(schema=TIMING_SCHEMA),
    }


def reserved_arena() -> tuple[np.ndarray, int]:
    """A new arena of every slot an int32 offset addresses (8 GiB of address space, memory only for the pages
    written), so that it never grows by copying; a small one that grows where the system refuses that."""
    from pipeline.boggle.engine import kernels

    k = kernels()
    try:
        return k.new_arena(k.MAX_SLOTS)
    except MemoryError:
        return k.new_arena(ARENA_SLOTS)


def _in_arena(kernel, class_id: int, *args):
    """kernel(*args), its running out of arena slots as a one-line error naming the class."""
    try:
        return kernel(*args)
    except MemoryError as error:
        raise WordstatsError(f"class {class_id}: {error}") from None


_PROVERS: dict[int, Prover] = {}  # the last problem's prover in this process (its buffers are large)


def _prover(problem: Problem) -> Prover:
    """This process's prover of the problem (a new one for a new problem)."""
    key = id(problem)
    if key not in _PROVERS:
        _PROVERS.clear()
        _PROVERS[key] = Prover(problem)
    return _PROVERS[key]


# ---- the job: shards on the executor, merge, summary ------------------------------------------------


def dictionary_hash(dictionary: Dictionary) -> str:
    """A digest of what the proof reads from a dictionary: its trie and points."""
    digest = hashlib.sha256()
    digest.update(np.ascontiguousarray(dictionary.nodes).tobytes())
    digest.update(np.ascontiguousarray(dictionary.values).tobytes())
    return digest.hexdigest()


def job_params(problem: Problem, only: list[int] | None = None) -> dict[str, Any]:
    """The parameters that decide a proof's result (the executor adds the code's digest to the job id)."""
    rules = problem.dictionary.rules
    params = {
        "size": f"{problem.rows}x{problem.cols}",
        "floor": problem.floor,
        "partition": problem.partition.text,
        "rules": {"name": rules.name, "min_length": rules.min_length, "points": list(rules.points)},
        "dictionary_sha256": dictionary_hash(problem.dictionary),
        "split_order": problem.order.tolist(),
        "switch": problem.switch,
        "free_cells": problem.free,
    }
    if only is not None:
        params["classes"] = only
    return params


def default_shard_size(n_classes: int, shards: int = SHARDS) -> int:
    """Classes per shard by default: about `shards` shards (one class each when there are fewer)."""
    return max(1, math.ceil(n_classes / shards))


@dataclass(frozen=True)
class Proving:
    """What every shard of a proof reads (put in Ray's object store once per job): the problem, with the
    compiled dictionary's arrays but not its word list, and the class ids to prove."""

    problem: Problem
    classes: np.ndarray


def prove_work(shard: Shard, p: Proving) -> dict[str, pl.DataFrame]:
    """One shard of a proof: classes shard.start..shard.stop-1 of the list."""
    return prove_shard(p.problem, p.classes[shard.start : shard.stop])


def prove_merge(part: str, rows: pl.DataFrame) -> pl.DataFrame:
    """The boards once each (a board lies in one class), best first, then alphabetical; the other parts in
    shard order."""
    if part == "boards":
        return rows.unique(subset="board", keep="first", maintain_order=True).sort(
            ["score", "board"], descending=[True, False]
        )
    return rows


def prove_job(problem: Problem, shard_size: int | None = None, only: list[int] | None = None) -> Job:
    """The proof as a sharded job: one item per canonical class (or per class of `only`)."""
    check_problem(problem)
    classes = np.array(sorted(set(only)), dtype=np.int64) if only is not None else problem.space.canonical_ids()
    n_classes = int(classes.shape[0])
    light = replace(problem, dictionary=replace(problem.dictionary, words=()))
    return Job(
        "boggle-prove",
        job_params(problem, None if only is None else classes.tolist()),
        n_classes,
        shard_size or default_shard_size(n_classes),
        0,
        prove_work,
        PARTS,
        Proving(light, classes),
        prove_merge,
        unit="classes",
    )


def chosen_class(problem: Problem, text: str) -> int:
    """The canonical class a --class names: its id, or a board it holds (cells in row order, Q or Qu)."""
    from pipeline.boggle.rules import split_cubes

    space = problem.space
    if text.strip().isascii() and text.strip().isdigit():  # 0-9 only (isdigit alone takes ¹²)
        class_id = int(text)
        if class_id >= space.total:
            raise FieldError(
                "{one_class} {text}: ids of this partition run from 0 to {last:,}", text=text, last=space.total - 1
            )
    else:
        cubes = split_cubes(text.strip().upper(), f"--class {text}")
        if len(cubes) != problem.n_cells:
            raise WordstatsError(
                f"--class {text}: {len(cubes)} cells, a {problem.rows}x{problem.cols} board has {problem.n_cells}"
            )
        class_id = space.class_of("".join(c[0] for c in cubes))
    return int(space.canonical(np.array([class_id]))[0])


@dataclass(frozen=True)
class ProofTables:
    """A finished proof: the boards (one per symmetry class, best first) and its summary."""

    boards: pl.DataFrame
    summary: dict[str, Any]


def prove(
    problem: Problem,
    jobs_root: Path,
    engine: Engine | None = None,
    progress=None,
    shard_size: int | None = None,
    only: list[int] | None = None,
) -> ProofTables:
    """Run the proof's missing shards in jobs_root/<job id>/ on `engine` (default: this process), then merge."""
    job = prove_job(problem, shard_size, only)
    engine = engine or LocalEngine()
    started_cpu = time.process_time()
    result = run_job(job, Path(jobs_root) / job.job_id, engine, progress)
    return proof_of(problem, result, engine, time.process_time() - started_cpu)


def proof_of(problem: Problem, result: JobResult, engine: Engine, driver_cpu: float = 0.0) -> ProofTables:
    """The proof from a finished job: its boards and summary."""
    tables = result.tables
    boards = tables["boards"]
    classes, timing = tables["classes"], tables["timing"]
    n = problem.n_cells
    visited = _column_sum(classes, "visited", n)
    dropped = _column_sum(classes, "dropped", n)
    bound = pl.min_horizontal(pl.col("tree_bound").fill_null(pl.col("sum_union")), "sum_union")
    top = classes.with_columns(bound=bound)
    dropped_top = top.filter(pl.col("bound") < problem.floor).height
    total = {k: int(classes[k].sum()) if classes.height else 0 for k in ("forced", "force_dropped", "searched")}
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
        "bound_method": method(problem.switch, problem.free),
        "job": result.job.job_id,
        "top_level_classes": classes.height,
        "top_level_dropped": dropped_top,
        "trees_forced": total["forced"],
        "trees_searched": total["searched"],
        "classes_examined": classes.height + total["forced"] + int(visited.sum()),
        "classes_eliminated": dropped_top + total["force_dropped"] + int(dropped.sum()),
        "subclasses_by_split": {"visited": visited.tolist(), "dropped": dropped.tolist()},
        "boards_scored": int(classes["boards_scored"].sum()) if classes.height else 0,
        "boards": boards.height,
        "best": best,
        "word_paths": int(classes["word_paths"].sum()) if classes.height else 0,
        "tree_slots": int(classes["tree_slots"].sum()) if classes.height else 0,
        "tightness": tightness(top.to_dicts(), problem.floor, best),
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
    return ProofTables(boards, summary)


def _driver_peak_mib() -> float:
    """This process's peak memory (resident set), MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _column_sum(classes: pl.DataFrame, column: str, n: int) -> np.ndarray:
    """The element-wise sum of a list column of per-split-position counts."""
    if not classes.height:
        return np.zeros(n, dtype=np.int64)
    return np.array(classes[column].to_list(), dtype=np.int64).reshape(-1, n).sum(axis=0)


def tightness(tops: list[dict], floor: int, best: int | None) -> dict[str, Any]:
    """How tight the top-level bounds are (`bound`: the smaller of the tree bound and sum/union): bound / best
    board of the class (classes with a board at least the floor), and bound / floor over all classes."""
    if not tops:
        return {}
    bounds = np.array([t["bound"] for t in tops], dtype=np.float64)
    out: dict[str, Any] = {
        "top_bound_max": int(bounds.max()),
        "top_bound_median": _median(bounds),
        "top_bound_over_floor_median": round(_median(bounds) / floor, 3),
        "sum_union_tighter": int(sum(t["tree_bound"] is None or t["sum_union"] < t["tree_bound"] for t in tops)),
    }
    with_best = [t for t in tops if t["best"]]
    if with_best:
        ratios = np.array([t["bound"] / t["best"] for t in with_best])
        out["bound_over_best"] = {
            "classes": len(with_best),
            "min": round(float(ratios.min()), 3),
            "median": round(_median(ratios), 3),
            "max": round(float(ratios.max()), 3),
        }
        if best:
            holder = max(with_best, key=lambda t: (t["best"], -(t["tree_bound"] or 0)))
            out["best_class"] = {
                "class": holder["class"],
                "tree_bound": holder["tree_bound"],
                "best": holder["best"],
                "sum_union": holder["sum_union"],
                "ratio": round(holder["bound"] / holder["best"], 3),
            }
    return out


def _median(values: np.ndarray) -> float:
    """np.median of a float64 array without a NaN among them (whose check would import numpy.ma, 14 ms)."""
    ordered = np.sort(values)
    middle = ordered.size // 2
    return float(ordered[middle] if ordered.size % 2 else (ordered[middle - 1] + ordered[middle]) / 2)


def default_workers() -> int:
    """Worker processes by default: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
