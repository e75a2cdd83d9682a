"""Scrabble commands: best, score, show, play, replay, leaves, selfplay. Each parses its options into a request,
calls its use case (pipeline/scrabble/api.py) in a scoped session, and renders the result
(pipeline/scrabble/records/render.py)."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.cli.app import (
    App,
    ConfigOpt,
    CsvOpt,
    DataDirOpt,
    JsonOpt,
    LexiconOpt,
    QuietOpt,
    RayOpt,
    ShardOpt,
    _emit,
    app,
)
from pipeline.cli.options import MAX_LIMIT, MAX_SEED, ForceOpt, JsonObjectOpt, plural

scrabble_app = App(
    name="scrabble",
    help="Scrabble and Words With Friends: boards, plays and scores, best plays, GCG games, leave values.",
    no_args_is_help=True,
)
app.add_typer(scrabble_app, name="scrabble")

BoardOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--board", help="Board file: 15 lines of 15 characters (. empty, A-Z tiles, a-z blanks).", show_default=False
    ),
]
ScrabbleVariantOpt = Annotated[
    str,
    typer.Option(
        "--variant", metavar="[scrabble|wwf]", help="Game variant: scrabble or wwf (from the config; any case)."
    ),
]
EmptyOpt = Annotated[bool, typer.Option("--empty", help="Start from an empty board (an opening move).")]


def session(config: Optional[Path], data_dir: Optional[Path], lexicon: Optional[str]):
    """The command's scoped session: the config, the data folder and the lexicon's store, read-locked inside."""
    from pipeline.core.session import open_session

    return open_session(config, data_dir, lexicon)


@scrabble_app.command("best")
def scrabble_best(
    rack: Annotated[
        str,
        typer.Option(
            "--rack", metavar="TILES", help="Tiles in hand: letters and ? for a blank (at most 7).", show_default=False
        ),
    ],
    board: BoardOpt = None,
    empty: EmptyOpt = False,
    variant: ScrabbleVariantOpt = "scrabble",
    limit: Annotated[
        int, typer.Option("--limit", "-n", help="How many plays to show (0 = all).", min=0, max=MAX_LIMIT)
    ] = 10,
    equity: Annotated[
        bool,
        typer.Option("--equity", help="Rank by equity: score + the leave's value (leaves.parquet); exchanges too."),
    ] = False,
    show: Annotated[bool, typer.Option("--show", help="Also print the board with the top play on it.")] = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """The highest-scoring plays (or the best by equity) for a board and rack: position, word, score, leave."""
    from pipeline.core.display import choose_format
    from pipeline.scrabble import api
    from pipeline.scrabble.records import render

    fmt = choose_format(as_json, as_csv)
    with session(config, data_dir, lexicon) as s:
        request = api.BestRequest(rack, api.Where(board, empty, variant), limit or MAX_LIMIT, equity)
        result = api.best(s, request)
        _emit(render.best_table(result.plays, result.moves, result.rack), as_json, as_csv)
        if show and fmt == "table" and result.plays:
            top = result.plays[0]
            typer.echo(f"\n{top} {top.score}")
            render.print_board(render.with_play(result.board, top), result.variant, render.new_squares(top))


@scrabble_app.command("score")
def scrabble_score(
    play: Annotated[
        str,
        typer.Option(
            "--play",
            metavar="PLAY",
            help='The play in notation: "8H WORD" across, "H8 WORD" down; '
            "lower case = blank, board tiles may be in parentheses.",
            show_default=False,
        ),
    ],
    board: BoardOpt = None,
    empty: EmptyOpt = False,
    rack: Annotated[
        Optional[str],
        typer.Option("--rack", metavar="TILES", help="Also check the tiles come from this rack.", show_default=False),
    ] = None,
    variant: ScrabbleVariantOpt = "scrabble",
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Check one play and show its score word by word, or say why it is illegal (exit code 1)."""
    from pipeline.core.display import choose_format
    from pipeline.scrabble import api
    from pipeline.scrabble.records import render
    from pipeline.scrabble.rules.notation import IllegalPlay

    choose_format(as_json, as_csv)
    with session(config, data_dir, lexicon) as s:
        try:
            result = api.play(s, api.PlayRequest(play, api.Where(board, empty, variant), rack))
        except IllegalPlay as exc:
            if as_json or as_csv:
                _emit(render.illegal_table(play, exc), as_json, as_csv)
            else:
                typer.echo(f"illegal: {play}: {exc}")
            raise typer.Exit(exc.exit_code) from None
        _emit(render.breakdown(result.play), as_json, as_csv)


@scrabble_app.command("show")
def scrabble_show(
    board_file: Annotated[Path, typer.Argument(help="Board file (15 lines of 15: . empty, A-Z, a-z blanks).")],
    variant: ScrabbleVariantOpt = "scrabble",
    out: Annotated[
        Optional[Path], typer.Option("--out", help="Write a picture: FILE.svg or FILE.png.", show_default=False)
    ] = None,
    force: ForceOpt = False,
    config: ConfigOpt = None,
):
    """Print a board with coordinates and premium squares (colours on a terminal), or draw it (--out)."""
    from pipeline.core.config import load_config
    from pipeline.scrabble import api
    from pipeline.scrabble.records import render

    result = api.show(load_config(config), api.ShowRequest(board_file, variant, out, force))
    if result.wrote is None:
        render.print_board(result.board, result.variant)
    else:
        typer.echo(f"wrote {result.wrote}", err=True)


@scrabble_app.command("play")
def scrabble_play(
    play: Annotated[
        str,
        typer.Option(
            "--play",
            metavar="PLAY",
            help='The play: "8H WORD" across, "H8 WORD" down; lower case = blank.',
            show_default=False,
        ),
    ],
    board: BoardOpt = None,
    empty: EmptyOpt = False,
    rack: Annotated[
        Optional[str],
        typer.Option(
            "--rack",
            metavar="TILES",
            help="The player's tiles (? = blank, any case): checked, leave shown.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Optional[Path], typer.Option("--out", help="Write the new board file here.", show_default=False)
    ] = None,
    force: ForceOpt = False,
    variant: ScrabbleVariantOpt = "scrabble",
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonObjectOpt = False,
):
    """Make a play: check it (legal, valid words, tiles in the rack and the bag), print the score breakdown,
    the new board and the leave, and write the new board file (--out)."""
    from pipeline.scrabble import api
    from pipeline.scrabble.records import render
    from pipeline.scrabble.rules.notation import IllegalPlay

    with session(config, data_dir, lexicon) as s:
        try:
            result = api.play(s, api.PlayRequest(play, api.Where(board, empty, variant), rack, out, force))
        except IllegalPlay as exc:
            typer.echo(f"illegal: {play}: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None
        if as_json:
            from pipeline.core.display import emit_json

            emit_json(render.play_json(result.play, result.leave, result.after, result.variant))
        else:
            _emit(render.breakdown(result.play), False, False)
            typer.echo("")
            render.print_board(result.after, result.variant, render.new_squares(result.play))
            if result.leave is not None:
                typer.echo(f"leave: {result.leave or '(none)'}")
        if result.wrote is not None:
            typer.echo(f"wrote {result.wrote}", err=True)


@scrabble_app.command("replay")
def scrabble_replay(
    game_file: Annotated[Path, typer.Argument(help="A GCG game record.")],
    move: Annotated[
        Optional[int],
        typer.Option("--move", help="Show the board after move N (1 = the first).", min=1, max=10_000),
    ] = None,
    best: Annotated[
        bool, typer.Option("--best/--no-best", help="The best move and its equity beside each play.")
    ] = True,
    variant: ScrabbleVariantOpt = "scrabble",
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Replay a GCG game: check every score and total with our scorer (exit 1 on a discrepancy), flag phonies,
    and give each move's best play by equity (when leaves.parquet is built, else by score)."""
    from pipeline.core.display import choose_format
    from pipeline.scrabble import api
    from pipeline.scrabble.records import render

    fmt = choose_format(as_json, as_csv)
    with session(config, data_dir, lexicon) as s:
        result = api.replay(s, api.ReplayRequest(game_file, best, variant, move))
        if move is not None:
            step = result.steps[move - 1]
            _emit(result.table.slice(move - 1, 1), as_json, as_csv)
            if fmt == "table":
                typer.echo("")
                render.print_board(step.board, result.variant, render.new_squares(step.play))
            return
        _emit(result.table, as_json, as_csv)
        if fmt == "table":
            typer.echo(f"\n{replay_summary(result)}")
        if result.problems:
            raise typer.Exit(1)


@scrabble_app.command("leaves")
def scrabble_leaves(
    games: Annotated[
        int, typer.Option("--games", help="Self-play games per round to learn from.", min=1, max=10_000_000)
    ] = 1000,
    rounds: Annotated[
        int, typer.Option("--rounds", help="Rounds: a greedy one, then equity with the values before.", min=1, max=20)
    ] = 3,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games.", min=0, max=MAX_SEED)] = 14,
    prior_weight: Annotated[
        int, typer.Option("--prior-weight", help="Observations that outweigh the additive model.", min=0, max=10**6)
    ] = 20,
    variant: ScrabbleVariantOpt = "scrabble",
    out: Annotated[
        Optional[Path],
        typer.Option("--out", help="Write FILE.parquet (default: the lexicon's leaves.parquet).", show_default=False),
    ] = None,
    force: ForceOpt = False,
    ray: RayOpt = None,
    shard_size: ShardOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    quiet: QuietOpt = False,
):
    """Learn leave values from rounds of N seeded self-play games and write leaves.parquet (the file
    `scrabble best --equity` reads): sharded jobs that resume, on this machine or a Ray cluster; prints
    games per second."""
    from pipeline.core.progress import Progress
    from pipeline.scrabble import api

    run = api.LeaveRun(games, rounds, seed, prior_weight, variant, out, force, ray, shard_size)
    typer.echo(leaves_line(api.learn_leaves(config, data_dir, lexicon, run, Progress(quiet))))


@scrabble_app.command("selfplay")
def scrabble_selfplay(
    games: Annotated[int, typer.Option("--games", help="How many games.", min=1, max=1_000_000)] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games.", min=0, max=MAX_SEED)] = 1,
    first: Annotated[
        str, typer.Option("--first", metavar="[score|equity]", help="Strategy of the first player: score or equity.")
    ] = "score",
    second: Annotated[
        str, typer.Option("--second", metavar="[score|equity]", help="Strategy of the second player: score or equity.")
    ] = "score",
    gcg_dir: Annotated[
        Optional[Path], typer.Option("--gcg-dir", help="Write each game as GCG into this folder.", show_default=False)
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="With --gcg-dir, replace existing game files.")] = False,
    compare: Annotated[
        bool,
        typer.Option("--compare", help="Equity against score-only, alternating who starts: mean scores, win rate."),
    ] = False,
    variant: ScrabbleVariantOpt = "scrabble",
    ray: RayOpt = None,
    shard_size: ShardOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
    quiet: QuietOpt = False,
):
    """Play seeded games between strategies (score-only greedy, or equity with leaves.parquet); write GCG
    records (--gcg-dir) or compare equity with score-only play (--compare). With --shard-size or --ray, the
    games run as a sharded job that resumes, on this machine or a Ray cluster: one row of averages."""
    from pipeline.core.display import choose_format
    from pipeline.core.progress import Progress
    from pipeline.scrabble import api

    choose_format(as_json, as_csv)
    request = api.SelfPlayRequest(games, seed, first, second, gcg_dir, force, compare, variant, ray, shard_size)
    api.check_selfplay(request)
    with session(config, data_dir, lexicon) as s:
        result = api.selfplay(s, request, Progress(quiet))
        if result.job is not None and not quiet:
            job, engine = result.job
            typer.echo(f"{job.summary()} on {engine}", err=True)
        _emit(result.table, as_json, as_csv)


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
    return (
        f"wrote {result.path}: {plural(result.table.height, 'leave')} from {plural(params['rounds'], 'round')} of "
        f"{plural(params['games'], 'game')} in {result.seconds:.1f} s{rate}; {plural(result.computed, 'shard')} "
        f"computed, {result.reused:,} reused on {result.engine}"
    )
