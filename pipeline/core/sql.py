"""SQL over the built tables with DuckDB, in a sandbox set by DuckDB's own settings.

Every Parquet table of a lexicon is a view named after its file (words, anagrams, ...); over all
lexicons each view gains a `lexicon` column. Once the views exist the session may read only the
lexicon folders, never write, load extensions or reach the network, and the settings are locked."""

from __future__ import annotations

import contextlib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import Interrupted, WordstatsError, first_line
from pipeline.core.files import sha256_file
from pipeline.core.store import Store, damaged_among

MEMORY_LIMIT = "2GB"  # DuckDB's buffer pool for one query
THREADS = 2
TIMEOUT_SECONDS = 60.0  # a query still running then is interrupted
POLL_SECONDS = 0.05  # how often the main thread looks up from a running query (Ctrl-C lands within this)
STOP_SECONDS = 10.0  # how long an interrupted query may take to stop (it stops in a fraction of a second)
MAX_TIMEOUT_SECONDS = 3600.0
MAX_RESULT_ROWS = 10_000_000  # a result larger than this is refused (use LIMIT or aggregate)
_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass
class SqlResult:
    """A query's result with what it read: the SQL, the lexicons and each input file's sha256."""

    table: pl.DataFrame
    query: str
    lexicons: list[str]
    inputs: dict[str, str] = field(default_factory=dict)

    def provenance(self) -> dict[str, Any]:
        """The provenance written beside an exported result."""
        return {"stage": "sql", "sql": self.query, "lexicon": ",".join(self.lexicons), "inputs": self.inputs}


def _quote(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def _views(stores: list[Store], tag: bool) -> dict[str, list[tuple[str, Path]]]:
    """For each table name, the (lexicon, file) pairs that hold it."""
    views: dict[str, list[tuple[str, Path]]] = {}
    for store in stores:
        for name, path in store.parquet_tables().items():
            if set(name) <= _NAME_CHARS:
                views.setdefault(name, []).append((store.lexicon, path.resolve()))
    return views


def _view_sql(name: str, parts: list[tuple[str, Path]], tag: bool) -> str:
    """CREATE VIEW for one table: the file, or (tagged) the union of every lexicon's file by column name."""
    selects = [
        f"SELECT {_quote(lexicon) + ' AS lexicon, ' if tag else ''}* FROM read_parquet({_quote(str(path))})"
        for lexicon, path in parts
    ]
    return f'CREATE VIEW "{name}" AS ' + " UNION ALL BY NAME ".join(selects)


def connect(
    stores: list[Store],
    tag: bool = False,
    memory_limit: str = MEMORY_LIMIT,
    threads: int = THREADS,
    query: str | None = None,
):
    """A DuckDB connection with a view per table, sandboxed: reads only the lexicon folders, locked. Given the
    query, only the views of the tables it names (every view when it names none, as a listing of the views does):
    each view reads its file's footer when made."""
    import duckdb

    every = _views(stores, tag)
    views = every
    if query is not None:
        named = named_words(query)
        views = {name: parts for name, parts in every.items() if name in named} or every
    if not views:
        stores[0].require("words")  # raises with the command that builds it
    con = duckdb.connect(
        ":memory:",
        config={
            "threads": threads,
            "memory_limit": memory_limit,
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
            "temp_directory": "",
            "arrow_large_buffer_size": True,  # results hand over 64-bit offsets: a text column may pass 2 GiB
        },
    )
    try:
        for name, parts in sorted(views.items()):
            con.execute(_view_sql(name, parts, tag))
        folders = sorted({str(p.parent) + "/" for parts in views.values() for _, p in parts})
        con.execute(f"SET allowed_directories = [{', '.join(map(_quote, folders))}]")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except duckdb.Error as exc:
        con.close()
        raise WordstatsError(f"SQL: cannot open the tables ({first_line(exc)})") from None
    recorded = {path: digest for store in stores for path, digest in store.recorded_hashes().items()}
    inputs = {
        f"{lexicon}/{path.name}": recorded.get(path) or sha256_file(path)
        for parts in views.values()
        for lexicon, path in parts
    }
    return con, sorted(every), inputs


def run_sql(
    stores: list[Store],
    query: str,
    tag: bool = False,
    timeout: float = TIMEOUT_SECONDS,
    max_rows: int = MAX_RESULT_ROWS,
) -> SqlResult:
    """Run one query in the sandbox; every failure (syntax, refused access, memory, time) is one line."""
    import duckdb

    if not query.strip():
        raise WordstatsError("empty SQL query")
    try:
        check_named_tables(stores, query)
        con, names, inputs = connect(stores, tag, query=query)
    except KeyboardInterrupt:  # Ctrl-C before the query runs: the same one line
        raise interrupted() from None
    try:
        _check_read_only(con, query)
    except KeyboardInterrupt:
        raise interrupted() from None
    except BaseException:
        con.close()
        raise
    timer = threading.Timer(timeout, con.interrupt)
    timer.daemon = True
    timer.start()
    stopping = False  # interrupted: the query may still be stopping, and closing would wait for it
    try:
        table = _query(con, query, max_rows)
    except Interrupted:
        stopping = True
        raise
    except duckdb.InterruptException:
        raise WordstatsError(f"SQL query stopped after {timeout:g} s (the time limit; see --timeout)") from None
    except duckdb.Error as exc:
        damaged = damaged_among(stores, exc) if "parquet" in str(exc).lower() else None
        raise damaged or WordstatsError(f"SQL error: {_why(exc)} (tables: {', '.join(names)})") from None
    except pl.exceptions.PolarsError as exc:  # the result could not be taken over (DuckDB reports it through polars)
        raise WordstatsError(f"SQL: the result cannot be read ({_why(exc)}); add a LIMIT or aggregate") from None
    finally:
        timer.cancel()
        if not stopping:
            with contextlib.suppress(duckdb.Error):
                con.close()
    return SqlResult(integers(table), query, [s.lexicon for s in stores], inputs)


def _query(con, query: str, max_rows: int) -> pl.DataFrame:
    """The query's result, run in a worker thread so that Ctrl-C stops it at once (DuckDB is told to stop; the
    main thread stays in Python, where the signal lands): Interrupted, exit code 130."""
    done: dict[str, Any] = {}

    def work() -> None:
        """Run the query; keep its table or its exception."""
        try:
            relation = con.sql(query)
            if relation is None:  # a statement that returns nothing
                done["table"] = pl.DataFrame()
            else:
                done["table"] = pl.DataFrame(relation.limit(max_rows + 1))  # Arrow's C stream: no pyarrow
        except BaseException as exc:  # noqa: B036 (handed to the main thread)
            done["error"] = exc

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL_SECONDS)
    except KeyboardInterrupt:
        con.interrupt()
        worker.join(STOP_SECONDS)
        raise interrupted() from None
    if "error" in done:
        raise done["error"]
    table = done["table"]
    if table.height > max_rows:
        raise WordstatsError(f"SQL result has more than {max_rows:,} rows: add a LIMIT or aggregate")
    return table


def interrupted() -> Interrupted:
    """The error of a query stopped by Ctrl-C; the command leaves at once after saying so (DuckDB's threads may
    still be stopping, and waiting for them or closing them at exit can hang or abort)."""
    stopped = Interrupted("SQL query interrupted (Ctrl-C)")
    stopped.leave_at_once = True
    return stopped


def integers(table: pl.DataFrame) -> pl.DataFrame:
    """Whole-number columns as integers: DuckDB sums and averages integers into decimals (128-bit), which
    would print as strings in JSON and as decimal128 in Parquet; each becomes Int64, or Int128 when too big."""
    casts = []
    for name, dtype in table.schema.items():
        if isinstance(dtype, pl.Decimal) and dtype.scale == 0:
            column = table[name].drop_nulls()
            fits = column.is_empty() or (int(column.min()) >= -(2**63) and int(column.max()) < 2**63)  # type: ignore[arg-type]
            casts.append(pl.col(name).cast(pl.Int64 if fits else pl.Int128))
    return table.with_columns(casts) if casts else table


def named_words(query: str) -> set[str]:
    """Every word of the query that could name a table (any case: table names are lower case)."""
    return set(re.findall(r"[a-z_][a-z0-9_]*", query.lower()))


def check_named_tables(stores: list[Store], query: str) -> None:
    """Check each table the query names against its declared schema: a damaged one is an error naming its file
    and the command that rebuilds it (tables the query does not name are never read)."""
    named = named_words(query)
    for store in stores:
        for name in store.parquet_tables():
            if name in named:
                store.require(name)


def _check_read_only(con, query: str) -> None:
    """Allow exactly one statement, a query (SELECT, WITH, DESCRIBE, SUMMARIZE ...) or EXPLAIN of one."""
    import duckdb

    try:
        statements = con.extract_statements(query)
    except duckdb.Error as exc:
        raise WordstatsError(f"SQL error: {_why(exc)}") from None
    if len(statements) != 1:
        raise WordstatsError(f"SQL: give exactly one statement, not {len(statements)}")
    kind = statements[0].type
    if kind not in (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN):
        raise WordstatsError(
            f"SQL: {kind.name} statements are refused by the sandbox (only queries: SELECT, WITH, DESCRIBE ...)"
        )


def _why(exc: Exception) -> str:
    """DuckDB's message on one line, with the sandbox's refusals said plainly."""
    text = " ".join(first_line(exc).split())
    lowered = text.lower()
    if "external access" in lowered or "permission" in lowered or "not allowed" in lowered:
        return f"refused by the sandbox (only the lexicon's tables may be read, nothing written): {text}"
    return text
