"""Scrabble commands: best, score, show, play, replay, leaves, playability, selfplay. Each parses its options into
a request, calls its use case (pipeline/scrabble/api.py) in a scoped session, and renders the result
(pipeline/scrabble/render.py)."""

import typer

from pipeline.cli.app import App, app
from pipeline.cli.options import Flags, command, plural
from pipeline.core.display import emit, emit_json
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, JSON_LIST, JSON_OBJECT, LEXICON, QUIET, Field
from pipeline.scrabble import api

scrabble_app = App(
    name="scrabble",
    help="Scrabble and Words With Friends: boards, plays and scores, best plays, GCG games, leave values.",
    no_args_is_help=True,
)
app.add_typer(scrabble_app, name="scrabble")

WHERE = (LEXICON, CONFIG, DATA_DIR)
SHOW = Field("show", bool, "Also print the board with the top play on it.")  # how the command shows the best plays


@command(scrabble_app, api.BestRequest, SHOW, *WHERE, JSON_LIST, CSV, name="best")
def scrabble_best(q: api.BestRequest, flags: Flags, show: bool):
    """The highest-scoring plays (or the best by equity) for a board and rack: position, word, score, leave; or
    the best by equity played out over N seeded draws (--sim N): mean value, its standard error, mean reply."""
    from pipeline.scrabble import render

    fmt = flags.format
    with flags.session() as s:
        if q.sim is not None:
            found = api.simulate(s, q)
            typer.echo(sim_line(found), err=True)
            emit(render.sim_table(found.candidates), fmt)
            if show and fmt == "table":
                top = found.candidates[0].play
                typer.echo(f"\n{top} {top.score}")
                render.print_board(render.with_play(found.board, top), found.variant, render.new_squares(top))
            return
        result = api.best(s, q)
        if result.endgame is not None:
            typer.echo(f"the bag is empty, an endgame: {render.endgame_summary(result.endgame)}", err=True)
        emit(render.best_table(result.plays, result.moves, result.rack), fmt)
        if show and fmt == "table" and result.plays:
            top = result.plays[0]
            typer.echo(f"\n{top} {top.score}")
            render.print_board(render.with_play(result.board, top), result.variant, render.new_squares(top))


@command(scrabble_app, api.EndgameRequest, SHOW, *WHERE, JSON_OBJECT, name="endgame")
def scrabble_endgame(q: api.EndgameRequest, flags: Flags, show: bool):
    """Solve the endgame when the bag is empty: with both racks known, the move that maximises the final spread
    and the line of best play by both (negamax with alpha-beta, iterative deepening and a transposition table;
    past --seconds, the deepest line found, not proven)."""
    from pipeline.scrabble import render

    with flags.session() as s:
        result = api.endgame(s, q)
    found = result.endgame
    if flags.as_json:
        emit_json(render.endgame_json(found, result.rack, result.opponent))
        return
    typer.echo(render.endgame_summary(found))
    typer.echo(render.endgame_time(found), err=True)
    emit(render.endgame_table(found), "table")
    if show and found.line and found.best.tiles:
        board = result.board.copy()
        board.put(found.best.tiles)
        typer.echo("")
        render.print_board(board, result.variant, [(t.row, t.col) for t in found.best.tiles])


@command(scrabble_app, api.ScoreRequest, *WHERE, JSON_LIST, CSV, name="score")
def scrabble_score(q: api.ScoreRequest, flags: Flags):
    """Check one play and show its score word by word, or say why it is illegal (exit code 1)."""
    from pipeline.scrabble import render

    fmt = flags.format
    with flags.session() as s:
        try:
            result = api.play(s, q)
        except api.IllegalPlay as exc:
            if fmt == "table":
                typer.echo(f"illegal: {q.play}: {exc}")
            else:
                emit(render.illegal_table(q.play, exc), fmt)
            raise typer.Exit(exc.exit_code) from None
        emit(render.breakdown(result.play), fmt)


@command(scrabble_app, api.ShowRequest, CONFIG, name="show")
def scrabble_show(q: api.ShowRequest, flags: Flags):
    """Print a board with coordinates and premium squares (colours on a terminal), or draw it (--out)."""
    from pipeline.core.config import load_config
    from pipeline.scrabble import render

    result = api.show(load_config(flags.config), q)
    if result.wrote is None:
        render.print_board(result.board, result.variant)
    else:
        typer.echo(f"wrote {result.wrote}", err=True)


@command(scrabble_app, api.PlayRequest, *WHERE, JSON_OBJECT, name="play")
def scrabble_play(q: api.PlayRequest, flags: Flags):
    """Make a play: check it (legal, valid words, tiles in the rack and the bag), print the score breakdown,
    the new board and the leave, and write the new board file (--out)."""
    from pipeline.scrabble import render

    with flags.session() as s:
        try:
            result = api.play(s, q)
        except api.IllegalPlay as exc:
            typer.echo(f"illegal: {q.play}: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None
        if flags.as_json:
            emit_json(render.play_json(result.play, result.leave, result.after, result.variant))
        else:
            emit(render.breakdown(result.play), "table")
            typer.echo("")
            render.print_board(result.after, result.variant, render.new_squares(result.play))
            if result.leave is not None:
                typer.echo(f"leave: {result.leave or '(none)'}")
        if result.wrote is not None:
            typer.echo(f"wrote {result.wrote}", err=True)


@command(scrabble_app, api.ReplayRequest, *WHERE, JSON_LIST, CSV, name="replay")
def scrabble_replay(q: api.ReplayRequest, flags: Flags):
    """Replay a GCG game: check every score and total with our scorer (exit 1 on a discrepancy), flag phonies,
    and give each move's best play by equity (when leaves.parquet is built, else by score)."""
    from pipeline.scrabble import render

    fmt = flags.format
    with flags.session() as s:
        result = api.replay(s, q)
        if q.move is not None:
            step = result.steps[q.move - 1]
            emit(result.table.slice(q.move - 1, 1), fmt)
            if fmt == "table":
                typer.echo("")
                render.print_board(step.board, result.variant, render.new_squares(step.play))
            return
        emit(result.table, fmt)
        if fmt == "table":
            typer.echo(f"\n{replay_summary(result)}")
        if result.problems:
            raise typer.Exit(1)


@command(scrabble_app, api.LeaveRun, *WHERE, QUIET, name="leaves")
def scrabble_leaves(q: api.LeaveRun, flags: Flags):
    """Learn leave values from rounds of N seeded self-play games and write leaves.parquet (the file
    `scrabble best --equity` reads): sharded jobs that resume, on this machine or a Ray cluster; prints
    games per second."""
    from pipeline.core.progress import Progress

    typer.echo(leaves_line(api.learn_leaves(flags.config, flags.data_dir, flags.lexicon, q, Progress(flags.quiet))))


@command(scrabble_app, api.PlayabilityRun, *WHERE, QUIET, name="playability")
def scrabble_playability(q: api.PlayabilityRun, flags: Flags):
    """Measure every word's playability (the points two equity players would lose over N seeded games without
    it) and write playability.parquet: a sharded job that resumes, on this machine or a Ray cluster; prints the
    games per CPU second, the top words and the stability of the ranking between the two halves of the games."""
    from pipeline.core.errors import WordstatsError
    from pipeline.core.progress import Progress

    if q.reference is None:
        if (q.blocks, q.block, q.verify) != (None, None, None):
            raise WordstatsError("--blocks, --block and --verify go with --reference DIR")
        result = api.measure_playability(flags.config, flags.data_dir, flags.lexicon, q, Progress(flags.quiet))
        typer.echo(playability_lines(result))
        return
    if q.out is not None:
        raise WordstatsError("--out and --reference: give one of them")
    if q.verify is not None:
        done = api.verify_reference(flags.config, flags.data_dir, flags.lexicon, q, Progress(flags.quiet))
        blocks = ", ".join(f"{first:,}-{last:,}" for first, last in done.games)
        typer.echo(
            f"{done.path}: {plural(len(done.parts), 'block')} played again (games {blocks}): the same sums "
            f"as its parts ({done.state})"
        )
        return
    typer.echo(
        reference_lines(api.grow_reference(flags.config, flags.data_dir, flags.lexicon, q, Progress(flags.quiet)))
    )


@command(scrabble_app, api.SelfPlayRequest, *WHERE, JSON_LIST, CSV, QUIET, name="selfplay")
def scrabble_selfplay(q: api.SelfPlayRequest, flags: Flags):
    """Play seeded games between strategies (score-only greedy, or equity with leaves.parquet); write GCG
    records (--gcg-dir) or compare equity with score-only play (--compare). With --shard-size or --ray, the
    games run as a sharded job that resumes, on this machine or a Ray cluster: one row of averages."""
    from pipeline.core.progress import Progress

    fmt = flags.format
    api.check_selfplay(q)
    with flags.session() as s:
        result = api.selfplay(s, q, Progress(flags.quiet))
        if result.job is not None and not flags.quiet:
            job, engine = result.job
            typer.echo(f"{job.summary()} on {engine}", err=True)
        emit(result.table, fmt)


def sim_line(found) -> str:
    """What `scrabble best --sim` played out, and how fast."""
    rate = f"{found.iterations / max(found.cpu_seconds, 1e-6):,.0f}"
    return (
        f"{plural(len(found.candidates), 'candidate')} x {plural(found.iterations, 'iteration')} (seed "
        f"{found.seed}) in {found.seconds:.2f} s: {rate} iterations per CPU second"
    )


def replay_summary(result) -> str:
    """The line after a replayed game: its moves, the final totals (the record's beside ours when they
    differ) and how many moves have a discrepancy."""
    ours, theirs = result.totals()
    final = ", ".join(f"{nick} {total}" for nick, total in ours.items())
    if theirs != ours:
        final += f" (the record: {', '.join(f'{nick} {total}' for nick, total in theirs.items())})"
    return f"{plural(len(result.steps), 'move')}; final: {final}; {result.problems} with a discrepancy"


def leaves_line(result) -> str:
    """What `scrabble leaves` wrote, from how many games, how fast, and the shards it computed or reused."""
    params = result.provenance["params"]
    rate = f" ({result.played / result.seconds:.1f} games/s)" if result.played else ""
    last = f" ({params['last_games']:,} in the last)" if "last_games" in params else ""
    return (
        f"wrote {result.path}: {plural(result.table.height, 'leave')} from {plural(params['rounds'], 'round')} of "
        f"{plural(params['games'], 'game')}{last} in {result.seconds:.1f} s{rate}; {plural(result.computed, 'shard')} "
        f"computed, {result.reused:,} reused on {result.engine}"
    )


def playability_lines(result) -> str:
    """What `scrabble playability` wrote, how fast, its top words and the stability of their ranking."""
    params, found = result.provenance["params"], result.summary
    rate = f" ({params['games'] / result.cpu_seconds:.2f} games per CPU second)" if result.cpu_seconds else ""
    return (
        f"wrote {result.path}: {plural(params['games'], 'game')} in {result.seconds:.1f} s{rate}; "
        f"{plural(result.computed, 'shard')} computed, {result.reused:,} reused on {result.engine}\n"
        f"{found_lines(found)}"
    )


def found_lines(found: dict) -> str:
    """A playability summary's words needed, top words and stability."""
    top = ", ".join(f"{t['word']} {t['playability']:g}" for t in found["top"][:10])
    steady = found["stability"]
    rho = "n/a" if steady["spearman"] is None else f"{steady['spearman']:.3f}"
    return (
        f"{plural(found['words_needed'], 'word')} needed; top: {top}\n"
        f"stability: Spearman {rho} over the top {plural(steady['top_words'], 'word')}, odd against even games"
    )


def reference_lines(result) -> str:
    """What `scrabble playability --reference` did to the table: why it began again, the games it holds now (and
    whether that is the target), how fast, its top words and stability."""
    ref = result.reference
    played = ref.games - result.before
    rate = f" ({played / result.cpu_seconds:.2f} games per CPU second)" if result.cpu_seconds and played else ""
    lines = [f"began {result.path} again from game 1: {result.restarted}"] if result.restarted else []
    lines.append(
        f"wrote {result.path}: games 1 to {ref.games:,} ({ref.state()}); {played:,} played now in "
        f"{result.seconds:.1f} s{rate}; {plural(result.computed, 'shard')} computed, {result.reused:,} reused on "
        f"{result.engine}"
    )
    return "\n".join([*lines, found_lines(result.summary)])
