"""Scrabble commands: best, score, selfplay."""

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
from pipeline.cli.options import MAX_LIMIT
from pipeline.core.errors import NotFound, WordstatsError

scrabble_app = App(
    name="scrabble", help="Scrabble and Words With Friends: best plays and play scores.", no_args_is_help=True
)
app.add_typer(scrabble_app, name="scrabble")

BoardOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--board", help="Board file: 15 lines of 15 characters (. empty, A-Z tiles, a-z blanks).", show_default=False
    ),
]
ScrabbleVariantOpt = Annotated[
    str, typer.Option("--variant", help="Game variant: scrabble or wwf (from the config; any case).")
]
EmptyOpt = Annotated[bool, typer.Option("--empty", help="Start from an empty board (an opening move).")]


def _scrabble_board(board: Optional[Path], empty: bool):
    """The board of --board FILE, or the empty board of --empty (exactly one of them)."""
    from pipeline.scrabble.board import read_board

    if board is None and not empty:
        raise WordstatsError("give --board FILE, or --empty for an opening move")
    if board is not None and empty:
        raise WordstatsError("give either --board FILE or --empty, not both")
    return read_board(board)


@scrabble_app.command("best")
def scrabble_best(
    rack: Annotated[
        str, typer.Option("--rack", help="Tiles in hand: letters and ? for a blank (at most 7).", show_default=False)
    ],
    board: BoardOpt = None,
    empty: EmptyOpt = False,
    variant: ScrabbleVariantOpt = "scrabble",
    limit: Annotated[
        int, typer.Option("--limit", "-n", help="How many plays to show (0 = all).", min=0, max=MAX_LIMIT)
    ] = 10,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """The highest-scoring plays for a board and rack (position, word, score, cross-words, leave)."""
    from pipeline.scrabble.board import parse_rack
    from pipeline.scrabble.lexicon import load_lexicon
    from pipeline.scrabble.movegen import best_plays, plays_table
    from pipeline.scrabble.variant import variant as sc_variant

    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    tiles = parse_rack(rack, game.rack_size)
    position = _scrabble_board(board, empty)
    plays = best_plays(position, tiles, game, load_lexicon(s.store), limit or MAX_LIMIT)
    if not plays:
        raise NotFound(f"no legal play for rack {tiles} on this board")
    _emit(plays_table(plays, tiles), as_json, as_csv)


@scrabble_app.command("score")
def scrabble_score(
    play: Annotated[
        str,
        typer.Option(
            "--play",
            help='The play in notation: "8H WORD" across, "H8 WORD" down; '
            "lower case = blank, board tiles may be in parentheses.",
            show_default=False,
        ),
    ],
    board: BoardOpt = None,
    empty: EmptyOpt = False,
    rack: Annotated[
        Optional[str], typer.Option("--rack", help="Also check the tiles come from this rack.", show_default=False)
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
    from pipeline.scrabble.board import parse_rack
    from pipeline.scrabble.lexicon import load_lexicon
    from pipeline.scrabble.rules import IllegalPlay, breakdown, score_play
    from pipeline.scrabble.variant import variant as sc_variant

    choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    tiles = parse_rack(rack, game.rack_size) if rack is not None else None
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


@scrabble_app.command("selfplay")
def scrabble_selfplay(
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=10**9, help="How many games (numbered 1..N).")] = 10,
    variant: ScrabbleVariantOpt = "scrabble",
    seed: Annotated[
        Optional[int],
        typer.Option("--seed", min=0, show_default=False, help="Seed (default: the config's scrabble.selfplay.seed)."),
    ] = None,
    out: Annotated[
        Optional[Path],
        typer.Option("--out", show_default=False, help="Also write every game to FILE (.parquet/.csv/.json/.md)."),
    ] = None,
    ray: RayOpt = None,
    shard_size: ShardOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
    quiet: QuietOpt = False,
):
    """Seeded greedy self-play games, a sharded job that resumes: averages per game and move (--out: every game)."""
    import polars as pl

    from pipeline.core.display import choose_format
    from pipeline.scrabble.jobs import SELFPLAY_SHARD, local_processes, selfplay_job
    from pipeline.scrabble.lexicon import load_lexicon
    from pipeline.scrabble.selfplay import selfplay_summary
    from pipeline.scrabble.stage import params as stage_params
    from pipeline.scrabble.variant import variant as sc_variant

    choose_format(as_json, as_csv)
    if out is not None and out.suffix.lower() not in (".parquet", ".csv", ".json", ".md"):
        raise WordstatsError(f"--out {out}: give a .parquet, .csv, .json or .md file")
    s = Session(config, data_dir, lexicon)
    game = sc_variant(s.config, variant)
    seed = stage_params(s.config, None)["selfplay"]["seed"] if seed is None else seed
    job = selfplay_job(game, load_lexicon(s.store), seed, games, shard_size or SELFPLAY_SHARD)
    result = _run_job(s, job, ray, quiet, processes=local_processes(games))
    table = result.tables["games"]
    if out is not None:
        from pipeline.core.display import save

        save(table, out)
        typer.echo(f"wrote {table.height:,} games to {out}", err=True)
    rate = result.items_per_second
    facts = {
        "variant": variant,
        "seed": seed,
        **selfplay_summary(table)[variant],
        "seconds": round(result.seconds, 2),
        "games_per_second": round(rate, 3) if rate else None,
        **_job_facts(result),
    }
    _emit(pl.DataFrame([facts]), as_json, as_csv)
