"""Boggle's sharded jobs: random boards (score statistics, findability) and best-board search.

Board k of a dice set's seeded sequence is the same whichever shard rolls it, and annealing run k uses
stream k, so every job gives the same tables for any shard size, engine or number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from pipeline.boggle.best import SearchParams, anneal
from pipeline.boggle.dictionary import Dictionary
from pipeline.boggle.rules import Dice, neighbours
from pipeline.boggle.solver import board_texts
from pipeline.core.arrays import read_only
from pipeline.core.jobs import Job, Parts, Shard, words_digest

RANDOM_SHARD = 250_000  # boards per shard of a random-boards job (about a second on one core)
BEST_SHARD = 1  # annealing runs per shard of a best-board job
SCORE_TABLE = {"score": pl.UInt32, "boards": pl.UInt64}
NODE_TABLE = {"node": pl.UInt32, "boards": pl.UInt64}
BEST_TABLE = {"index": pl.UInt64, "board": pl.String, "score": pl.UInt32, "n_words": pl.UInt32}
BOARD_TABLE = {"index": pl.UInt32, "board": pl.String, "score": pl.UInt32, "n_words": pl.UInt32, "longest": pl.Int32}
RUN_TABLE = {"run": pl.UInt32, "board": pl.String, "score": pl.UInt32}


@dataclass(frozen=True)
class Rolling:
    """What a random-boards shard reads: the dice, the sequence's seed and the compiled dictionary arrays."""

    faces: np.ndarray
    n_faces: np.ndarray
    rows: int
    cols: int
    seed: int
    nodes: np.ndarray
    values: np.ndarray
    rank: np.ndarray


def rolling(dice: Dice, dictionary: Dictionary, seed: int) -> Rolling:
    """The shared input of a random-boards job."""
    faces, n_faces = dice.arrays()
    return Rolling(faces, n_faces, dice.rows, dice.cols, seed, *dictionary.arrays)


def _roll_and_score(shard: Shard, r: Rolling, count_words: bool):
    """Boards start..stop-1 of the sequence, and their scores, word counts, longest words and node counts."""
    import numba

    from pipeline.boggle.kernels.rolls import boggle_roll
    from pipeline.boggle.kernels.solve import boggle_score_boards

    faces, n_faces = read_only(r.faces), read_only(r.n_faces)  # unpickled or from Ray alike (core.arrays)
    boards = boggle_roll(faces, n_faces, r.rows * r.cols, r.seed, shard.start, shard.size)
    chunks = max(1, min(numba.get_num_threads(), shard.size))
    scores, n_words, longest, counts = boggle_score_boards(
        boards, *neighbours(r.rows, r.cols), r.nodes, r.values, r.rank, chunks, count_words
    )
    return boards, scores, n_words, longest, counts


def _node_counts(counts: np.ndarray) -> pl.DataFrame:
    """The trie nodes whose word was found, with on how many boards."""
    found = np.flatnonzero(counts)
    return pl.DataFrame({"node": found.astype(np.uint32), "boards": counts[found].astype(np.uint64)}, schema=NODE_TABLE)


def random_work(shard: Shard, r: Rolling) -> Parts:
    """One shard of random boards: its score histogram, words found, and best board."""
    boards, scores, n_words, _, counts = _roll_and_score(shard, r, True)
    hist = np.bincount(scores)
    kept = np.flatnonzero(hist)
    top = int(np.argmax(scores)) if shard.size else 0
    best = pl.DataFrame(
        {
            "index": [shard.start + top],
            "board": board_texts(boards[top : top + 1]),
            "score": [int(scores[top])],
            "n_words": [int(n_words[top])],
        },
        schema=BEST_TABLE,
    )
    return {
        "scores": pl.DataFrame(
            {"score": kept.astype(np.uint32), "boards": hist[kept].astype(np.uint64)}, schema=SCORE_TABLE
        ),
        "words": _node_counts(counts),
        "best": best,
    }


def random_merge(part: str, rows: pl.DataFrame) -> pl.DataFrame:
    """Sum the shards' histograms and word counts; the best board is the highest score, then the first rolled."""
    if part == "scores":
        return rows.group_by("score").agg(pl.col("boards").sum()).sort("score")
    if part == "words":
        return rows.group_by("node").agg(pl.col("boards").sum()).sort("node")
    return rows.sort(["score", "index"], descending=[True, False]).head(1)


def random_job(dice: Dice, dictionary: Dictionary, seed: int, count: int, shard_size: int = RANDOM_SHARD) -> Job:
    """Roll and score `count` boards of the dice's seeded sequence: score histogram, words found, best board."""
    rules = dictionary.rules
    params = {
        "dice": {"name": dice.name, "size": dice.size, "faces": list(dice.faces)},
        "seed": seed,
        "boards": count,
        "rules": {"min_length": rules.min_length, "points": list(rules.points)},
        "words": words_digest(dictionary.words),
    }
    return Job(
        "boggle-random",
        params,
        count,
        shard_size,
        seed,
        random_work,
        ("scores", "words", "best"),
        rolling(dice, dictionary, seed),
        random_merge,
        unit="boards",
    )


def sample_work(shard: Shard, r: Rolling) -> Parts:
    """One shard of the stage's sample: a row per board, and the words found."""
    boards, scores, n_words, longest, counts = _roll_and_score(shard, r, True)
    table = pl.DataFrame(
        {
            "index": np.arange(shard.start, shard.stop, dtype=np.uint32),
            "board": board_texts(boards),
            "score": scores.astype(np.uint32),
            "n_words": n_words.astype(np.uint32),
            "longest": longest,
        },
        schema=BOARD_TABLE,
    )
    return {"boards": table, "words": _node_counts(counts)}


def sample_merge(part: str, rows: pl.DataFrame) -> pl.DataFrame:
    """The boards in order; the words' counts summed."""
    return random_merge(part, rows) if part == "words" else rows


def sample_job(dice: Dice, dictionary: Dictionary, seed: int, count: int, shard_size: int = RANDOM_SHARD) -> Job:
    """The boggle stage's sample of one dice set: every board with its score, and the words found."""
    job = random_job(dice, dictionary, seed, count, shard_size)
    return replace(job, kind="boggle-sample", work=sample_work, parts=("boards", "words"), merge=sample_merge)


def scores_summary(hist: pl.DataFrame, percentiles: Sequence[float]) -> dict:
    """Mean, standard deviation, percentiles, minimum and maximum of board scores given as a histogram
    (the same figures as `sampling.summarise` over every score, percentiles interpolated linearly)."""
    score = hist["score"].to_numpy().astype(np.int64)
    count = hist["boards"].to_numpy().astype(np.int64)
    n = int(count.sum())
    if n == 0:
        return {"boards": 0}
    total = int((score * count).sum())
    mean = total / n
    square = float(((score - mean) ** 2 * count).sum())
    ends = np.cumsum(count)

    def at(rank: int) -> int:
        """The score of the board at `rank` (from 0) when all boards are sorted by score."""
        return int(score[np.searchsorted(ends, rank, side="right")])

    def percentile(p: float) -> float:
        """The p-th percentile, linear between the two nearest ranks (numpy's default)."""
        pos = p / 100 * (n - 1)
        lo = int(np.floor(pos))
        hi = min(lo + 1, n - 1)
        return at(lo) + (at(hi) - at(lo)) * (pos - lo)

    zero = int(count[score == 0].sum())
    return {
        "boards": n,
        "mean": round(mean, 4),
        "std": round((square / (n - 1)) ** 0.5 if n > 1 else 0.0, 4),
        "min": int(score[0]),
        "max": int(score[-1]),
        "percentiles": {f"p{p:02g}": round(float(percentile(p)), 4) for p in percentiles},
        "zero_share": round(zero / n, 6),
    }


def findability_counts(dictionary: Dictionary, words: pl.DataFrame) -> np.ndarray:
    """Per-node board counts (the kernel's node_counts) from a job's merged `words` table."""
    counts = np.zeros(dictionary.n_nodes, dtype=np.int64)
    counts[words["node"].to_numpy()] = words["boards"].to_numpy().astype(np.int64)
    return counts


# ---- best-board search --------------------------------------------------------------------------


@dataclass(frozen=True)
class Searching:
    """What a best-board shard reads: the dictionary (arrays and letter weights), grid, dice and settings."""

    dictionary: Dictionary
    rows: int
    cols: int
    seed: int
    params: SearchParams
    dice: Dice | None


def best_work(shard: Shard, s: Searching) -> Parts:
    """Annealing runs start..stop-1: each run's best board and score."""
    runs = anneal(s.dictionary, s.rows, s.cols, s.seed, shard.start, shard.size, s.params, s.dice)
    return {
        "runs": pl.DataFrame(
            {"run": [r.run for r in runs], "board": [r.board.letters for r in runs], "score": [r.score for r in runs]},
            schema=RUN_TABLE,
        )
    }


def best_job(
    dictionary: Dictionary,
    rows: int,
    cols: int,
    seed: int,
    runs: int,
    params: SearchParams,
    dice: Dice | None = None,
    shard_size: int = BEST_SHARD,
) -> Job:
    """`runs` seeded annealing runs: the best board of each (run k uses stream k of the seed)."""
    rules = dictionary.rules
    job_params = {
        "size": f"{rows}x{cols}",
        "seed": seed,
        "runs": runs,
        "steps": params.steps,
        "t_start": params.t_start,
        "t_end": params.t_end,
        "dice": {"name": dice.name, "faces": list(dice.faces)} if dice else None,
        "rules": {"min_length": rules.min_length, "points": list(rules.points)},
        "words": words_digest(dictionary.words),
    }
    shared = Searching(replace(dictionary, words=()), rows, cols, seed, params, dice)
    return Job("boggle-best", job_params, runs, shard_size, seed, best_work, ("runs",), shared, unit="runs")


def best_run(runs: pl.DataFrame) -> dict:
    """The best run of a best-board job: the highest score, then the lowest run."""
    return runs.sort(["score", "run"], descending=[True, False]).row(0, named=True)
