"""The wordlist command: word lists and sheets for teachers. Its filter and sheet options are the word-list
vocabulary (pipeline/wordlists/fields.py), declared once for the CLI, the presets and the web page; it parses
the request, calls the use case (pipeline/wordlists/api.py) and prints or writes the list."""

from dataclasses import replace

import typer

from pipeline.cli.app import app
from pipeline.cli.options import Flags, check_out, command, plural
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, FORCE, JSON_LIST, LEXICON, LIMIT, OUT
from pipeline.wordlists import api

LIST_OUT = replace(OUT, help="Write list.csv, list.md, list.html or list.pdf (refuses to overwrite without --force).")


@command(app, api.WordListRequest, LIMIT, LIST_OUT, FORCE, LEXICON, CONFIG, DATA_DIR, JSON_LIST, CSV, given=api.FIELDS)
def wordlist(q: api.WordListRequest, flags: Flags):
    """Word lists for teachers: filters that combine, presets, no offensive words; print, CSV, Markdown, PDF."""
    from pipeline.core.display import emit

    fmt, rows, out = flags.format, flags.rows, flags.out
    with flags.session(teacher=True) as s:
        check_out(out, flags.force, api.FORMATS, s.data_dir)
        if q.presets:
            emit(api.presets(s).table, fmt)
            return
        wl = api.word_list(s, q, printed=out is not None and out.suffix.lower() in api.PRINTED)
    if wl.note:
        typer.echo(f"note: {wl.note}", err=True)
    if out:
        from pipeline.wordlists import render  # the sheets' fonts and layouts: only for a file

        render.save(wl, out)
        typer.echo(f"wrote {plural(wl.table.height, 'word')} to {out}", err=True)
        return
    if fmt == "table":
        typer.echo(f"{wl.title}: {plural(wl.table.height, 'word')}, " + "; ".join(wl.filters), err=True)
    emit(wl.table, fmt, limit=rows)
