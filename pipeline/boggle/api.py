"""Boggle's use cases: typed requests in (pipeline/boggle/requests.py, re-exported here), frozen results with their
provenance out (the command line and any other client call these and render the results; see
pipeline/boggle/render.py for the text)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol

from pipeline.boggle.requests import (
    BEST_SIZE,
    BOARD_WORK_BYTES,
    MAX_LISTED_BOARDS,
    PROOF_BLOCK,
    check_minutes,
    size_text,
)

# the requests, as clients find them here
from pipeline.boggle.requests import BestRequest as BestRequest
from pipeline.boggle.requests import ProveRequest as ProveRequest
from pipeline.boggle.requests import RandomRequest as RandomRequest
from pipeline.boggle.requests import ScoreRequest as ScoreRequest
from pipeline.boggle.requests import SolveRequest as SolveRequest
from pipeline.core.errors import FieldError, WordstatsError
from pipeline.core.results import Provenance, provenance

if TYPE_CHECKING:
    import polars as pl


class Place(Protocol):
    """Where a use case reads: the config, the data folder, the lexicon and its store."""

    config: Any
    data_dir: Path
    lexicon: str
    store: Any


def rules_of(place: Place, variant: Optional[str], min_length: Optional[int]):
    """The Boggle rules of a variant (default standard), with a shortest word applied."""
    from pipeline.boggle.settings import boggle_config

    return boggle_config(place.config).rules(variant or "standard", min_length)


@dataclass(frozen=True)
class JobRun:
    """How a sharded job ran: the engine, its one-line summary, and the job's figures for the output."""

    engine: str
    note: str
    facts: dict[str, Any]


def run_job(place: Place, job, ray: Optional[str], progress, processes: Optional[int] = None):
    """Run a sharded job in the lexicon's jobs folder on the engine of `ray` or the config; the merged result
    and how it ran."""
    from pipeline.core import executor

    with executor.engine_session(executor.cluster_address(place.config, ray), processes) as engine:
        result = executor.run(job, place.data_dir, place.lexicon, engine, progress)
    facts = {
        "job": result.job.job_id,
        "shards": result.computed + result.reused,
        "shards_computed": result.computed,
        "shards_reused": result.reused,
        "job_folder": str(result.folder),
    }
    return result, JobRun(engine.name, f"{result.summary()} on {engine.name}", facts)


# ---- solve and score --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """A board, its words with points (and paths), and its score."""

    board: Any
    score: int
    words: tuple[dict[str, Any], ...]
    lexicon: str
    provenance: Provenance | None = None

    def as_json(self) -> dict[str, Any]:
        """The solution as the JSON object `boggle solve --json` prints."""
        return {"board": self.board.letters, "size": self.board.size, "score": self.score, "words": list(self.words)}


def solve_board(place: Place, req: SolveRequest) -> Solution:
    """Every word on a board with its points, and the total score."""
    from pipeline.boggle.queries import solution, store_dictionary
    from pipeline.boggle.rules import load_board

    grid = load_board(req.board, req.size)
    rules = rules_of(place, req.variant, req.min_length)
    found = solution(grid, store_dictionary(place.store, rules, buffers=True), req.paths)
    params = {"board": grid.letters, "size": grid.size, "variant": req.variant, "min_length": req.min_length}
    return Solution(
        grid, found["score"], tuple(found["words"]), place.lexicon, provenance(place, "boggle solve", params)
    )


@dataclass(frozen=True)
class Scores:
    """One row per board: where it came from, its cells and its score."""

    table: pl.DataFrame
    provenance: Provenance | None = None


def score_boards(place: Place, req: ScoreRequest) -> Scores:
    """The score of each board."""
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.rules import load_board
    from pipeline.boggle.solver import score

    grids = [load_board(b, req.size) for b in req.boards]
    dictionary = store_dictionary(place.store, rules_of(place, req.variant, req.min_length), buffers=True)
    import polars as pl

    rows = [{"source": b, "board": g.letters, "score": score(g, dictionary)} for b, g in zip(req.boards, grids)]
    params = {
        "boards": list(req.boards),
        "size": size_text(req.size),
        "variant": req.variant,
        "min_length": req.min_length,
    }
    return Scores(pl.DataFrame(rows), provenance(place, "boggle score", params))


# ---- random boards ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RandomBoards:
    """Rolled boards with their scores (`boards`), or their statistics (`stats`, for a summary)."""

    dice: str
    seed: int
    min_length: int
    lexicon: str
    boards: Optional[pl.DataFrame] = None
    stats: Optional[dict[str, Any]] = None
    job: Optional[JobRun] = None
    provenance: Provenance | None = None


def random_boards(place: Place, req: RandomRequest, progress=None) -> RandomBoards:
    """Roll boards from a dice set and score them, or only their score statistics (a job that resumes)."""
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.settings import boggle_config, dice_seed

    if not req.summary and req.sample > MAX_LISTED_BOARDS:
        raise FieldError(
            "{sample} {n:,}: at most {most:,} boards are listed (add {summary} for statistics)",
            n=req.sample,
            most=MAX_LISTED_BOARDS,
        )
    bc = boggle_config(place.config)
    dice_set = bc.dice_set(req.dice)
    dice = next(name for name, d in bc.dice.items() if d is dice_set)
    seed = dice_seed(bc.seed, dice) if req.seed is None else req.seed
    if (req.ray is not None or req.shard_size is not None) and not req.summary:
        raise FieldError("{ray} and {shard_size} apply to the {summary} job (listing boards runs here)")
    check_random_memory(req.sample, req.shard_size, dice_set.rows * dice_set.cols, req.summary)
    dictionary = store_dictionary(place.store, bc.rules(dice_set.variant, req.min_length))
    min_length = dictionary.rules.min_length
    params = {"dice": dice, "sample": req.sample, "seed": seed, "min_length": min_length, "summary": req.summary}
    if req.summary:
        from pipeline.boggle.jobs import RANDOM_SHARD, random_job, scores_summary

        job = random_job(dice_set, dictionary, seed, req.sample, req.shard_size or RANDOM_SHARD)
        result, ran = run_job(place, job, req.ray, progress)
        rate = result.items_per_second
        stats = {
            "dice": dice_set.name,
            "size": dice_set.size,
            "seed": seed,
            "min_length": min_length,
            **scores_summary(result.tables["scores"], bc.percentiles),
            "max_board": result.tables["best"]["board"][0],
            "seconds": round(result.seconds, 3),
            "boards_per_second": round(rate) if rate else None,
            **ran.facts,
        }
        return RandomBoards(
            dice,
            seed,
            min_length,
            place.lexicon,
            stats=stats,
            job=ran,
            provenance=provenance(place, "boggle random", params),
        )
    import polars as pl

    from pipeline.boggle.sampling import roll
    from pipeline.boggle.solver import board_texts
    from pipeline.boggle.solver import score_boards as score_many

    boards = roll(dice_set, seed, req.sample)
    scores = score_many(boards, dice_set.rows, dice_set.cols, dictionary).scores
    table = pl.DataFrame({"board": board_texts(boards), "score": scores.astype("int64")})
    return RandomBoards(
        dice, seed, min_length, place.lexicon, boards=table, provenance=provenance(place, "boggle random", params)
    )


def check_random_memory(count: int, shard_size: Optional[int], cells: int, summary: bool) -> None:
    """Refuse a `boggle random` whose boards (listed) or job (summary) would not fit in memory."""
    from pipeline.boggle.jobs import RANDOM_SHARD
    from pipeline.core.memory import ROW_BYTES, check_memory, job_bytes

    if summary:
        shard = shard_size or RANDOM_SHARD
        needed = job_bytes(count, shard, shard_item_bytes=cells + BOARD_WORK_BYTES)
        check_memory(needed, "{sample} " + f"{count:,}" + " with {shard_size} " + f"{shard:,}")
    else:
        check_memory(count * (2 * cells + BOARD_WORK_BYTES + ROW_BYTES), "{sample} " + f"{count:,}")


# ---- the best board ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BestBoards:
    """The best board found, its score and words, and how the search went (`facts`, as `--json` prints)."""

    board: Any
    score: int
    facts: dict[str, Any]
    job: Optional[JobRun] = None
    provenance: Provenance | None = None


def best_boards(place: Place, req: BestRequest, progress=None, on_round: Optional[Callable] = None) -> BestBoards:
    """Search for the highest-scoring board by simulated annealing: rounds until the time budget or target,
    or exactly `runs` runs as a sharded job that resumes."""
    from pipeline.boggle.best import SearchParams, search
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.settings import boggle_config
    from pipeline.boggle.solver import solve

    check_minutes(req.minutes)
    if req.minutes <= 0:
        raise FieldError("{minutes} {got:g}: give a time budget above 0", got=req.minutes)
    bc = boggle_config(place.config)
    dice_set = bc.dice_set(req.dice) if req.dice else None
    if dice_set is not None:
        rows, cols = req.size or (dice_set.rows, dice_set.cols)
        if (rows, cols) != (dice_set.rows, dice_set.cols):
            raise WordstatsError(f"the {req.dice} dice roll {dice_set.size} boards, not {rows}x{cols}")
    else:
        rows, cols = req.size or BEST_SIZE
    rules = bc.rules(req.variant or (dice_set.variant if dice_set else "standard"), req.min_length)
    dictionary = store_dictionary(place.store, rules)
    params = SearchParams(req.steps, bc.best.params.t_start, bc.best.params.t_end)
    asked = {"size": f"{rows}x{cols}", "seed": req.seed, "steps": req.steps, "dice": req.dice, "runs": req.runs}
    if req.runs is None and (req.ray is not None or req.shard_size is not None):
        raise FieldError("{ray} and {shard_size} apply to a job of {runs} N (a time budget runs here)")
    if req.runs is not None:
        if req.target is not None:
            raise FieldError("{target} applies to a time budget, not to {runs} N")
        return _best_job(place, req, dictionary, (rows, cols), params, dice_set, progress, asked)
    found = search(dictionary, rows, cols, req.seed, req.minutes, params, dice_set, req.target, on_round=on_round)
    best = found.pop("best")
    facts = {
        "board": best.board.letters,
        "size": best.board.size,
        "score": best.score,
        "words": len(solve(best.board, dictionary)),
        "lexicon": place.lexicon,
        "dice": req.dice,
        "seed": req.seed,
        "run": best.run,
        **found,
    }
    return BestBoards(best.board, best.score, facts, provenance=provenance(place, "boggle best", asked))


def _best_job(place: Place, req: BestRequest, dictionary, grid, params, dice_set, progress, asked) -> BestBoards:
    """`runs` annealing runs as a sharded job, then the best board."""
    from pipeline.boggle.jobs import BEST_SHARD, best_job, best_run
    from pipeline.boggle.rules import Board
    from pipeline.boggle.solver import solve
    from pipeline.core.memory import ROW_BYTES, check_memory, job_bytes

    rows, cols = grid
    runs = req.runs or 0
    size = req.shard_size or BEST_SHARD
    check_memory(
        job_bytes(runs, size, kept_item_bytes=rows * cols + ROW_BYTES), "{runs} " + f"{runs:,} of {size:,} a shard"
    )
    job = best_job(dictionary, rows, cols, req.seed, runs, params, dice_set, size)
    result, ran = run_job(place, job, req.ray, progress)
    best = best_run(result.tables["runs"])
    board = Board(rows, cols, best["board"])
    facts = {
        "board": board.letters,
        "size": board.size,
        "score": best["score"],
        "words": len(solve(board, dictionary)),
        "lexicon": place.lexicon,
        "dice": dice_set.name if dice_set else None,
        "seed": req.seed,
        "run": best["run"],
        "runs": runs,
        "steps_per_run": params.steps,
        "evaluations": runs * params.steps,
        "seconds": round(result.seconds, 2),
        **ran.facts,
    }
    return BestBoards(
        board, best["score"], facts, ran, provenance(place, "boggle best", asked, jobs=(ran.facts["job"],))
    )


# ---- the proof ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Proof:
    """The boards of a proof or of a proof table so far (one per symmetry class, best first) and its summary."""

    boards: pl.DataFrame
    summary: dict[str, Any]
    provenance: Provenance | None = None


def prove_boards(place: Place, req: ProveRequest, progress=None) -> Proof:
    """Prove which boards score at least the floor (a sharded job that resumes); the boards are written to
    `req.out` as Parquet, with the summary and provenance in its footer, when asked."""
    from pipeline.boggle.prove import (
        Problem,
        chosen_class,
        default_partition,
        default_workers,
        parse_partition,
        proof_of,
        prove_job,
    )
    from pipeline.boggle.queries import store_dictionary
    from pipeline.core import executor
    from pipeline.core.outputs import check_out

    if req.reference is None and (req.block, req.blocks, req.verify) != (None, None, None):
        raise FieldError("{block}, {blocks} and {verify} go with {reference} DIR")
    if req.out is not None and req.out.suffix.lower() != ".parquet":
        raise FieldError("{path}: {out} writes Parquet (name it .parquet); use {json} or {csv} to print", path=req.out)
    rows, cols = req.size
    partition = parse_partition(req.classes) if req.classes is not None else default_partition(rows, cols)
    if req.floor < 1:
        raise FieldError("{floor} must be at least 1, got {got}", got=req.floor)
    if req.workers is not None:
        from pipeline.core.memory import WORKER_BYTES, check_memory

        check_memory(req.workers * WORKER_BYTES, "{workers} " + f"{req.workers}")
    check_out(req.out, req.force, (".parquet",), place.data_dir)
    address = executor.cluster_address(place.config, req.ray)
    if address and req.workers is not None:
        raise FieldError("{workers} sets local worker processes; on Ray the cluster's CPUs run the shards")
    dictionary = store_dictionary(place.store, rules_of(place, req.variant, req.min_length), trie=True)
    problem = Problem(rows, cols, dictionary, partition, req.floor)
    only = None if req.one_class is None else [chosen_class(problem, req.one_class)]
    job = prove_job(problem, req.shard_size, only)
    params = {"size": f"{rows}x{cols}", "floor": req.floor, "partition": partition.text}
    if only is not None:
        params["class"] = only[0]
    origin = provenance(place, "boggle prove", params, ("words",))
    started_cpu = time.process_time()
    with executor.engine_session(address, req.workers or default_workers()) as engine:
        result = executor.run(job, place.data_dir, place.lexicon, engine, progress)
        proof = proof_of(problem, result, engine, time.process_time() - started_cpu)
    summary = {"lexicon": place.lexicon, **proof.summary, **({"class": only[0]} if only else {})}
    if req.out is not None:
        from pipeline.core.files import write_parquet

        write_parquet(req.out, proof.boards, {**origin.as_dict(), "summary": summary})
    return Proof(proof.boards, summary, origin)


def grow_proof(place: Place, req: ProveRequest, progress=None) -> Proof:
    """Grow the proof table `req.reference` by `req.blocks` blocks of `req.block` classes (a table of another
    dictionary, size, floor or partition begins again from the first class), or with `req.verify` prove K of
    its classes again and compare them."""
    from pipeline.boggle import proof_table as pt
    from pipeline.boggle.prove import Problem, default_partition, default_workers, parse_partition
    from pipeline.boggle.queries import store_dictionary
    from pipeline.core import executor
    from pipeline.core.outputs import check_out_folder

    path = req.reference
    assert path is not None
    pt.check_folder(path)
    check_out_folder(path, place.data_dir, "reference")  # never a data, lexicon or system folder
    for name in ("one_class", "out"):
        if getattr(req, name) is not None:
            raise FieldError("{" + name + "} and {reference}: give one of them")
    if req.verify is not None and not path.exists():
        raise FieldError("{reference} {path}: no such table to verify", path=path)
    if path.exists() and not req.force:
        pt.read_table(path)  # a folder that is not a proof table is an error before any work
    rows, cols = req.size
    partition = parse_partition(req.classes) if req.classes is not None else default_partition(rows, cols)
    dictionary = store_dictionary(place.store, rules_of(place, req.variant, req.min_length), trie=True)
    problem = Problem(rows, cols, dictionary, partition, req.floor)
    wanted = pt.empty(problem, place.lexicon)
    origin = provenance(place, "boggle prove", {"size": f"{rows}x{cols}", "floor": req.floor, "reference": str(path)})
    if req.verify is not None:
        table = pt.read_table(path)
        reason = pt.mismatch(table, wanted)
        if reason is not None:
            raise FieldError("{reference} {path}: {reason}", path=path, reason=reason)
        pt.check_order(path, table, pt.class_order(problem.space.canonical_ids(), table.seed))
        checked = pt.verify(table, problem, req.verify)
        summary = {"reference": str(path), "verified": checked.tolist(), "state": table.state(), "same_rows": True}
        return Proof(table.boards(), summary, origin)
    address = executor.cluster_address(place.config, req.ray)
    with executor.engine_session(address, None if address else (req.workers or default_workers())) as engine:

        def run_block(job):
            """A block's job on the engine: its merged tables and the shards it computed."""
            result = executor.run(job, place.data_dir, place.lexicon, engine, progress)
            return result.tables, result.computed

        grown = pt.grow(problem, path, wanted, run_block, req.blocks, req.block or PROOF_BLOCK, req.force)
    summary = {**grown.summary(), "engine": engine.name}
    return Proof(grown.boards, summary, origin)
