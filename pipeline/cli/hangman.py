"""The hangman commands: each parses its request (pipeline/hangman/query.py declares the options), calls the Hangman use
case (pipeline/hangman/api.py) in a scoped session and renders the result (pipeline/hangman/render.py)."""

import typer

from pipeline.cli.app import app
from pipeline.cli.options import Flags, command
from pipeline.core.display import emit, emit_json
from pipeline.core.errors import note
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, JSON_LIST, LEXICON, LIMIT
from pipeline.hangman import api


@command(app, api.HangmanQuery, LIMIT, LEXICON, CONFIG, DATA_DIR, JSON_LIST, CSV)
def hangman(q: api.HangmanQuery, flags: Flags):
    """Hangman difficulty: trace the solver on WORD (--json: one object), or list words hardest first."""
    fmt = flags.format
    asked = q.request(flags.limit, flags.rows)
    if isinstance(asked, api.RankingRequest):
        with flags.session() as s:
            found = api.ranking(s, asked)
        emit(found.table, fmt)
        return
    with flags.session() as s:
        game = api.game(s, asked)
    from pipeline.hangman import render

    if fmt == "json":
        emit_json(render.game_json(game))
        return
    if fmt == "table":
        typer.echo(render.game_heading(game))
    emit(game.steps, fmt)
    if fmt == "table":
        typer.echo(render.game_verdict(game))
        if game.optimal is None:
            typer.echo(game.optimal_note)
        else:
            typer.echo(render.optimal_heading(game))
            emit(game.optimal, "table")
            typer.echo(render.optimal_verdict(game))


@command(app, api.LearningRequest, LEXICON, CONFIG, DATA_DIR, JSON_LIST, CSV)
def hangman_learn(q: api.LearningRequest, flags: Flags):
    """Hangman against setters: seeded games per setter model, the guesser that learns its setter against the
    uniform-prior guesser and the oracle that knows the setter (average misses, games to within 5%)."""
    with flags.session() as s:
        found = api.learning(s, q)
    for text in found.notes:
        note(text)
    emit(found.table, flags.format)
