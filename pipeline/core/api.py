"""The build and inspection use cases: build stages for lexicons, what has been built (info), a read-only SQL
query, the Makefile's generated rules. Each takes a typed request (its options declared once,
pipeline/core/fields.py) and returns a frozen result; the command line (pipeline/cli/build.py) only parses,
calls these and prints."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.core.config import MAX_WORD_LENGTH
from pipeline.core.errors import FieldError
from pipeline.core.fields import check_number, option

if TYPE_CHECKING:
    import polars as pl

    from pipeline.core.config import Config
    from pipeline.core.progress import Progress
    from pipeline.core.session import Session
    from pipeline.core.sql import SqlResult


def stage_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Stage names as given, each one of the registry's (a one-line error lists them)."""
    from pipeline.core.stages import stage

    return tuple(stage(name).name for name in names)


def timeout_seconds(value: float) -> float:
    """--timeout: a number of seconds from a millisecond to the longest a query may run."""
    from pipeline.core.sql import MAX_TIMEOUT_SECONDS

    check_number(value, "timeout", 0.001, MAX_TIMEOUT_SECONDS)
    return value


# ---- requests ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    """Stages to build (all when none are named) for lexicons (all of the config when none are named), or for an
    ad hoc word list."""

    stages: tuple[str, ...] = option(
        kind=str, argument=True, many=True, optional=True, parse=stage_names, help="Stages to build (default: all)."
    )
    lexicons: tuple[str, ...] = option(
        kind=str,
        many=True,
        option="--lexicon",
        short="-l",
        metavar="NAME",
        parse=tuple,
        help="Lexicon(s) (default: all in config).",
    )
    sources: tuple[Path, ...] = option(
        kind=Path, many=True, option="--source", parse=tuple, help="Ad hoc word list file(s) for --lexicon."
    )
    min_length: int | None = option(kind=int, lo=1, hi=255, help="Ad hoc list: shortest word kept.")
    max_length: int | None = option(
        kind=int, lo=1, hi=255, help=f"Ad hoc list: longest word kept (default {MAX_WORD_LENGTH})."
    )
    force: bool = option(
        kind=bool, default=False, help="Let --source replace a config lexicon or one built from other files."
    )
    ray: str | None = option(
        kind=str,
        metavar="[ADDRESS]",
        help="Run each lexicon's stages as a task on Ray (one core each; the data folder must be shared by every "
        "node): a bare --ray starts a private local instance, auto joins this machine's cluster, HOST:PORT joins "
        "that head.",
    )


@dataclass(frozen=True)
class MakeRules:
    """Where to write the Makefile's generated rules, and which."""

    out: Path = option(kind=Path, required=True, help="The makefile to write (only when its content changes).")
    kernels: bool = option(
        kind=bool, default=False, help="Write the kernel rules instead (each package's warm-up of its kernels)."
    )
    force: bool = option(kind=bool, default=False, help="Replace an existing file that make-rules did not write.")


@dataclass(frozen=True)
class Info:
    """What to list: the lexicons' tables, or the config's settings."""

    settings: bool = option(
        kind=bool,
        default=False,
        help="List every setting the config may set (table, name, type, default, allowed values, this config's "
        "value, what it does) instead of the tables.",
    )


@dataclass(frozen=True)
class Sql:
    """One read-only query over a lexicon's tables (or every lexicon's)."""

    query: str = option(
        kind=str,
        argument=True,
        help='SQL over the lexicon\'s tables, e.g. "SELECT * FROM words LIMIT 5".',
    )
    lexicon: str | None = option(
        kind=str,
        short="-l",
        metavar="NAME|all",
        help="Lexicon name, or all (adds a lexicon column; default: the config's).",
    )
    timeout: float = option(
        kind=float,
        default=60.0,
        parse=timeout_seconds,
        help="Stop the query after this many seconds (at most 3600).",
    )

    @property
    def every(self) -> bool:
        """Whether the query runs over every lexicon (--lexicon all)."""
        return self.lexicon is not None and self.lexicon.strip().lower() == "all"


# ---- results -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StageRun:
    """One stage built for one lexicon: how long it took and each output file with its rows (None: not a table)."""

    lexicon: str
    stage: str
    seconds: float
    outputs: dict[str, int | None]


@dataclass(frozen=True)
class Overview:
    """What has been built: one row per lexicon and file, where the data folder is and why, the config, and which
    kernels the one-off commands use."""

    table: pl.DataFrame
    data_dir: Path
    data_from: str
    config: Path
    kernels: dict[str, str]


# ---- use cases -----------------------------------------------------------------------------------------------


def adhoc_spec(q: Build):
    """The lexicon of an ad hoc word list (--source), or None; a one-line error for options that do not fit."""
    from pipeline.core.config import adhoc_lexicon

    if q.sources:
        if len(q.lexicons) != 1:
            raise FieldError("{sources} needs exactly one {lexicons} NAME for the ad hoc list")
        return adhoc_lexicon(q.lexicons[0], list(q.sources), q.min_length, q.max_length)
    if q.min_length is not None or q.max_length is not None:
        raise FieldError("{min_length} / {max_length} apply to an ad hoc list given with {sources}")
    return None


def build(config: Config, data_dir: Path, q: Build, progress: Progress) -> Iterator[list[StageRun]]:
    """Build the stages asked for each lexicon, one lexicon after another (or each as a task on Ray), yielding
    each lexicon's stage runs as it finishes."""
    from pipeline.core.stages import run

    spec = adhoc_spec(q)
    names = list(q.lexicons or config.lexicons)
    if q.ray is not None:
        from pipeline.core.executor import cluster_address
        from pipeline.core.stages import run_lexicons

        if spec is not None:
            raise FieldError("{ray} runs lexicons of the config, not an ad hoc {sources} list")
        for name in names:
            config.lexicon(name)  # an unknown name fails here, before the cluster starts
        done = run_lexicons(config, data_dir.resolve(), names, list(q.stages), cluster_address(config, q.ray))
        for name, results in done:
            yield [stage_run(name, r) for r in results]
        return
    for name in names:
        results = run(config, data_dir, name, list(q.stages), spec=spec, progress=progress, force=q.force)
        yield [stage_run(name, r) for r in results]


def stage_run(lexicon: str, result: dict[str, Any]) -> StageRun:
    """A stage runner's result as a StageRun."""
    outputs = {f: e.get("rows") for f, e in result["outputs"].items()}
    return StageRun(lexicon, result["stage"], result["seconds"], outputs)


def make_rules(config_path: Path | None, data_dir: Path | None, q: MakeRules) -> None:
    """Write the Makefile's stage rules and each stage's settings fingerprint, or the kernel rules."""
    from pipeline.core.makerules import make_rules as write_rules
    from pipeline.core.makerules import write_kernel_rules

    if q.kernels:
        write_kernel_rules(q.out, q.force)
        return
    from pipeline.core.config import default_data_dir, load_config

    config = load_config(config_path)
    write_rules(config, str(config_path or config.path), data_dir or default_data_dir(config.path), q.out, q.force)


def info(s: Session, only: str | None) -> Overview:
    """The lexicons (or only the one named) and their tables, and whether each game's compiled extension (the
    engine of its one-off commands) is current."""
    from pipeline.core import native
    from pipeline.core.info import tables_overview

    table = tables_overview(s.config, s.data_dir, [only] if only is not None else None)
    kernels = {package.rsplit(".", 1)[1]: native.status(package) for package in native.packages()}
    return Overview(table, s.data_dir, s.data_from, s.config.path, kernels)


def settings(config: Config) -> pl.DataFrame:
    """Every declared setting of the config: its table and name, type, default, allowed values, this config's
    value and what it does (pipeline.core.settings)."""
    import polars as pl

    from pipeline.core.registry import settings as declared
    from pipeline.core.registry import value
    from pipeline.core.settings import shown

    rows = [
        {
            "setting": s.key,
            "type": s.kind,
            "default": "" if s.default is None or s.kind == "table" else shown(s.default),
            "allowed": s.domain(),
            "value": "" if s.kind == "table" else shown(v) if (v := value(config, s.key)) is not None else "",
            "help": s.help,
        }
        for s in declared()
    ]
    return pl.DataFrame(rows, schema={k: pl.String for k in ("setting", "type", "default", "allowed", "value", "help")})


@contextlib.contextmanager
def every_lexicon(s: Session) -> Iterator[list]:
    """The stores of every lexicon with tables (or the session's), each read-locked for the block."""
    from pipeline.core.info import lexicon_names
    from pipeline.core.store import Store

    stores = [Store(s.data_dir, name) for name in lexicon_names(s.config, s.data_dir)]
    with contextlib.ExitStack() as stack:
        for store in stores:
            stack.enter_context(store.reading())  # no commit swaps a table while the query reads it
        yield [st for st in stores if st.parquet_tables()] or [s.store]


def sql(s: Session, q: Sql) -> SqlResult:
    """The query's result over the session's lexicon, or every lexicon's tables (each view then gains a lexicon
    column)."""
    from pipeline.core.sql import run_sql

    if not q.every:
        return run_sql([s.store], q.query, tag=False, timeout=q.timeout)
    with every_lexicon(s) as stores:
        return run_sql(stores, q.query, tag=True, timeout=q.timeout)
