"""The hangman command."""

from typing import Annotated, Optional

import typer

from pipeline.cli.app import (
    ConfigOpt,
    CsvOpt,
    DataDirOpt,
    JsonOpt,
    LexiconOpt,
    Session,
    _emit,
    app,
)
from pipeline.cli.options import LengthOpt, LimitOpt, choose_format, limit_for, parse_length, plural
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
    from pipeline.hangman.queries import select, trace_word

    fmt = choose_format(as_json, as_csv)
    span = parse_length(length)
    s = Session(config, data_dir, lexicon)
    if word is None:
        if weighted:
            raise WordstatsError("--weighted applies to a traced WORD")
        rows = limit_for(limit, fmt)
        found = select(s.store, s.config, span, None if easiest else rows, rows if easiest else None, band, common)
        _emit(found, as_json, as_csv)
        return
    if any(v is not None for v in (length, limit, band)) or common or easiest:
        raise WordstatsError("give a WORD to trace, or --length/--limit/--easiest/--band/--common to list")
    steps, facts = trace_word(s.store, s.config, word, weighted)
    if as_json:
        from pipeline.core.display import emit_json

        emit_json({**facts, "steps": steps.to_dicts()})
        return
    if not as_csv:
        solver = "frequency-weighted solver" if facts["weighted"] else "reference solver"
        typer.echo(
            f"{facts['word']}: {facts['length']} letters, {facts['candidates']:,} candidates "
            f"in {s.store.lexicon} ({solver}), start {' '.join('_' * facts['length'])}"
        )
    _emit(steps, False, as_csv)
    if not as_csv:
        by = " by the reference solver" if facts["weighted"] else ""
        rank = (
            f"; rank {facts['rank_in_length']:,} of the {facts['length']}-letter words{by} (1 = hardest), "
            f"band {facts['band']}"
            if "rank_in_length" in facts
            else ""
        )
        misses, guesses = facts["misses"], facts["guesses"]
        typer.echo(
            f"solved: {plural(misses, 'miss')} in {plural(guesses, 'guess')} "
            f"({facts['sequence'] or 'no guess needed'}){rank}"
        )
