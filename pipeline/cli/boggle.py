"""Boggle commands: solve, score, random, best, prove."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.boggle.api import MAX_BOARDS, MAX_LISTED_BOARDS, MAX_MINUTES, MAX_STEPS
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
    app,
)
from pipeline.cli.options import (
    MAX_SEED,
    CsvOpt,
    ForceOpt,
    JsonObjectOpt,
    LimitOpt,
    check_number,
    choose_format,
    limit_for,
)

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
    from pipeline.boggle import render
    from pipeline.boggle.api import SolveRequest, solve_board

    fmt = choose_format(as_json, as_csv)
    found = solve_board(Session(config, data_dir, lexicon), SolveRequest(board, size, paths, variant, min_length))
    if fmt == "json":
        from pipeline.core.display import emit_json

        emit_json(found.as_json())
        return
    if fmt == "table":
        typer.echo(render.solution_head(found))
    _emit(render.solution_table(found, paths), False, as_csv, limit_for(limit, fmt))


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
    from pipeline.boggle.api import ScoreRequest, score_boards

    fmt = choose_format(as_json, as_csv)
    scores = score_boards(Session(config, data_dir, lexicon), ScoreRequest(tuple(boards), size, variant, min_length))
    _emit(scores.table, as_json, as_csv, limit_for(limit, fmt))


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
    from pipeline.boggle import render
    from pipeline.boggle.api import RandomRequest, random_boards
    from pipeline.core.progress import Progress

    fmt = choose_format(as_json, as_csv)
    request = RandomRequest(dice, sample, seed, summary, min_length, ray, shard_size)
    rolled = random_boards(Session(config, data_dir, lexicon), request, Progress(quiet))
    if rolled.stats is None:
        _emit(rolled.boards, as_json, as_csv, limit_for(limit, fmt))
        return
    if rolled.job is not None and not quiet:
        typer.echo(rolled.job.note, err=True)
    if as_json:
        from pipeline.core.display import emit_json

        emit_json(rolled.stats)
        return
    typer.echo(render.random_summary_text(rolled))


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
    from pipeline.boggle import render
    from pipeline.boggle.api import BestRequest, best_boards
    from pipeline.core.progress import Progress

    check_number(minutes, "--minutes", 0.0, MAX_MINUTES)
    request = BestRequest(size, minutes, seed, dice, target, steps, runs, min_length, variant, ray, shard_size)

    def report(rounds: int, best, elapsed: float) -> None:
        """Print the search's progress after each round, unless quiet."""
        if not quiet:
            typer.echo(render.best_round_text(rounds, best, elapsed), err=True)

    best = best_boards(Session(config, data_dir, lexicon), request, Progress(quiet), on_round=report)
    if best.job is not None and not quiet:
        typer.echo(best.job.note, err=True)
    if as_json:
        from pipeline.core.display import emit_json

        emit_json(best.facts)
        return
    typer.echo(render.best_text(best))


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
    one_class: Annotated[
        Optional[str],
        typer.Option(
            "--class",
            metavar="ID|BOARD",
            help="Prove one top-level class: its id, or a board it holds (its canonical class is proven).",
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
    from pipeline.boggle import render
    from pipeline.boggle.api import ProveRequest, prove_boards
    from pipeline.core.progress import Progress

    request = ProveRequest(floor, size, classes, out, force, workers, min_length, variant, ray, shard_size, one_class)
    proof = prove_boards(Session(config, data_dir, lexicon), request, Progress(quiet or as_json or as_csv))
    if as_json:
        from pipeline.core.display import emit_json

        emit_json({"boards": proof.boards.to_dicts(), "summary": proof.summary})
        return
    _emit(proof.boards, False, as_csv)
    if not as_csv:
        typer.echo(render.proof_text(proof.summary))
