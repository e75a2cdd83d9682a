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
from pipeline.core.errors import WordstatsError


@app.command()
def hangman(
    word: Annotated[
        Optional[str], typer.Argument(help="Trace the solver's game against WORD.", show_default=False)
    ] = None,
    length: Annotated[
        Optional[int], typer.Option("--length", help="Only words of this length.", show_default=False)
    ] = None,
    hardest: Annotated[
        Optional[int], typer.Option("--hardest", help="The N hardest words.", show_default=False)
    ] = None,
    easiest: Annotated[
        Optional[int], typer.Option("--easiest", help="The N easiest words.", show_default=False)
    ] = None,
    band: Annotated[
        Optional[str], typer.Option("--band", help="Only this band: easy, medium or hard.", show_default=False)
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
    """Hangman difficulty: trace the solver on WORD, or list words hardest (or easiest) first."""
    from pipeline.core.display import choose_format
    from pipeline.hangman.queries import select, trace_word

    choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    if word is None:
        if weighted:
            raise WordstatsError("--weighted applies to a traced WORD")
        _emit(select(s.store, s.config, length, hardest, easiest, band, common), as_json, as_csv)
        return
    if any(v is not None for v in (length, hardest, easiest, band)) or common:
        raise WordstatsError("give a WORD to trace, or --length/--hardest/--easiest/--band/--common to list")
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
            f"solved: {misses} miss{'' if misses == 1 else 'es'} in {guesses} "
            f"guess{'' if guesses == 1 else 'es'} ({facts['sequence'] or 'no guess needed'}){rank}"
        )
