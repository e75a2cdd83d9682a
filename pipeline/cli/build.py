"""Commands that build and inspect: run, make-rules, info, sql. Each parses its request (pipeline/core/api.py
declares the options), calls the use case and prints the result."""

from dataclasses import replace

import typer

from pipeline.cli.app import app
from pipeline.cli.options import Flags, check_out, command, limit_for, plural
from pipeline.core import api
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, FORCE, JSON_LIST, LEXICON, LIMIT, OUT, QUIET

SQL_OUT = replace(
    OUT,
    help="Write the result to FILE (.parquet, .csv, .json or .md) with its provenance.",
)


@command(app, api.Build, CONFIG, DATA_DIR, QUIET)
def run(q: api.Build, flags: Flags):
    """Build stages (ingest, indexes, ...) for lexicons; only the named stages and missing inputs run."""
    from pipeline.core.config import default_data_dir, load_config
    from pipeline.core.progress import Progress

    config = load_config(flags.config)
    out = default_data_dir(config.path) if flags.data_dir is None else flags.data_dir
    for runs in api.build(config, out, q, Progress(flags.quiet)):
        if not flags.quiet:
            for r in runs:
                files = ", ".join(f"{f} ({rows:,} rows)" if rows is not None else f for f, rows in r.outputs.items())
                typer.echo(f"{r.lexicon}: {r.stage} in {r.seconds:.2f} s → {files}", err=True)


@command(app, api.MakeRules, CONFIG, DATA_DIR, name="make-rules")
def make_rules(q: api.MakeRules, flags: Flags):
    """Write the Makefile's stage rules and each stage's settings fingerprint, or with --kernels the kernel
    rules (`make` calls this)."""
    api.make_rules(flags.config, flags.data_dir, q)


@command(app, api.Info, LEXICON, CONFIG, DATA_DIR, JSON_LIST, CSV)
def info(q: api.Info, flags: Flags):
    """List lexicons and their tables: rows, size, when built (or with --settings, the config's settings)."""
    from pipeline.core.display import emit

    fmt = flags.format
    if q.settings:
        from pipeline.core.config import load_config

        config = load_config(flags.config)
        typer.echo(f"config: {config.path}", err=True)
        emit(api.settings(config), fmt)
        return
    with flags.session() as s:
        overview = api.info(s, s.lexicon if flags.lexicon is not None else None)
    typer.echo(
        f"data folder: {overview.data_dir.resolve()} (from {overview.data_from}); config: {overview.config}", err=True
    )
    kernels = "; ".join(f"{name} {how}" for name, how in overview.kernels.items())
    typer.echo(f"one-off commands' kernels: {kernels or 'none'}", err=True)
    emit(overview.table, fmt)


@command(app, api.Sql, LIMIT, SQL_OUT, FORCE, CONFIG, DATA_DIR, JSON_LIST, CSV)
def sql(q: api.Sql, flags: Flags):
    """Run a read-only DuckDB query; each table is a view named after its file (words, anagrams, ...)."""
    from pipeline.core.display import emit, provenance_path, save
    from pipeline.core.session import open_session

    fmt = flags.format
    with open_session(flags.config, flags.data_dir, None if q.every else q.lexicon) as s:
        check_out(flags.out, flags.force, (".parquet", ".csv", ".json", ".md"), s.data_dir)
        if flags.out is not None and flags.out.suffix.lower() != ".parquet":
            check_out(provenance_path(flags.out), flags.force, None, s.data_dir, about=" (its provenance file)")
        result = api.sql(s, q)
    if flags.out:
        save(result.table, flags.out, result.provenance())
        typer.echo(f"wrote {plural(result.table.height, 'row')} to {flags.out}", err=True)
    else:
        emit(result.table, fmt, limit=limit_for(flags.limit, fmt))
