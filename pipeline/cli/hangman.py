"""The hangman command: parses, calls the Hangman use cases (pipeline/hangman/api.py) and renders."""

from typing import Annotated, Optional

import typer

from pipeline.cli.app import ConfigOpt, CsvOpt, DataDirOpt, JsonOpt, LexiconOpt, _emit, app
from pipeline.cli.options import LengthOpt, LimitOpt, choose_format, limit_for, parse_length
from pipeline.core.errors import WordstatsError


@app.command()
def hangman(
    word: Annotated[
        Optional[str], typer.Argument(help="Trace the solver's game against WORD.", show_default=False)
    ] = None,
    length: LengthOpt = None,
    limit: LimitOpt = None,
    easiest: Annotated[
        bool, typer.Option("--easiest", help="List the easiest words first (default: hardest).")
    ] = False,
    band: Annotated[
        Optional[str],
        typer.Option(
            "--band",
            metavar="[easy|medium|hard]",
            help="Only this band: easy, medium or hard (any case).",
            show_default=False,
        ),
    ] = None,
    common: Annotated[
        bool, typer.Option("--common", help="Only common words: zipf at least the config's hangman.common_zipf (3.0).")
    ] = False,
    weighted: Annotated[bool, typer.Option("--weighted", help="Trace the frequency-weighted solver.")] = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Hangman difficulty: trace the solver on WORD (--json: one object), or list words hardest first."""
    from pipeline.core.session import open_session
    from pipeline.hangman import api

    fmt = choose_format(as_json, as_csv)
    span = parse_length(length)
    if word is None:
        if weighted:
            raise WordstatsError("--weighted applies to a traced WORD")
        rows = limit_for(limit, fmt)
        asked = api.RankingRequest(span, None if easiest else rows, rows if easiest else None, band, common)
        with open_session(config, data_dir, lexicon) as s:
            found = api.ranking(s, asked)
        _emit(found.table, as_json, as_csv)
        return
    if any(v is not None for v in (length, limit, band)) or common or easiest:
        raise WordstatsError("give a WORD to trace, or --length/--limit/--easiest/--band/--common to list")
    with open_session(config, data_dir, lexicon) as s:
        game = api.game(s, api.GameRequest(word, weighted))
    from pipeline.hangman import render

    if as_json:
        from pipeline.core.display import emit_json

        emit_json(render.game_json(game))
        return
    if not as_csv:
        typer.echo(render.game_heading(game))
    _emit(game.steps, False, as_csv)
    if not as_csv:
        typer.echo(render.game_verdict(game))
        if game.optimal is None:
            typer.echo(game.optimal_note)
        else:
            typer.echo(render.optimal_heading(game))
            _emit(game.optimal, False, False)
            typer.echo(render.optimal_verdict(game))
