"""The best-board search: simulated annealing over boards, in rounds."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.boggle.dictionary import Dictionary
from pipeline.boggle.rules import Board, Dice, check_size, neighbours
from pipeline.boggle.solver import board_texts
from pipeline.core.errors import WordstatsError

if TYPE_CHECKING:
    import numpy as np


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
    steps: int = 0  # steps the run made (fewer than asked when a deadline stopped it)


def anneal(
    dictionary: Dictionary,
    rows: int,
    cols: int,
    seed: int,
    first_run: int,
    n_runs: int,
    params: SearchParams,
    dice: Dice | None = None,
    stop: np.ndarray | None = None,
) -> list[Run]:
    """Seeded annealing runs first_run .. first_run+n_runs-1 on all cores (free letters, or rollable by `dice`);
    setting stop[0] from another thread ends them early, each with the best board it found so far."""
    import numpy as np

    from pipeline.boggle.kernels.anneal import Cubes, Grid, Schedule, Trie, boggle_anneal

    check_size(rows, cols, "search")
    if dice is not None:
        if (dice.rows, dice.cols) != (rows, cols) and len(dice.faces) < rows * cols:
            raise WordstatsError(
                f"dice {dice.name!r} has {len(dice.faces)} dice, a {rows}x{cols} board needs {rows * cols}"
            )
        faces, n_faces = dice.arrays()
    else:
        faces, n_faces = np.zeros((0, 1), dtype=np.int8), np.zeros(0, dtype=np.int32)
    boards, scores, made = boggle_anneal(
        seed,
        first_run,
        n_runs,
        Cubes(dice is None, dictionary.letter_weights, faces, n_faces),
        Grid(rows * cols, *neighbours(rows, cols)),
        Trie(*dictionary.arrays),
        Schedule(params.steps, params.t_start, params.t_end),
        np.zeros(1, dtype=np.int8) if stop is None else stop,
    )
    return [
        Run(first_run + i, Board(rows, cols, text), int(s), int(n))
        for i, (text, s, n) in enumerate(zip(board_texts(boards), scores, made))
    ]


@contextlib.contextmanager
def stopped_by_ctrl_c(stop: np.ndarray) -> Iterator[list[bool]]:
    """Inside the block, Ctrl-C sets the kernels' stop flag (the runs end within a few hundred steps) instead of
    raising inside a parallel kernel; the list yielded is true once it was pressed, for the caller to stop."""
    import signal
    import threading

    pressed: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return

    def on_ctrl_c(signum, frame) -> None:
        """Stop the runs; the caller raises KeyboardInterrupt once they have returned."""
        pressed.append(True)
        stop.fill(1)

    before = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, before)


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

    The budget bounds the whole search: a round still running at the deadline is stopped (every run reads a
    stop flag every few hundred steps), and its runs keep the best board they found so far. Returns the best
    run, when it was found (seconds since the start), and how much work was done.
    """
    import threading

    import numba
    import numpy as np

    per_round = runs_per_round or numba.get_num_threads()
    stop = np.zeros(1, dtype=np.int8)
    anneal(dictionary, rows, cols, seed, 0, 0, params, dice, stop)  # no run: numba compiles (or loads) the kernel
    started = time.perf_counter()  # the budget counts from the first step, after the kernel is ready
    deadline = started + minutes * 60
    best: Run | None = None
    found_after = 0.0
    rounds = runs_done = runs_cut = evaluations = 0
    while best is None or time.perf_counter() < deadline:
        timer = threading.Timer(max(deadline - time.perf_counter(), 0.0), stop.fill, args=(1,))
        timer.start()
        try:
            with stopped_by_ctrl_c(stop) as interrupted:
                runs = anneal(dictionary, rows, cols, seed, rounds * per_round, per_round, params, dice, stop)
        finally:
            timer.cancel()
        if interrupted:
            raise KeyboardInterrupt
        rounds += 1
        elapsed = time.perf_counter() - started
        cut = sum(r.steps < params.steps for r in runs)
        runs_done, runs_cut = runs_done + len(runs) - cut, runs_cut + cut
        evaluations += sum(r.steps for r in runs)
        top = max(runs, key=lambda r: (r.score, -r.run))
        if best is None or top.score > best.score:
            best, found_after = top, elapsed
        if on_round:
            on_round(rounds, best, elapsed)
        if (target is not None and best.score >= target) or stop[0]:
            break
    return {
        "best": best,
        "seconds_to_best": round(found_after, 2),
        "seconds": round(elapsed, 2),
        "runs": runs_done,
        "runs_cut": runs_cut,
        "steps_per_run": params.steps,
        "evaluations": evaluations,
    }
