"""The best-board search: simulated annealing over boards, in rounds."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pipeline.boggle.dictionary import Dictionary
from pipeline.boggle.rules import Board, Dice, check_size, neighbours
from pipeline.boggle.solver import board_texts
from pipeline.core.errors import WordstatsError


@dataclass(frozen=True)
class SearchParams:
    """Simulated annealing settings: steps per run and the temperature falling from t_start to t_end."""

    steps: int = 100_000
    t_start: float = 100.0
    t_end: float = 1.0


@dataclass(frozen=True)
class Run:
    """The best board of one annealing run."""

    run: int
    board: Board
    score: int


def anneal(
    dictionary: Dictionary,
    rows: int,
    cols: int,
    seed: int,
    first_run: int,
    n_runs: int,
    params: SearchParams,
    dice: Dice | None = None,
) -> list[Run]:
    """Seeded annealing runs first_run .. first_run+n_runs-1 on all cores (free letters, or rollable by `dice`)."""
    from pipeline.boggle.kernels import boggle_anneal

    check_size(rows, cols, "search")
    if dice is not None:
        if (dice.rows, dice.cols) != (rows, cols) and len(dice.faces) < rows * cols:
            raise WordstatsError(
                f"dice {dice.name!r} has {len(dice.faces)} dice, a {rows}x{cols} board needs {rows * cols}"
            )
        faces, n_faces = dice.arrays()
    else:
        faces, n_faces = np.zeros((0, 1), dtype=np.int8), np.zeros(0, dtype=np.int32)
    boards, scores = boggle_anneal(
        seed,
        first_run,
        n_runs,
        dice is None,
        dictionary.letter_weights,
        faces,
        n_faces,
        rows * cols,
        params.steps,
        params.t_start,
        params.t_end,
        *neighbours(rows, cols),
        *dictionary.arrays,
    )
    return [
        Run(first_run + i, Board(rows, cols, text), int(s))
        for i, (text, s) in enumerate(zip(board_texts(boards), scores))
    ]


def search(
    dictionary: Dictionary,
    rows: int,
    cols: int,
    seed: int,
    minutes: float,
    params: SearchParams,
    dice: Dice | None = None,
    target: int | None = None,
    runs_per_round: int | None = None,
    on_round: Callable[[int, Run, float], None] | None = None,
) -> dict:
    """Annealing runs in rounds (one run per core each) until `minutes` pass or `target` is reached.

    Returns the best run, when it was found (seconds since the start), and how much work was done.
    """
    import numba

    per_round = runs_per_round or numba.get_num_threads()
    started = time.perf_counter()
    best: Run | None = None
    found_after = 0.0
    rounds = 0
    while True:
        round_started = time.perf_counter()
        runs = anneal(dictionary, rows, cols, seed, rounds * per_round, per_round, params, dice)
        rounds += 1
        elapsed = time.perf_counter() - started
        last_round = time.perf_counter() - round_started
        top = max(runs, key=lambda r: (r.score, -r.run))
        if best is None or top.score > best.score:
            best, found_after = top, elapsed
        if on_round:
            on_round(rounds, best, elapsed)
        if (target is not None and best.score >= target) or elapsed + last_round > minutes * 60:
            break  # the next round would end after the budget: stop now
    return {
        "best": best,
        "seconds_to_best": round(found_after, 2),
        "seconds": round(elapsed, 2),
        "runs": rounds * per_round,
        "steps_per_run": params.steps,
        "evaluations": rounds * per_round * params.steps,
    }
