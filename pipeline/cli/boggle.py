"""Boggle commands: solve, score, random, best."""

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
from pipeline.core.errors import WordstatsError

boggle_app = App(
    name="boggle",
    help="Boggle: solve and score boards, roll random ones, search for the best.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(boggle_app, name="boggle")

SizeOpt = Annotated[
    Optional[str], typer.Option("--size", help="Board size RxC (needed when not square).", show_default=False)
]
MinLengthOpt = Annotated[
    Optional[int], typer.Option("--min-length", help="Shortest word (default: the variant's).", show_default=False)
]
BoggleVariantOpt = Annotated[
    Optional[str], typer.Option("--variant", help="Rules: standard (3+ letters) or big (4+).", show_default=False)
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
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
):
    """Every word on a board with its points, and the total score."""
    from pipeline.boggle.queries import solution, store_dictionary
    from pipeline.boggle.rules import load_board

    s = Session(config, data_dir, lexicon)
    grid = load_board(board, size)
    result = solution(grid, store_dictionary(s.store, _boggle_rules(s, variant, min_length)), paths)
    if as_json:
        from pipeline.core.display import emit_json

        emit_json(result)
        return
    import polars as pl

    typer.echo("\n".join(grid.grid()))
    typer.echo(f"{result['score']:,} points, {len(result['words']):,} words ({s.lexicon})")
    if result["words"]:
        rows = [{**w, "path": " ".join(f"{r},{c}" for r, c in w["path"])} if paths else w for w in result["words"]]
        _emit(pl.DataFrame(rows), False, False)


@boggle_app.command("score")
def boggle_score(
    boards: Annotated[list[str], typer.Argument(help="Boards: cells in row order, or Princeton-format files.")],
    size: SizeOpt = None,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
):
    """One line per board with its score."""
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.rules import load_board
    from pipeline.boggle.solver import score

    s = Session(config, data_dir, lexicon)
    grids = [load_board(b, size) for b in boards]
    dictionary = store_dictionary(s.store, _boggle_rules(s, variant, min_length))
    results = [{"source": b, "board": g.letters, "score": score(g, dictionary)} for b, g in zip(boards, grids)]
    if as_json:
        from pipeline.core.display import emit_json

        emit_json(results)
        return
    for r in results:
        typer.echo(f"{r['source']}: {r['score']}")


@boggle_app.command("random")
def boggle_random(
    dice: Annotated[str, typer.Option("--dice", help="Dice set from the config (classic, new, big).")] = "new",
    count: Annotated[int, typer.Option("--count", "-n", help="How many boards.", min=1)] = 10,
    seed: Annotated[
        Optional[int],
        typer.Option("--seed", help="Seed (default: the stage's seed for these dice).", min=0, show_default=False),
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
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
):
    """Roll random boards from a dice set and score them."""
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.sampling import roll
    from pipeline.boggle.settings import boggle_config, dice_seed
    from pipeline.boggle.solver import board_texts, score_boards

    s = Session(config, data_dir, lexicon)
    bc = boggle_config(s.config)
    dice_set = bc.dice_set(dice)
    seed = dice_seed(bc.seed, dice) if seed is None else seed
    if (ray is not None or shard_size is not None) and not summary:
        raise WordstatsError("--ray and --shard-size apply to the --summary job (listing boards runs here)")
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
            f"{stats['boards']:,} boards from the {dice} dice (seed {seed}), {s.lexicon}, "
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
    _emit(pl.DataFrame({"board": board_texts(boards), "score": scores.astype("int64")}), as_json, False)


@boggle_app.command("best")
def boggle_best(
    size: Annotated[
        Optional[str], typer.Option("--size", help="Board size RxC (default 4x4, or the dice's).", show_default=False)
    ] = None,
    minutes: Annotated[float, typer.Option("--minutes", help="Search time budget.", min=0)] = 1.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search (run k uses stream k).", min=0)] = 1,
    dice: Annotated[
        Optional[str], typer.Option("--dice", help="Only boards this dice set can roll.", show_default=False)
    ] = None,
    target: Annotated[
        Optional[int], typer.Option("--target", help="Stop once a board scores this much.", show_default=False)
    ] = None,
    steps: Annotated[int, typer.Option("--steps", help="Annealing steps per run.", min=1)] = 100_000,
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
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
):
    """Search for the highest-scoring board by simulated annealing from random starts, on all cores."""
    from pipeline.boggle.best import SearchParams, search
    from pipeline.boggle.queries import store_dictionary
    from pipeline.boggle.rules import parse_size
    from pipeline.boggle.settings import boggle_config
    from pipeline.boggle.solver import solve

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
        f"{best.score:,} points, {facts['words']:,} words: {best.board.letters} "
        f"(seed {seed}, run {best.run}, found after {facts['seconds_to_best']:.1f} s; "
        f"{facts['runs']} runs of {steps:,} steps in {facts['seconds']:.1f} s)"
    )


def _best_job(s: Session, dictionary, grid, seed, runs, params, dice_set, ray, shard_size, as_json, quiet) -> None:
    """`boggle best --runs N`: the runs as a sharded job, then the best board."""
    from pipeline.boggle.jobs import BEST_SHARD, best_job, best_run
    from pipeline.boggle.rules import Board
    from pipeline.boggle.solver import solve

    job = best_job(dictionary, *grid, seed, runs, params, dice_set, shard_size or BEST_SHARD)
    result = _run_job(s, job, ray, quiet)
    best = best_run(result.tables["runs"])
    board = Board(*grid, best["board"])
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
        f"{best['score']:,} points, {facts['words']:,} words: {board.letters} "
        f"(seed {seed}, best of {runs:,} runs of {params.steps:,} steps: run {best['run']})"
    )
