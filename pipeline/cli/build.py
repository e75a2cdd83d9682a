"""Commands that build and inspect: run, info, sql."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.cli.app import (
    ConfigOpt,
    DataDirOpt,
    LexiconOpt,
    QuietOpt,
    Session,
    _emit,
    app,
)
from pipeline.cli.options import CsvOpt, ForceOpt, JsonListOpt, LimitOpt, limit_for, plural
from pipeline.core.errors import WordstatsError


@app.command()
def run(
    stages: Annotated[
        Optional[list[str]], typer.Argument(help="Stages to build (default: all).", show_default=False)
    ] = None,
    lexicon: Annotated[
        Optional[list[str]],
        typer.Option(
            "--lexicon", "-l", metavar="NAME", help="Lexicon(s) (default: all in config).", show_default=False
        ),
    ] = None,
    source: Annotated[
        Optional[list[Path]],
        typer.Option("--source", help="Ad hoc word list file(s) for --lexicon.", show_default=False),
    ] = None,
    min_length: Annotated[Optional[int], typer.Option(help="Ad hoc list: shortest word kept.", min=1, max=255)] = None,
    max_length: Annotated[
        Optional[int], typer.Option(help="Ad hoc list: longest word kept (default 45).", min=1, max=255)
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let --source replace a config lexicon or one built from other files.")
    ] = False,
    ray: Annotated[
        Optional[str],
        typer.Option(
            "--ray",
            metavar="[ADDRESS]",
            show_default=False,
            help="Run each lexicon's stages as a task on Ray (one core each; the data folder must be shared by "
            "every node): a bare --ray starts a private local instance, auto joins this machine's cluster, "
            "HOST:PORT joins that head.",
        ),
    ] = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    quiet: QuietOpt = False,
):
    """Build stages (ingest, indexes, ...) for lexicons; only the named stages and missing inputs run."""
    from pipeline.core.config import adhoc_lexicon, load_config
    from pipeline.core.progress import Progress
    from pipeline.core.stages import run as st_run
    from pipeline.core.stages import stage as st_stage
    from pipeline.core.store import default_data_dir

    cfg = load_config(config)
    out = default_data_dir(cfg.path) if data_dir is None else data_dir
    for name in stages or []:
        st_stage(name)
    spec = None
    if source:
        if not lexicon or len(lexicon) != 1:
            raise WordstatsError("--source needs exactly one --lexicon NAME for the ad hoc list")
        spec = adhoc_lexicon(lexicon[0], source, min_length, max_length)
    elif min_length is not None or max_length is not None:
        raise WordstatsError("--min-length / --max-length apply to an ad hoc list given with --source")
    progress = Progress(quiet)
    names = list(lexicon or cfg.lexicons)
    if ray is not None:
        from pipeline.core.executor import cluster_address
        from pipeline.core.stages import run_lexicons

        if spec is not None:
            raise WordstatsError("--ray runs lexicons of the config, not an ad hoc --source list")
        for name in names:
            cfg.lexicon(name)  # an unknown name fails here, before the cluster starts
        done = run_lexicons(cfg, out.resolve(), names, list(stages or []), cluster_address(cfg, ray))
    else:
        done = (
            (name, st_run(cfg, out, name, list(stages or []), spec=spec, progress=progress, force=force))
            for name in names
        )
    for name, results in done:
        if not quiet:
            for r in results:
                files = ", ".join(
                    f"{f} ({e['rows']:,} rows)" if e["rows"] is not None else f for f, e in r["outputs"].items()
                )
                typer.echo(f"{name}: {r['stage']} in {r['seconds']:.2f} s → {files}", err=True)


@app.command("make-rules")
def make_rules(
    out: Annotated[Path, typer.Option("--out", help="The makefile to write (only when its content changes).")],
    engines: Annotated[
        bool, typer.Option("--engines", help="Write the engine rules (the games' compiled kernels) instead.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing file that make-rules did not write.")
    ] = False,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
):
    """Write the Makefile's stage rules and each stage's settings fingerprint, or with --engines the engine
    rules (`make` calls this)."""
    from pipeline.core.config import load_config
    from pipeline.core.makerules import make_rules as write_rules
    from pipeline.core.makerules import write_engine_rules
    from pipeline.core.store import default_data_dir

    if engines:
        write_engine_rules(out, force)
        return
    cfg = load_config(config)
    write_rules(cfg, str(config or cfg.path), data_dir or default_data_dir(cfg.path), out, force)


@app.command()
def info(
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonListOpt = False,
    as_csv: CsvOpt = False,
):
    """List lexicons and their tables: rows, size, when built."""
    from pipeline.core.info import tables_overview

    s = Session(config, data_dir, lexicon)
    overview = tables_overview(s.config, s.data_dir, [s.lexicon] if lexicon is not None else None)
    typer.echo(f"data folder: {s.data_dir.resolve()} (from {s.data_from}); config: {s.config.path}", err=True)
    from pipeline.core.aot import ENGINES, engine_named, status

    kernels = "; ".join(f"{name} {status(engine_named(name))}" for name in ENGINES)
    typer.echo(f"one-off commands' kernels: {kernels}", err=True)
    _emit(overview, as_json, as_csv)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help='SQL over the lexicon\'s tables, e.g. "SELECT * FROM words LIMIT 5".')],
    lexicon: Annotated[
        Optional[str],
        typer.Option(
            "--lexicon",
            "-l",
            metavar="NAME|all",
            help="Lexicon name, or all (adds a lexicon column; default: the config's).",
            show_default=False,
        ),
    ] = None,
    limit: LimitOpt = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Stop the query after this many seconds (at most 3600).")
    ] = 60.0,
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out",
            help="Write the result to FILE (.parquet, .csv, .json or .md) with its provenance.",
            metavar="FILE",
            show_default=False,
        ),
    ] = None,
    force: ForceOpt = False,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonListOpt = False,
    as_csv: CsvOpt = False,
):
    """Run a read-only DuckDB query; each table is a view named after its file (words, anagrams, ...)."""
    from pipeline.cli.options import check_number, check_out
    from pipeline.core.display import choose_format
    from pipeline.core.sql import MAX_TIMEOUT_SECONDS, run_sql
    from pipeline.core.store import Store

    fmt = choose_format(as_json, as_csv)
    check_number(timeout, "--timeout", 0.001, MAX_TIMEOUT_SECONDS)
    every = lexicon is not None and lexicon.strip().lower() == "all"
    s = Session(config, data_dir, None if every else lexicon)
    check_out(out, force, (".parquet", ".csv", ".json", ".md"), s.data_dir)
    if out is not None and out.suffix.lower() != ".parquet":
        from pipeline.core.display import provenance_path

        check_out(provenance_path(out), force, None, s.data_dir, option="--out (its provenance file)")
    if every:
        from pipeline.core.info import lexicon_names

        stores = [Store(s.data_dir, name) for name in lexicon_names(s.config, s.data_dir)]
        for other in stores:
            other.read_lock()  # as the session's lexicon: no commit swaps a table while the query reads it
        stores = [st for st in stores if st.parquet_tables()] or [s.store]
    else:
        stores = [s.store]
    result = run_sql(stores, query, tag=every, timeout=timeout)
    if out:
        from pipeline.core.display import save

        save(result.table, out, result.provenance())
        typer.echo(f"wrote {plural(result.table.height, 'row')} to {out}", err=True)
    else:
        _emit(result.table, as_json, as_csv, limit_for(limit, fmt))
