"""Boggle commands: solve, score, random, best, prove."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.cli.app import (
    App,
    ConfigOpt,
    DataDirOpt,
    JsonOpt,
    LexiconOpt,
    QuietOpt,
    RayOpt,
    Session,
    ShardOpt,
    _emit,
    _job_facts,
    _run_job,
    app,
)
from pipeline.cli.options import (
    MAX_SEED,
    CsvOpt,
    ForceOpt,
    JsonObjectOpt,
    LimitOpt,
    check_number,
    check_out,
    choose_format,
    limit_for,
    plural,
)
from pipeline.core.errors import WordstatsError

MAX_LISTED_BOARDS = 1_000_000  # boards `random` lists (16 bytes and a score each); --summary streams up to MAX_BOARDS
MAX_BOARDS = 10**10
MAX_MINUTES = 24 * 60.0
MAX_STEPS = 10**9

boggle_app = App(
    name="boggle",
    help="Boggle: solve and score boards, roll random ones, search for the best.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(boggle_app, name="boggle")

SizeOpt = Annotated[
    Optional[str],
    typer.Option("--size", metavar="RxC", help="Board size RxC (needed when not square).", show_default=False),
]
MinLengthOpt = Annotated[
    Optional[int],
    typer.Option("--min-length", help="Shortest word (default: the variant's).", min=1, max=45, show_default=False),
]
BoggleVariantOpt = Annotated[
    Optional[str],
    typer.Option(
        "--variant",
        metavar="[standard|big]",
        help="Rules: standard (3+ letters) or big (4+); any case.",
        show_default=False,
    ),
]


def _boggle_rules(s: Session, variant: Optional[str], min_length: Optional[int]):
    """The Boggle rules of --variant (default standard), with --min-length applied."""
    from pipeline.boggle.settings import boggle_config

    return boggle_config(s.config).rules(variant or "standard", min_length)


@boggle_app.command("solve")
def boggle_solve(
    board: Annotated[str, typer.Argument(help="Cells in row order (PERSLATGSINETERS; Q or Qu) or a board file.")],
    paths: Annotated[
        bool, typer.Option("--paths", help="Show a path of cubes (row,col from 0) for each word.")
    ] = False,
    size: SizeOpt = None,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonObjectOpt = False,
    as_csv: CsvOpt = False,
):
    """Every word on a board with its points, and the total score (--json: one object with the word list)."""
    from pipeline.boggle.queries import solution, store_dictionary
    from pipeline.boggle.rules import load_board

    fmt = choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    grid = load_board(board, size)
    result = solution(grid, store_dictionary(s.store, _boggle_rules(s, variant, min_length)), paths)
    if fmt == "json":
        from pipeline.core.display import emit_json

        emit_json(result)
        return
    import polars as pl

    if fmt == "table":
        typer.echo("\n".join(grid.grid()))
        typer.echo(f"{plural(result['score'], 'point')}, {plural(len(result['words']), 'word')} ({s.lexicon})")
    rows = [{**w, "path": " ".join(f"{r},{c}" for r, c in w["path"])} if paths else w for w in result["words"]]
    schema = {"word": pl.String, "points": pl.Int64, **({"path": pl.String} if paths else {})}
    table = pl.DataFrame(rows) if rows else pl.DataFrame(schema=schema)
    _emit(table, False, as_csv, limit_for(limit, fmt))


@boggle_app.command("score")
def boggle_score(
    boards: Annotated[list[str], typer.Argument(help="Boards: cells in row order, or Princeton-format files.")],
    size: SizeOpt = None,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """One line per board with its score."""
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.rules import load_board
    from pipeline.boggle.solver import score

    choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    grids = [load_board(b, size) for b in boards]
    dictionary = store_dictionary(s.store, _boggle_rules(s, variant, min_length))
    import polars as pl

    fmt = choose_format(as_json, as_csv)
    results = [{"source": b, "board": g.letters, "score": score(g, dictionary)} for b, g in zip(boards, grids)]
    _emit(pl.DataFrame(results), as_json, as_csv, limit_for(limit, fmt))


@boggle_app.command("random")
def boggle_random(
    dice: Annotated[
        str, typer.Option("--dice", help="Dice set from the config (classic, new, big; any case).", metavar="DICE")
    ] = "new",
    sample: Annotated[
        int,
        typer.Option(
            "--sample",
            help=f"How many boards to roll (at most {MAX_LISTED_BOARDS:,} listed; {MAX_BOARDS:,} with --summary).",
            min=1,
            max=MAX_BOARDS,
        ),
    ] = 10,
    seed: Annotated[
        Optional[int],
        typer.Option(
            "--seed", help="Seed (default: the stage's seed for these dice).", min=0, max=MAX_SEED, show_default=False
        ),
    ] = None,
    summary: Annotated[
        bool,
        typer.Option(
            "--summary",
            help="Only score statistics and boards per second: a sharded job that resumes (data/out/LEXICON/jobs/).",
        ),
    ] = False,
    min_length: MinLengthOpt = None,
    ray: RayOpt = None,
    shard_size: ShardOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    limit: LimitOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
    quiet: QuietOpt = False,
):
    """Roll random boards from a dice set and score them (--summary --json: one object)."""
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.sampling import roll
    from pipeline.boggle.settings import boggle_config, dice_seed
    from pipeline.boggle.solver import board_texts, score_boards

    fmt = choose_format(as_json, as_csv)
    count = sample
    if not summary and count > MAX_LISTED_BOARDS:
        raise WordstatsError(
            f"--sample {count:,}: at most {MAX_LISTED_BOARDS:,} boards are listed (add --summary for statistics)"
        )
    s = Session(config, data_dir, lexicon)
    bc = boggle_config(s.config)
    dice_set = bc.dice_set(dice)
    dice = next(name for name, d in bc.dice.items() if d is dice_set)
    seed = dice_seed(bc.seed, dice) if seed is None else seed
    if (ray is not None or shard_size is not None) and not summary:
        raise WordstatsError("--ray and --shard-size apply to the --summary job (listing boards runs here)")
    _check_random_memory(count, shard_size, dice_set.rows * dice_set.cols, summary)
    dictionary = store_dictionary(s.store, bc.rules(dice_set.variant, min_length))
    if summary:
        from pipeline.boggle.jobs import RANDOM_SHARD, random_job, scores_summary

        result = _run_job(s, random_job(dice_set, dictionary, seed, count, shard_size or RANDOM_SHARD), ray, quiet)
        rate = result.items_per_second
        stats = {
            "dice": dice_set.name,
            "size": dice_set.size,
            "seed": seed,
            "min_length": dictionary.rules.min_length,
            **scores_summary(result.tables["scores"], bc.percentiles),
            "max_board": result.tables["best"]["board"][0],
            "seconds": round(result.seconds, 3),
            "boards_per_second": round(rate) if rate else None,
            **_job_facts(result),
        }
        if as_json:
            from pipeline.core.display import emit_json

            emit_json(stats)
            return
        pct = "  ".join(f"{k} {v:g}" for k, v in stats["percentiles"].items())
        typer.echo(
            f"{plural(stats['boards'], 'board')} from the {dice} dice (seed {seed}), {s.lexicon}, "
            f"words of {stats['min_length']}+ letters"
        )
        typer.echo(
            f"mean {stats['mean']:.2f}  sd {stats['std']:.2f}  min {stats['min']}  "
            f"max {stats['max']} ({stats['max_board']})"
        )
        typer.echo(pct)
        if stats["boards_per_second"]:
            typer.echo(f"{stats['boards_per_second']:,} boards/s (rolling and scoring, {stats['seconds']:.2f} s)")
        return
    import polars as pl

    boards = roll(dice_set, seed, count)
    scores = score_boards(boards, dice_set.rows, dice_set.cols, dictionary).scores
    _emit(
        pl.DataFrame({"board": board_texts(boards), "score": scores.astype("int64")}),
        as_json,
        as_csv,
        limit_for(limit, fmt),
    )


BOARD_WORK_BYTES = 16  # a rolled board's score, word count and longest word while a shard scores it


def _check_random_memory(count: int, shard_size: Optional[int], cells: int, summary: bool) -> None:
    """Refuse a `boggle random` whose boards (listed) or job (--summary) would not fit in memory."""
    from pipeline.boggle.jobs import RANDOM_SHARD
    from pipeline.core.memory import ROW_BYTES, check_memory, job_bytes

    if summary:
        shard = shard_size or RANDOM_SHARD
        needed = job_bytes(count, shard, shard_item_bytes=cells + BOARD_WORK_BYTES)
        check_memory(needed, f"--sample {count:,} with --shard-size {shard:,}")
    else:
        check_memory(count * (2 * cells + BOARD_WORK_BYTES + ROW_BYTES), f"--sample {count:,}")


@boggle_app.command("best")
def boggle_best(
    size: Annotated[
        Optional[str],
        typer.Option("--size", metavar="RxC", help="Board size RxC (default 4x4, or the dice's).", show_default=False),
    ] = None,
    minutes: Annotated[
        float, typer.Option("--minutes", help=f"Time budget of the whole search (above 0, at most {MAX_MINUTES:g}).")
    ] = 1.0,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the search (run k uses stream k).", min=0, max=MAX_SEED)
    ] = 1,
    dice: Annotated[
        Optional[str],
        typer.Option("--dice", metavar="DICE", help="Only boards this dice set can roll.", show_default=False),
    ] = None,
    target: Annotated[
        Optional[int],
        typer.Option("--target", help="Stop once a board scores this much.", min=1, max=10**9, show_default=False),
    ] = None,
    steps: Annotated[int, typer.Option("--steps", help="Annealing steps per run.", min=1, max=MAX_STEPS)] = 100_000,
    runs: Annotated[
        Optional[int],
        typer.Option(
            "--runs",
            min=1,
            max=10**9,
            show_default=False,
            help="Exactly N runs instead of a time budget: a sharded job that resumes, the same board on any engine.",
        ),
    ] = None,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    ray: RayOpt = None,
    shard_size: ShardOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonObjectOpt = False,
    quiet: QuietOpt = False,
):
    """Search for the highest-scoring board by simulated annealing from random starts, on all cores."""
    from pipeline.boggle.best import SearchParams, search
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.rules import parse_size
    from pipeline.boggle.settings import boggle_config
    from pipeline.boggle.solver import solve

    check_number(minutes, "--minutes", 0.0, MAX_MINUTES)
    if minutes <= 0:
        raise WordstatsError(f"--minutes {minutes:g}: give a time budget above 0")
    s = Session(config, data_dir, lexicon)
    bc = boggle_config(s.config)
    dice_set = bc.dice_set(dice) if dice else None
    if dice_set is not None:
        rows, cols = parse_size(size) if size else (dice_set.rows, dice_set.cols)
        if (rows, cols) != (dice_set.rows, dice_set.cols):
            raise WordstatsError(f"the {dice} dice roll {dice_set.size} boards, not {rows}x{cols}")
    else:
        rows, cols = parse_size(size or "4x4")
    rules = bc.rules(variant or (dice_set.variant if dice_set else "standard"), min_length)
    dictionary = store_dictionary(s.store, rules)
    params = SearchParams(steps, bc.best.params.t_start, bc.best.params.t_end)
    if runs is None and (ray is not None or shard_size is not None):
        raise WordstatsError("--ray and --shard-size apply to a job of --runs N (a time budget runs here)")
    if runs is not None:
        if target is not None:
            raise WordstatsError("--target applies to a time budget, not to --runs N")
        _best_job(s, dictionary, (rows, cols), seed, runs, params, dice_set, ray, shard_size, as_json, quiet)
        return

    def report(rounds: int, best, elapsed: float) -> None:
        """Print the search's progress after each round, unless quiet."""
        if not quiet:
            typer.echo(
                f"round {rounds}: best {best.score} ({best.board.letters}, run {best.run}) at {elapsed:.1f} s", err=True
            )

    result = search(dictionary, rows, cols, seed, minutes, params, dice_set, target, on_round=report)
    best = result.pop("best")
    facts = {
        "board": best.board.letters,
        "size": best.board.size,
        "score": best.score,
        "words": len(solve(best.board, dictionary)),
        "lexicon": s.lexicon,
        "dice": dice,
        "seed": seed,
        "run": best.run,
        **result,
    }
    if as_json:
        from pipeline.core.display import emit_json

        emit_json(facts)
        return
    typer.echo("\n".join(best.board.grid()))
    typer.echo(
        f"{plural(best.score, 'point')}, {plural(facts['words'], 'word')}: {best.board.letters} "
        f"(seed {seed}, run {best.run}, found after {facts['seconds_to_best']:.1f} s; "
        f"{plural(facts['runs'], 'run')} of {plural(steps, 'step')}{_cut(facts['runs_cut'])} "
        f"in {facts['seconds']:.1f} s)"
    )


def _cut(runs_cut: int) -> str:
    """How many runs the deadline stopped early, when any."""
    return f" and {plural(runs_cut, 'run')} stopped at the deadline" if runs_cut else ""


def _best_job(
    s: Session,
    dictionary,
    grid: tuple[int, int],
    seed: int,
    runs: int,
    params,
    dice_set,
    ray: Optional[str],
    shard_size: Optional[int],
    as_json: bool,
    quiet: bool,
) -> None:
    """`boggle best --runs N`: the runs as a sharded job, then the best board."""
    from pipeline.boggle.jobs import BEST_SHARD, best_job, best_run
    from pipeline.boggle.rules import Board
    from pipeline.boggle.solver import solve
    from pipeline.core.memory import ROW_BYTES, check_memory, job_bytes

    rows, cols = grid
    size = shard_size or BEST_SHARD
    check_memory(job_bytes(runs, size, kept_item_bytes=rows * cols + ROW_BYTES), f"--runs {runs:,} of {size:,} a shard")
    job = best_job(dictionary, rows, cols, seed, runs, params, dice_set, shard_size or BEST_SHARD)
    result = _run_job(s, job, ray, quiet)
    best = best_run(result.tables["runs"])
    board = Board(rows, cols, best["board"])
    facts = {
        "board": board.letters,
        "size": board.size,
        "score": best["score"],
        "words": len(solve(board, dictionary)),
        "lexicon": s.lexicon,
        "dice": dice_set.name if dice_set else None,
        "seed": seed,
        "run": best["run"],
        "runs": runs,
        "steps_per_run": params.steps,
        "evaluations": runs * params.steps,
        "seconds": round(result.seconds, 2),
        **_job_facts(result),
    }
    if as_json:
        from pipeline.core.display import emit_json

        emit_json(facts)
        return
    typer.echo("\n".join(board.grid()))
    typer.echo(
        f"{plural(best['score'], 'point')}, {plural(facts['words'], 'word')}: {board.letters} "
        f"(seed {seed}, best of {plural(runs, 'run')} of {plural(params.steps, 'step')}: run {best['run']})"
    )


@boggle_app.command("prove")
def boggle_prove(
    floor: Annotated[
        int, typer.Option("--floor", help="Keep every board scoring at least this much.", min=1, max=10**9)
    ],
    size: Annotated[str, typer.Option("--size", metavar="RxC", help="Board size RxC.")] = "3x3",
    classes: Annotated[
        Optional[str],
        typer.Option(
            "--classes",
            metavar="GROUPS",
            help="Letter partition: groups separated by spaces (default: the size's, see docs).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out",
            help="Write the boards as Parquet (summary in the footer); refuses to overwrite without --force.",
            show_default=False,
        ),
    ] = None,
    force: ForceOpt = False,
    workers: Annotated[
        Optional[int],
        typer.Option(
            "--workers",
            help="Local worker processes (default: the CPUs); not with --ray.",
            min=1,
            max=1024,
            show_default=False,
        ),
    ] = None,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    ray: RayOpt = None,
    shard_size: Annotated[
        Optional[int],
        typer.Option(
            "--shard-size",
            min=1,
            max=100_000_000,
            show_default=False,
            help="Top-level classes per shard of the job (default: about 1,024 shards).",
        ),
    ] = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonObjectOpt = False,
    as_csv: CsvOpt = False,
    quiet: QuietOpt = False,
):
    """Prove which boards score at least --floor: branch and bound over board classes, every board found
    scored exactly, one per symmetry class; a sharded job (local cores or --ray) that resumes."""
    import time

    from pipeline import __version__
    from pipeline.boggle.prove import Problem, default_partition, default_workers, parse_partition, proof_of, prove_job
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.rules import parse_size
    from pipeline.core import executor
    from pipeline.core.progress import Progress

    if out is not None and out.suffix.lower() != ".parquet":
        raise WordstatsError(f"{out}: --out writes Parquet (name it .parquet); use --json or --csv to print")
    rows, cols = parse_size(size)
    partition = parse_partition(classes) if classes is not None else default_partition(rows, cols)
    if floor < 1:
        raise WordstatsError(f"--floor must be at least 1, got {floor}")
    if workers is not None:
        from pipeline.core.memory import WORKER_BYTES, check_memory

        check_memory(workers * WORKER_BYTES, f"--workers {workers}")
    s = Session(config, data_dir, lexicon)
    check_out(out, force, (".parquet",), s.data_dir)
    address = executor.cluster_address(s.config, ray)
    if address and workers is not None:
        raise WordstatsError("--workers sets local worker processes; on Ray the cluster's CPUs run the shards")
    dictionary = store_dictionary(s.store, _boggle_rules(s, variant, min_length))
    problem = Problem(rows, cols, dictionary, partition, floor)
    job = prove_job(problem, shard_size)
    words = s.store.require("words")
    provenance = {
        "stage": "boggle prove",
        "lexicon": s.lexicon,
        "version": __version__,
        "inputs": {"words": _file_sha256(words)},
    }
    started_cpu = time.process_time()
    with executor.engine_session(address, workers or default_workers()) as engine:
        result = executor.run(job, s.data_dir, s.lexicon, engine, Progress(quiet or as_json or as_csv))
        proof = proof_of(problem, result, engine, time.process_time() - started_cpu)
    summary = {"lexicon": s.lexicon, **proof.summary}
    if out is not None:
        from pipeline.core.store import write_parquet

        write_parquet(
            out,
            proof.boards,
            {
                **provenance,
                "params": {"size": summary["size"], "floor": floor, "partition": partition.text},
                "summary": summary,
            },
        )
    if as_json:
        from pipeline.core.display import emit_json

        emit_json({"boards": proof.boards.to_dicts(), "summary": summary})
        return
    if as_csv:
        _emit(proof.boards, False, True)
        return
    _emit(proof.boards, False, False)
    typer.echo(_proof_text(summary))


def _engine_text(summary: dict) -> str:
    """Where the proof's shards ran, for people."""
    if summary["engine"] == "local":
        return f"{plural(summary['workers'] or 1, 'local worker')}"
    return f"Ray ({summary['address']})"


def _file_sha256(path) -> str:
    """A file's sha256."""
    from pipeline.core.store import sha256_file

    return sha256_file(path)


def _proof_text(summary: dict) -> str:
    """The proof summary for people."""
    sec = summary["seconds"]
    best = f"best {summary['best']}" if summary["best"] is not None else "no board"
    return "\n".join(
        [
            f"{plural(summary['boards'], 'board')} of {summary['size']} scoring at least {summary['floor']} ({best}), "
            f"one per symmetry class ({summary['symmetries']} symmetries), lexicon {summary['lexicon']}",
            f"partition: {summary['partition']}",
            f"bound: {summary['bound_method']}",
            f"classes: {summary['top_level_classes']:,} top-level ({summary['top_level_dropped']:,} eliminated there), "
            f"{summary['classes_examined']:,} examined, {summary['classes_eliminated']:,} eliminated by the bound; "
            f"{plural(summary['boards_scored'], 'board')} scored individually",
            f"time: {summary['wall_seconds']:.1f} s wall, {summary['cpu_seconds']:.1f} s CPU "
            f"(bounding {sec['bounding']:.1f}, splitting {sec['splitting']:.1f}, scoring {sec['scoring']:.1f}); "
            f"{_engine_text(summary)}, {summary['shards']:,} shards ({summary['shards_reused']:,} reused); "
            f"peak memory {summary['peak_rss_mib']:,.0f} MiB",
            f"job: {summary['job']}",
        ]
    )
