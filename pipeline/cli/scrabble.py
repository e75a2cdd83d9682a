"""Scrabble commands: best, score, show, play, replay, leaves, selfplay."""

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
    Session,
    ShardOpt,
    _emit,
    _job_facts,
    _run_job,
    app,
)
from pipeline.cli.options import MAX_LIMIT, MAX_SEED, ForceOpt, JsonObjectOpt, check_out, plural
from pipeline.core.errors import NotFound, WordstatsError
from pipeline.core.outputs import check_out_folder

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


def _rack(text: str, game):
    """A rack as typed (case-insensitive, ? = blank), at most the variant's rack size and blanks."""
    from pipeline.scrabble.rules.board import parse_rack

    return parse_rack(text, game.rack_size, game.tile_set.counts.get("?", 0))


def _scrabble_board(board: Optional[Path], empty: bool):
    """The board of --board FILE, or the empty board of --empty (exactly one of them)."""
    from pipeline.scrabble.rules.board import read_board

    if board is None and not empty:
        raise WordstatsError("give --board FILE, or --empty for an opening move")
    if board is not None and empty:
        raise WordstatsError("give either --board FILE or --empty, not both")
    return read_board(board)


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
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.movegen.generate import best_plays, plays_table
    from pipeline.scrabble.rules.scoring import check_bag
    from pipeline.scrabble.rules.variant import variant as sc_variant

    fmt = choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    tiles = _rack(rack, game)
    position = _scrabble_board(board, empty)
    check_bag(position, tiles, (), game)
    words = load_lexicon(s.store)
    if equity:
        from pipeline.scrabble.equity.moves import equity_table, ranked_moves, unseen_bag
        from pipeline.scrabble.equity.values import load_leaves

        bag = unseen_bag(position, tiles, game)
        moves = ranked_moves(position, tiles, game, words, load_leaves(s.store, game), limit or MAX_LIMIT, bag=bag)
        if not moves:
            raise NotFound(f"no legal play or exchange for rack {tiles} on this board")
        table = equity_table(moves)
        plays = [m.play for m in moves if m.play is not None][:1]
    else:
        plays = best_plays(position, tiles, game, words, limit or MAX_LIMIT)
        if not plays:
            raise NotFound(f"no legal play for rack {tiles} on this board")
        table = plays_table(plays, tiles)
    _emit(table, as_json, as_csv)
    if show and fmt == "table" and plays:
        from pipeline.scrabble.records.render import print_board

        after = position.copy()
        after.put(plays[0].tiles)
        typer.echo(f"\n{plays[0]} {plays[0].score}")
        print_board(after, game, [(t.row, t.col) for t in plays[0].tiles])


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
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.rules.notation import IllegalPlay
    from pipeline.scrabble.rules.scoring import breakdown, score_play
    from pipeline.scrabble.rules.variant import variant as sc_variant

    choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    tiles = _rack(rack, game) if rack is not None else None
    position = _scrabble_board(board, empty)
    try:
        result = score_play(position, play, game, load_lexicon(s.store), tiles)
    except IllegalPlay as exc:
        if as_json or as_csv:
            import polars as pl

            _emit(pl.DataFrame({"play": [play], "legal": [False], "reason": [str(exc)]}), as_json, as_csv)
        else:
            typer.echo(f"illegal: {play}: {exc}")
        raise typer.Exit(exc.exit_code) from None
    _emit(breakdown(result), as_json, as_csv)


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
    from pipeline.core.store import resolve_data_dir, write_bytes, write_text
    from pipeline.scrabble.records.render import picture, print_board
    from pipeline.scrabble.rules.board import read_board
    from pipeline.scrabble.rules.variant import variant as sc_variant

    cfg = load_config(config)
    check_out(out, force, (".svg", ".png"), resolve_data_dir(None, cfg.path)[0])
    game = sc_variant(cfg, variant)
    position = read_board(board_file)
    if out is None:
        print_board(position, game)
        return
    data = picture(position, game, out)
    if isinstance(data, str):
        write_text(out, data)
    else:
        write_bytes(out, data)
    typer.echo(f"wrote {out}", err=True)


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
    from pipeline.core.store import write_text
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.records.render import board_text, print_board
    from pipeline.scrabble.rules.board import leave
    from pipeline.scrabble.rules.notation import IllegalPlay
    from pipeline.scrabble.rules.scoring import breakdown, score_play
    from pipeline.scrabble.rules.variant import variant as sc_variant

    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    tiles = _rack(rack, game) if rack is not None else None
    position = _scrabble_board(board, empty)
    same_file = out is not None and board is not None and out.resolve() == board.resolve()
    check_out(out, force or same_file, None, s.data_dir)
    try:
        result = score_play(position, play, game, load_lexicon(s.store), tiles)
    except IllegalPlay as exc:
        typer.echo(f"illegal: {play}: {exc}", err=True)
        raise typer.Exit(exc.exit_code) from None
    after = position.copy()
    after.put(result.tiles)
    kept = leave(tiles, result.tiles) if tiles is not None else None
    if out is not None:
        write_text(out, after.text())
    if as_json:
        from pipeline.core.display import emit_json

        emit_json(
            {
                "play": str(result),
                "score": result.score,
                "breakdown": breakdown(result).to_dicts(),
                "leave": kept,
                "board": board_text(after, game).splitlines(),
            }
        )
    else:
        _emit(breakdown(result), False, False)
        typer.echo("")
        print_board(after, game, [(t.row, t.col) for t in result.tiles])
        if kept is not None:
            typer.echo(f"leave: {kept or '(none)'}")
    if out is not None:
        typer.echo(f"wrote {out}", err=True)


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
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.records.gcg import read_gcg
    from pipeline.scrabble.records.replay import replay_table
    from pipeline.scrabble.rules.variant import variant as sc_variant

    fmt = choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    record = read_gcg(game_file)
    table, steps = replay_table(record, game, load_lexicon(s.store), s.store, best, str(game_file))
    if move is not None:
        if move > len(steps):
            raise WordstatsError(f"--move {move}: the game has {len(steps)} moves")
        from pipeline.scrabble.records.render import print_board

        step = steps[move - 1]
        new = [(t.row, t.col) for t in step.play.tiles] if step.play is not None else []
        table = table.slice(move - 1, 1)
        _emit(table, as_json, as_csv)
        if fmt == "table":
            typer.echo("")
            print_board(step.board, game, new)
    else:
        _emit(table, as_json, as_csv)
    problems = int(table["problems"].list.len().gt(0).sum()) if move is None else 0
    if move is None and fmt == "table":
        ours, theirs = {}, {}
        for step in steps:
            nick = record.players[step.event.player][0]
            ours[nick], theirs[nick] = step.our_total, step.event.total
        final = ", ".join(f"{nick} {total}" for nick, total in ours.items())
        if theirs != ours:
            final += f" (the record: {', '.join(f'{nick} {total}' for nick, total in theirs.items())})"
        typer.echo(f"\n{plural(len(steps), 'move')}; final: {final}; {problems} with a discrepancy")
    if problems:
        raise typer.Exit(1)


GAME_BYTES = 2048  # one game held in memory: its row, its moves in notation, the leaves it observed


def _check_games_memory(games: int, what: str, shard_size: int, kept: bool) -> None:
    """Refuse a number of games (and shards) that would not fit in memory: a shard's games, and every game's
    row when `kept`."""
    from pipeline.core.memory import check_memory, job_bytes

    needed = job_bytes(games, shard_size, shard_item_bytes=GAME_BYTES, kept_item_bytes=GAME_BYTES if kept else 0)
    check_memory(needed, what)


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
    import time

    from pipeline import __version__
    from pipeline.core import executor
    from pipeline.core.progress import Progress
    from pipeline.core.store import sha256_file, write_parquet
    from pipeline.scrabble.equity.job import LEAVES_SHARD, learn
    from pipeline.scrabble.equity.stage import local_processes
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.rules.variant import variant as sc_variant

    _check_games_memory(games, f"--games {games:,}", shard_size or LEAVES_SHARD, kept=False)
    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    target = out or s.store.path("leaves")
    check_out(out, force, (".parquet",), s.data_dir)
    words = load_lexicon(s.store)
    started = time.perf_counter()
    address = executor.cluster_address(s.config, ray)
    with executor.engine_session(address, local_processes(games)) as engine:
        frames, results = learn(
            game,
            words,
            games,
            seed,
            prior_weight,
            rounds,
            engine,
            s.data_dir,
            s.lexicon,
            Progress(quiet),
            shard_size or LEAVES_SHARD,
        )
    seconds = time.perf_counter() - started
    table = frames[-1]
    provenance = {
        "stage": "leaves",
        "lexicon": s.lexicon,
        "config_sha256": s.config.sha256,
        "inputs": {name: sha256_file(s.store.path(name)) for name in ("words", "gaddag") if s.store.exists(name)},
        "params": {"variant": game.name, "games": games, "rounds": rounds, "seed": seed, "prior_weight": prior_weight},
        "jobs": [r.job.job_id for r in results],
        "version": __version__,
    }
    write_parquet(target, table, provenance)
    played = sum(r.items_computed for r in results)
    computed = sum(r.computed for r in results)
    reused = sum(r.reused for r in results)
    rate = f" ({played / seconds:.1f} games/s)" if played else ""
    typer.echo(
        f"wrote {target}: {plural(table.height, 'leave')} from {plural(rounds, 'round')} of {plural(games, 'game')} "
        f"in {seconds:.1f} s{rate}; {plural(computed, 'shard')} computed, {reused:,} reused on {engine.name}"
    )


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
    from pipeline.core.store import write_text
    from pipeline.scrabble.equity.compare import compare_strategies, comparison_summary
    from pipeline.scrabble.equity.strategy import Equity
    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.game import play_game
    from pipeline.scrabble.play.strategy import GREEDY
    from pipeline.scrabble.play.turns import game_of, game_rng
    from pipeline.scrabble.records.gcg import game_gcg
    from pipeline.scrabble.rules.variant import variant as sc_variant

    choose_format(as_json, as_csv)
    for name, value in (("--first", first), ("--second", second)):
        if value not in ("score", "equity"):
            raise WordstatsError(f"{name}: unknown strategy {value!r} (score or equity)")
    from pipeline.scrabble.play.jobs import SELFPLAY_SHARD

    _check_games_memory(games, f"--games {games:,}", shard_size or SELFPLAY_SHARD, kept=True)
    if (ray is not None or shard_size is not None) and (compare or gcg_dir is not None):
        raise WordstatsError("--ray and --shard-size give a row of averages: no --gcg-dir or --compare")
    s = Session(config, data_dir, lexicon)
    _check_gcg_dir(gcg_dir, games, force, s.data_dir)
    game = sc_variant(s.config, variant)
    table = None
    if compare or "equity" in (first, second):
        from pipeline.scrabble.equity.values import load_leaves

        table = load_leaves(s.store, game)
        table.table()  # read whole: every game's moves look leaves up
    leaves = tuple(Equity(table) if table is not None and name == "equity" else GREEDY for name in (first, second))
    if ray is not None or shard_size is not None:
        _selfplay_job(s, game, variant, seed, games, ray, shard_size, as_json, as_csv, quiet, leaves)
        return
    import polars as pl

    words = load_lexicon(s.store)
    if compare and table is not None:
        with Progress(quiet).task("equity against score-only games", total=games) as task:
            summary = comparison_summary(compare_strategies(game, words, table, games, seed, task))
        _emit(pl.DataFrame([summary]), as_json, as_csv)  # one row, as every listing
        return
    rows = []
    for number in range(1, games + 1):
        log = play_game(game, words, game_rng(seed, game.name, number), leaves)
        if gcg_dir is not None:
            played = game_of(log, game, words)
            write_text(gcg_path(gcg_dir, number), game_gcg(played, game, (first + "1", second + "2"), s.lexicon))
        rows.append(
            {"game": number, "score_1": int(log.scores[0]), "score_2": int(log.scores[1]), "turns": len(log.turns)}
        )
    _emit(pl.DataFrame(rows), as_json, as_csv)


def gcg_path(folder: Path, number: int) -> Path:
    """The GCG file of self-play game `number` in --gcg-dir."""
    return folder / f"game-{number:06d}.gcg"


def _check_gcg_dir(folder: Optional[Path], games: int, force: bool, data_dir: Path) -> None:
    """Refuse a --gcg-dir that is no folder or lies in the data folder, or whose game files exist (without
    --force), before any game is played."""
    if folder is None:
        if force:
            raise WordstatsError("--force applies to --gcg-dir DIR")
        return
    check_out_folder(folder, data_dir, option="--gcg-dir")
    names = {gcg_path(folder, number).name for number in range(1, games + 1)}
    for path in sorted(folder.glob("game-*.gcg")) if folder.is_dir() else []:
        if path.name in names:
            check_out(path, force, None, data_dir, option="--gcg-dir")


def _selfplay_job(
    s, game, variant: str, seed: int, games: int, ray, shard_size, as_json, as_csv, quiet, leaves=(None, None)
) -> None:
    """Self-play games (greedy, or by equity for a player with leave values) as a sharded job: one row of
    averages and the job's facts."""
    import polars as pl

    from pipeline.scrabble.lexicon.words import load_lexicon
    from pipeline.scrabble.play.jobs import SELFPLAY_SHARD, local_processes, selfplay_job
    from pipeline.scrabble.play.summary import selfplay_summary

    job = selfplay_job(game, load_lexicon(s.store), seed, games, shard_size or SELFPLAY_SHARD, leaves)
    result = _run_job(s, job, ray, quiet, processes=local_processes(games))
    rate = result.items_per_second
    facts = {
        "variant": variant,
        "seed": seed,
        **selfplay_summary(result.tables["games"])[variant],
        "seconds": round(result.seconds, 2),
        "games_per_second": round(rate, 3) if rate else None,
        **_job_facts(result),
    }
    _emit(pl.DataFrame([facts]), as_json, as_csv)
