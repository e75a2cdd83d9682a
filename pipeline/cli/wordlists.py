"""The wordlist command: word lists and sheets for teachers. Its filter and sheet options are built from the
word-list vocabulary (pipeline/wordlists/fields.py), declared once for the CLI, the presets and the web page."""

import inspect
from pathlib import Path
from typing import Annotated, Any, Optional

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
from pipeline.cli.options import (
    ForceOpt,
    LimitOpt,
    check_out,
    choose_format,
    limit_for,
    plural,
)
from pipeline.wordlists.fields import FIELDS, Field

PresetOpt = Annotated[
    Optional[str],
    typer.Option(
        "--preset",
        "-p",
        show_default=False,
        metavar="NAME",
        help="A named filter set (spelling-k2, spelling-35, hangman-easy, hangman-hard; see --presets).",
    ),
]
AllowAllOpt = Annotated[
    bool, typer.Option("--allow-all", help="Do not leave out offensive words and topics not for the classroom.")
]
UpperOpt = Annotated[bool, typer.Option("--upper", help="Words in capitals (default: lower case).")]
OutOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--out",
        help="Write list.csv, list.md, list.html or list.pdf (refuses to overwrite without --force).",
        show_default=False,
    ),
]
PresetsOpt = Annotated[bool, typer.Option("--presets", help="List the presets and their filters.")]


def typer_option(f: Field) -> Any:
    """The typer annotation of a vocabulary field."""
    if f.negatable:
        return Annotated[Optional[bool], typer.Option(f"{f.flag}/--no-{f.flag[2:]}", help=f.help, show_default=False)]
    if f.kind is bool:
        return Annotated[bool, typer.Option(f.flag, help=f.help)]
    extra: dict[str, Any] = {"min": f.lo, "max": f.hi} if f.kind is int else {}  # a fraction: the field says
    if f.metavar:
        extra["metavar"] = f.metavar
    return Annotated[Optional[f.kind], typer.Option(f.flag, help=f.help, show_default=False, **extra)]


def _wordlist(
    preset: PresetOpt = None,
    limit: LimitOpt = None,
    allow_all: AllowAllOpt = False,
    upper: UpperOpt = False,
    out: OutOpt = None,
    force: ForceOpt = False,
    presets: PresetsOpt = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
    **given: Any,
):
    """Word lists for teachers: filters that combine, presets, no offensive words; print, CSV, Markdown, PDF."""
    from pipeline.wordlists.select import presets_table, word_list
    from pipeline.wordlists.sheets import save

    fmt = choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon, teacher=True)
    check_out(out, force, (".csv", ".md", ".html", ".pdf"), s.data_dir)
    if presets:
        _emit(presets_table(s.config), as_json, as_csv)
        return
    printed = out is not None and out.suffix.lower() in (".pdf", ".html", ".htm", ".md")
    wl = word_list(s.store, s.config, preset, given, allow_all=allow_all, upper=upper, printed=printed)
    if wl.note:
        typer.echo(f"note: {wl.note}", err=True)
    if out:
        save(wl, out)
        typer.echo(f"wrote {plural(wl.table.height, 'word')} to {out}", err=True)
        return
    if not (as_json or as_csv):
        typer.echo(f"{wl.title}: {plural(wl.table.height, 'word')}, " + "; ".join(wl.filters), err=True)
    _emit(wl.table, as_json, as_csv, limit_for(limit, fmt))


def with_fields(fn):
    """`fn` with one keyword parameter per vocabulary field (what typer reads), gathered into **given."""
    signature = inspect.signature(fn)
    fixed = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    names = {p.name for p in fixed}
    fields = [f for f in FIELDS if f.name not in names]
    extra = [
        inspect.Parameter(
            f.name, inspect.Parameter.KEYWORD_ONLY, default=False if f.switch else None, annotation=typer_option(f)
        )
        for f in fields
    ]

    def command(**kwargs: Any):
        """Call `fn` with the fields' values gathered."""
        given = {f.name: kwargs.pop(f.name) for f in fields}
        return fn(**kwargs, **given)

    command.__name__, command.__doc__ = "wordlist", fn.__doc__
    command.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in fixed] + extra
    )
    command.__annotations__ = {p.name: p.annotation for p in command.__signature__.parameters.values()}  # type: ignore[attr-defined]
    return command


wordlist = app.command(name="wordlist")(with_fields(_wordlist))
