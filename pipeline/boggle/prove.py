"""Prove the best Boggle boards: branch and bound over board classes (see docs/boggle-prove.md).

A *board class* gives every cell a set of letters and stands for every board that picks one letter per cell.
A *partition* splits the letters into groups; a *top-level class* gives every cell one group. Each top-level
class is bounded from above by its orderly tree (the kernels in `prove_kernels`); a class whose bound is
below the floor holds no board worth keeping, the others are split cell by cell, in a fixed split order,
down to single boards, which the exact solver scores. Only one top-level class per symmetry of the grid is
examined (8 symmetries of a square, 4 of a rectangle), and every board found is written in its canonical
form: the least, in row order, of the letter strings of its symmetric images.

The work of one shard (a run of top-level classes) is the pure function `prove_shard`; `prove` runs the
shards (on local processes), keeps each finished one under the lexicon's jobs folder so that a rerun only
computes the missing ones, and merges them.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from pipeline.boggle.dictionary import Dictionary
from pipeline.boggle.rules import check_size, neighbours
from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import A_CODE

METHOD = (
    "orderly sum/choice tree (Vanderkam 2025) per top-level class, min with sum/union at the top; "
    "depth-first split in a fixed cell order; exact solver on single boards"
)
MAX_TOP_CLASSES = 20_000_000  # top-level classes enumerated in memory
MAX_BOARDS = 2_000_000  # more candidate boards than this means the floor is far too low
SHARDS = 128  # a proof is cut into about this many shards (fewer when there are fewer classes)

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


def check_problem(problem: Problem) -> None:
    """Raise a one-line error when the kernels cannot handle the problem."""
    check_size(problem.rows, problem.cols, "prove")
    bits = problem.class_bits + problem.n_cells * problem.digit_bits
    if bits > 64:
        raise WordstatsError(
            f"{problem.rows}x{problem.cols} with letter groups of up to {problem.partition.width} "
            f"letters needs {bits}-bit word keys (at most 64): use smaller groups in --classes"
        )
    if problem.floor < 1:
        raise WordstatsError(f"--floor must be at least 1, got {problem.floor}")


@dataclass
class ShardResult:
    """The boards of a shard's classes scoring at least the floor, and what it took to find them."""

    boards: pl.DataFrame  # board (canonical), score, class
    stats: dict[str, Any] = field(default_factory=dict)


BOARD_SCHEMA = {"board": pl.String, "score": pl.UInt32, "class": pl.String}


def class_name(group_row: np.ndarray) -> str:
    """A top-level class as the group index of each cell, in row order ("0120...")."""
    return "".join(str(int(g)) if g < 10 else chr(ord("a") + int(g) - 10) for g in group_row)


def prove_shard(problem: Problem, classes: np.ndarray) -> ShardResult:
    """Every board of the given top-level classes (rows of group indices) scoring at least the floor, in
    canonical form with its exact score, and the shard's statistics. A pure function of its arguments."""
    from pipeline.boggle import prove_kernels as pk
    from pipeline.boggle.solver import score_boards

    started_cpu, started = time.process_time(), time.perf_counter()
    n = problem.n_cells
    d = problem.dictionary
    nbrs, ncount = neighbours(problem.rows, problem.cols)
    order = split_order(problem.rows, problem.cols)
    group_letters, group_sizes = problem.partition.arrays()
    bits = problem.digit_bits
    keys = np.empty(1 << 16, dtype=np.uint64)
    seen = np.zeros(d.nodes.shape[0], dtype=np.int32)
    images = symmetries(problem.rows, problem.cols)
    seconds = {"words": 0.0, "tree": 0.0, "search": 0.0, "score": 0.0}
    visited = np.zeros(n, dtype=np.int64)
    dropped = np.zeros(n, dtype=np.int64)
    found: dict[str, tuple[int, str]] = {}
    tops = []
    totals = {"classes": 0, "classes_dropped_at_top": 0, "word_paths": 0, "tree_nodes": 0, "boards_scored": 0}
    for stamp, row in enumerate(classes, start=1):
        letters = np.ascontiguousarray(group_letters[row])
        n_letters = np.ascontiguousarray(group_sizes[row])
        t0 = time.process_time()
        keys, n_keys, union = pk.word_keys(
            d.nodes, d.values, nbrs, ncount, letters, n_letters, order, bits, problem.class_bits, keys, seen, stamp
        )
        t1 = time.process_time()
        tree = pk.orderly_tree(np.sort(keys[:n_keys]), d.values, n, bits, problem.class_bits)
        root, s_pts, c_pos = tree[0], tree[1], tree[4]
        t2 = time.process_time()
        totals["classes"] += 1
        totals["word_paths"] += int(n_keys)
        totals["tree_nodes"] += int(s_pts.shape[0] + c_pos.shape[0])
        top: dict[str, Any] = {"class": class_name(row), "tree_bound": int(root), "sum_union": int(union), "best": None}
        tops.append(top)
        if min(root, union) < problem.floor:
            totals["classes_dropped_at_top"] += 1
            seconds["words"] += t1 - t0
            seconds["tree"] += t2 - t1
            continue
        picks, _, tried, cut = pk.orderly_search(n, n_letters, order, *tree[1:], problem.floor)
        t3 = time.process_time()
        visited += tried
        dropped += cut
        if picks.shape[0]:
            boards = letters[np.arange(n), picks.astype(np.int64)]
            scores = score_boards(boards, problem.rows, problem.cols, d).scores
            totals["boards_scored"] += int(boards.shape[0])
            if totals["boards_scored"] > MAX_BOARDS:
                raise WordstatsError(
                    f"more than {MAX_BOARDS:,} boards reach the bound: --floor "
                    f"{problem.floor} is far too low for a proof"
                )
            keep = np.flatnonzero(scores >= problem.floor)
            for i in keep.tolist():
                raw = boards[i]
                text = min((raw[image].astype(np.uint8) + A_CODE).tobytes().decode("ascii") for image in images)
                found[text] = (int(scores[i]), top["class"])
            if keep.size:
                top["best"] = int(scores[keep].max())
        t4 = time.process_time()
        seconds["words"] += t1 - t0
        seconds["tree"] += t2 - t1
        seconds["search"] += t3 - t2
        seconds["score"] += t4 - t3
    frame = pl.DataFrame(
        {"board": list(found), "score": [v[0] for v in found.values()], "class": [v[1] for v in found.values()]},
        schema=BOARD_SCHEMA,
    )
    stats = {
        **totals,
        "subclasses_visited": visited.tolist(),  # per split position: partial boards examined
        "subclasses_dropped": dropped.tolist(),  # ... and eliminated by their bound
        "tops": tops,
        "seconds": {k: round(v, 4) for k, v in seconds.items()},
        "cpu_seconds": round(time.process_time() - started_cpu, 4),
        "wall_seconds": round(time.perf_counter() - started, 4),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    return ShardResult(frame.sort("board"), stats)


# ---- the job: shards, resume, merge ---------------------------------------------------------------


def dictionary_hash(dictionary: Dictionary) -> str:
    """A digest of what the proof reads from a dictionary: its trie and points."""
    digest = hashlib.sha256()
    digest.update(np.ascontiguousarray(dictionary.nodes).tobytes())
    digest.update(np.ascontiguousarray(dictionary.values).tobytes())
    return digest.hexdigest()


def code_digest() -> str:
    """A digest of the proof's own code (this module and its kernels): a changed proof never resumes old shards."""
    from pipeline.boggle import prove_kernels

    digest = hashlib.sha256()
    for module in (__file__, prove_kernels.__file__):
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()[:16]


def job_params(problem: Problem) -> dict[str, Any]:
    """The parameters that decide a proof's result (and its job id), with the code's digest."""
    rules = problem.dictionary.rules
    return {
        "size": f"{problem.rows}x{problem.cols}",
        "floor": problem.floor,
        "partition": problem.partition.text,
        "rules": {"name": rules.name, "min_length": rules.min_length, "points": list(rules.points)},
        "dictionary_sha256": dictionary_hash(problem.dictionary),
        "split_order": split_order(problem.rows, problem.cols).tolist(),
        "format": 1,
        "code": code_digest(),
    }


def job_id(params: dict[str, Any]) -> str:
    """A job's folder name: 'prove-' and a digest of its parameters."""
    text = json.dumps(params, sort_keys=True, separators=(",", ":"))
    return "prove-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def shard_ranges(n_classes: int, shards: int = SHARDS) -> list[tuple[int, int]]:
    """The shards as [start, stop) ranges of class indices: about `shards` runs of equal length."""
    size = max(1, math.ceil(n_classes / shards))
    return [(lo, min(lo + size, n_classes)) for lo in range(0, n_classes, size)]


def shard_path(folder: Path, index: int) -> Path:
    """The file of one finished shard."""
    return folder / f"shard-{index:05d}.parquet"


def write_shard(path: Path, result: ShardResult, provenance: dict[str, Any]) -> None:
    """Write a finished shard atomically: its boards, with its statistics in the footer."""
    from pipeline.core.store import write_parquet

    write_parquet(path, result.boards, {**provenance, "stats": json.dumps(result.stats, sort_keys=True)})


def read_shard(path: Path) -> ShardResult | None:
    """A finished shard, or None when the file is missing or damaged (then it is computed again)."""
    from pipeline.core.store import read_provenance

    try:
        stats = json.loads(read_provenance(path)["stats"])
        boards = pl.read_parquet(path)
    except Exception:  # noqa: BLE001 - a damaged shard is recomputed, never trusted
        return None
    if dict(boards.schema) != BOARD_SCHEMA:
        return None
    return ShardResult(boards, stats)


STATS_SCHEMA = {"stats": pl.String}


def shard_work(shard: Any, shared: tuple[Problem, np.ndarray]) -> dict[str, pl.DataFrame]:
    """One shard as the sharded-job executor runs it: `shard.start`..`shard.stop` index the canonical
    top-level classes in `shared` = (problem, classes). Returns its boards and a one-row table holding its
    statistics as JSON (merge: concatenate, then `merge_tables`)."""
    problem, classes = shared
    result = prove_shard(problem, classes[shard.start : shard.stop])
    stats = pl.DataFrame({"stats": [json.dumps(result.stats, sort_keys=True)]}, schema=STATS_SCHEMA)
    return {"boards": result.boards, "stats": stats}


def merge_tables(problem: Problem, boards: pl.DataFrame, stats: pl.DataFrame, wall: float, workers: int) -> Proof:
    """The proof from an executor's merged shard tables (boards, and the shards' statistics in order)."""
    params = job_params(problem)
    results = {i: ShardResult(boards.clear(), json.loads(text)) for i, text in enumerate(stats["stats"].to_list())}
    results[0] = ShardResult(boards, results[0].stats) if results else ShardResult(boards, {})
    ranges = [(0, 0)] * len(results)
    n_classes = sum(r.stats["classes"] for r in results.values())
    return merge(problem, params, Path(job_id(params)), n_classes, ranges, results, 0, 0.0, wall, workers)


_WORKER_PROBLEM: Problem | None = None


def _worker_init(problem: Problem) -> None:
    """A worker process keeps the problem (and its dictionary) once, and scores on one thread."""
    import numba

    global _WORKER_PROBLEM
    _WORKER_PROBLEM = problem
    numba.set_num_threads(1)


def _worker_shard(index: int, classes: np.ndarray) -> tuple[int, ShardResult]:
    """Run one shard in a worker."""
    assert _WORKER_PROBLEM is not None
    return index, prove_shard(_WORKER_PROBLEM, classes)


@dataclass
class Proof:
    """A finished proof: the boards (one per symmetry class, best first) and its summary."""

    boards: pl.DataFrame
    summary: dict[str, Any]


def prove(
    problem: Problem,
    jobs_root: Path,
    workers: int = 1,
    progress=None,
    provenance: dict | None = None,
    on_shard: Callable[[int], None] | None = None,
) -> Proof:
    """Run every shard of the proof not finished yet under jobs_root/<job id>/, then merge them all."""
    check_problem(problem)
    started_cpu, started = time.process_time(), time.perf_counter()
    params = job_params(problem)
    folder = Path(jobs_root) / job_id(params)
    classes = top_classes(len(problem.partition.groups), problem.rows, problem.cols)
    ranges = shard_ranges(classes.shape[0])
    results: dict[int, ShardResult] = {}
    for i in range(len(ranges)):
        path = shard_path(folder, i)
        if path.is_file():
            done = read_shard(path)
            if done is not None:
                results[i] = done
    resumed = len(results)
    todo = [i for i in range(len(ranges)) if i not in results]
    shard_provenance = {**(provenance or {}), "job": folder.name, "params": params}

    def finish(i: int, result: ShardResult) -> None:
        write_shard(shard_path(folder, i), result, {**shard_provenance, "shard": str(i)})
        results[i] = result
        if on_shard:
            on_shard(i)

    from pipeline.core.progress import SILENT

    with (progress or SILENT).task(
        f"boggle prove {problem.rows}x{problem.cols} ≥ {problem.floor}: shards", total=len(ranges)
    ) as task:
        task.advance(resumed)
        if workers <= 1 or len(todo) <= 1:
            for i in todo:
                lo, hi = ranges[i]
                finish(i, prove_shard(problem, classes[lo:hi]))
                task.advance()
        else:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor, as_completed

            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(
                workers, mp_context=context, initializer=_worker_init, initargs=(problem,)
            ) as pool:
                futures = [pool.submit(_worker_shard, i, classes[ranges[i][0] : ranges[i][1]]) for i in todo]
                for future in as_completed(futures):
                    i, result = future.result()
                    finish(i, result)
                    task.advance()
    return merge(
        problem,
        params,
        folder,
        classes.shape[0],
        ranges,
        results,
        resumed,
        time.process_time() - started_cpu,
        time.perf_counter() - started,
        workers,
    )


def merge(
    problem: Problem,
    params: dict,
    folder: Path,
    n_classes: int,
    ranges: Sequence[tuple[int, int]],
    results: dict[int, ShardResult],
    resumed: int,
    driver_cpu: float,
    wall: float,
    workers: int,
) -> Proof:
    """The proof's boards (one per symmetry class, best first, then alphabetical) and summary."""
    frames = [results[i].boards for i in range(len(ranges))]
    boards = (
        (pl.concat(frames) if frames else pl.DataFrame(schema=BOARD_SCHEMA))
        .unique(subset="board", keep="first")
        .sort(["score", "board"], descending=[True, False])
    )
    stats = [results[i].stats for i in range(len(ranges))]
    n = problem.n_cells
    visited = np.sum([s["subclasses_visited"] for s in stats], axis=0).astype(np.int64) if stats else np.zeros(n)
    dropped = np.sum([s["subclasses_dropped"] for s in stats], axis=0).astype(np.int64) if stats else np.zeros(n)
    seconds = {k: round(sum(s["seconds"][k] for s in stats), 3) for k in ("words", "tree", "search", "score")}
    tops = [t for s in stats for t in s["tops"]]
    dropped_top = sum(s["classes_dropped_at_top"] for s in stats)
    shard_cpu = sum(s["cpu_seconds"] for s in stats)
    best = int(boards["score"][0]) if boards.height else None
    summary = {
        "size": params["size"],
        "floor": problem.floor,
        "partition": problem.partition.text,
        "alphabet": problem.partition.alphabet,
        "rules": params["rules"],
        "symmetries": len(symmetries(problem.rows, problem.cols)),
        "split_order": params["split_order"],
        "bound_method": METHOD,
        "job": folder.name,
        "top_level_classes": n_classes,
        "top_level_dropped": dropped_top,
        "classes_examined": n_classes + int(visited.sum()),
        "classes_eliminated": dropped_top + int(dropped.sum()),
        "subclasses_by_split": {"visited": visited.tolist(), "dropped": dropped.tolist()},
        "boards_scored": sum(s["boards_scored"] for s in stats),
        "boards": boards.height,
        "best": best,
        "word_paths": sum(s["word_paths"] for s in stats),
        "tree_nodes": sum(s["tree_nodes"] for s in stats),
        "tightness": tightness(tops, problem.floor, best),
        "shards": len(ranges),
        "shards_resumed": resumed,
        "workers": workers,
        "seconds": {
            "bounding": round(seconds["words"] + seconds["tree"], 3),
            "splitting": seconds["search"],
            "scoring": seconds["score"],
            **{f"{k}_detail": v for k, v in seconds.items()},
        },
        "cpu_seconds": round(shard_cpu + (driver_cpu if workers > 1 else 0.0), 3),
        "shard_cpu_seconds": round(shard_cpu, 3),
        "wall_seconds": round(wall, 3),
        "peak_rss_mib": max(
            [s["peak_rss_mib"] for s in stats] + [round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)]
        ),
    }
    return Proof(boards, summary)


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
