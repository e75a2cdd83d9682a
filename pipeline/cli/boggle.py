"""Boggle commands: solve, score, random, best, prove. Each parses its request (pipeline/boggle/requests.py declares
the options), calls the use case in a scoped session and renders the result (pipeline/boggle/render.py)."""

import typer

from pipeline.boggle import api
from pipeline.cli.app import App, app
from pipeline.cli.options import Flags, command
from pipeline.core.display import emit, emit_json
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, JSON_LIST, JSON_OBJECT, LEXICON, LIMIT, QUIET

boggle_app = App(
    name="boggle",
    help="Boggle: solve and score boards, roll random ones, search for the best.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(boggle_app, name="boggle")

WHERE = (LEXICON, CONFIG, DATA_DIR)


@command(boggle_app, api.SolveRequest, LIMIT, *WHERE, JSON_OBJECT, CSV, name="solve")
def boggle_solve(q: api.SolveRequest, flags: Flags):
    """Every word on a board with its points, and the total score (--json: one object with the word list)."""
    from pipeline.boggle import render

    fmt, rows = flags.format, flags.rows
    with flags.session() as s:
        found = api.solve_board(s, q)
    if fmt == "json":
        emit_json(found.as_json())
        return
    if fmt == "table":
        typer.echo(render.solution_head(found))
    emit(render.solution_table(found, q.paths), fmt, limit=rows)


@command(boggle_app, api.ScoreRequest, LIMIT, *WHERE, JSON_LIST, CSV, name="score")
def boggle_score(q: api.ScoreRequest, flags: Flags):
    """One line per board with its score."""
    fmt, rows = flags.format, flags.rows
    with flags.session() as s:
        scores = api.score_boards(s, q)
    emit(scores.table, fmt, limit=rows)


@command(boggle_app, api.RandomRequest, LEXICON, CONFIG, LIMIT, DATA_DIR, JSON_LIST, CSV, QUIET, name="random")
def boggle_random(q: api.RandomRequest, flags: Flags):
    """Roll random boards from a dice set and score them (--summary --json: one object)."""
    from pipeline.boggle import render
    from pipeline.core.progress import Progress

    fmt, rows = flags.format, flags.rows
    with flags.session() as s:
        rolled = api.random_boards(s, q, Progress(flags.quiet))
    if rolled.boards is not None:
        emit(rolled.boards, fmt, limit=rows)
        return
    if rolled.job is not None and not flags.quiet:
        typer.echo(rolled.job.note, err=True)
    if fmt == "json":
        emit_json(rolled.stats)
        return
    typer.echo(render.random_summary_text(rolled))


@command(boggle_app, api.BestRequest, *WHERE, JSON_OBJECT, QUIET, name="best")
def boggle_best(q: api.BestRequest, flags: Flags):
    """Search for the highest-scoring board by simulated annealing from random starts, on all cores."""
    from pipeline.boggle import render
    from pipeline.core.progress import Progress

    def report(rounds: int, best, elapsed: float) -> None:
        """Print the search's progress after each round, unless quiet."""
        if not flags.quiet:
            typer.echo(render.best_round_text(rounds, best, elapsed), err=True)

    with flags.session() as s:
        best = api.best_boards(s, q, Progress(flags.quiet), on_round=report)
    if best.job is not None and not flags.quiet:
        typer.echo(best.job.note, err=True)
    if flags.as_json:
        emit_json(best.facts)
        return
    typer.echo(render.best_text(best))


@command(boggle_app, api.ProveRequest, *WHERE, JSON_OBJECT, CSV, QUIET, name="prove")
def boggle_prove(q: api.ProveRequest, flags: Flags):
    """Prove which boards score at least --floor: branch and bound over board classes, every board found
    scored exactly, one per symmetry class; a sharded job (local cores or --ray) that resumes."""
    from pipeline.boggle import render
    from pipeline.core.progress import Progress

    fmt = flags.format
    proof: api.Proof
    with flags.session() as s:
        if q.reference is not None:
            proof = api.grow_proof(s, q, Progress(flags.quiet or fmt != "table"))
        else:
            proof = api.prove_boards(s, q, Progress(flags.quiet or fmt != "table"))
    if fmt == "json":
        emit_json({"boards": proof.boards.to_dicts(), "summary": proof.summary})
        return
    emit(proof.boards, fmt)
    if fmt == "table":
        typer.echo(render.proof_text(proof.summary) if q.reference is None else render.proof_table_text(proof.summary))
