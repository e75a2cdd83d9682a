"""Query results as an aligned table for people, or JSON / CSV for machines."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError, note  # noqa: F401  (note: the listings' notes)
from pipeline.core.fields import choose_format  # noqa: F401  (the output format is the flags', declared there)


def _cell(value: Any) -> str:
    """One value as table text: lists joined by spaces (a set of letters run together: DST), floats without
    noise, None as blank."""
    kind = type(value)
    if kind is str:
        return value
    if kind is int:
        return str(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return f"{value:.6g}" if abs(value) < 1e-3 and value != 0 else f"{value:,.4f}".rstrip("0").rstrip(".")
    if isinstance(value, pl.Series):  # map_elements hands list cells over as Series
        value = value.to_list()
    if isinstance(value, (list, tuple)):
        return list_text(value, _cell)
    if isinstance(value, dict):
        return " ".join(f"{k}={_cell(v)}" for k, v in value.items())
    return str(value)


def list_text(values, each) -> str:
    """A list cell as text: a set of letters run together (DST), anything else `each` value joined by spaces."""
    if all(type(v) is str and len(v) == 1 for v in values):
        return "".join(values)
    return " ".join(each(v) for v in values)


MAX_DECIMALS = 8


def decimals(column: pl.Series) -> int:
    """The decimals that show a float column's smallest non-zero magnitude to 3 significant digits (2 to 8)."""
    values = column.drop_nulls().drop_nans().abs()
    values = values.filter((values > 0) & values.is_finite())
    if values.is_empty():
        return 2
    smallest = float(values.min())  # type: ignore[arg-type]
    return max(2, min(MAX_DECIMALS, 2 - math.floor(math.log10(smallest))))


def _fixed(value: float, places: int) -> str:
    """A float with a column's fixed number of decimals; NaN and infinities blank."""
    return f"{value:,.{places}f}" if math.isfinite(value) else ""


def flatten(df: pl.DataFrame) -> pl.DataFrame:
    """Nested columns (lists, structs) as text, for CSV."""
    exprs = []
    for name, dtype in df.schema.items():
        if isinstance(dtype, (pl.List, pl.Array, pl.Struct)):
            exprs.append(pl.col(name).map_elements(_cell, return_dtype=pl.String))
        else:
            exprs.append(pl.col(name))
    return df.select(exprs)


def table_cells(df: pl.DataFrame, max_chars: int | None = None) -> list[list[str]]:
    """Every cell of `df` as text: each float column with its own fixed decimals, lists joined by spaces;
    a cell longer than `max_chars` cut with an ellipsis."""
    places = [decimals(df[name]) if dtype.is_float() else None for name, dtype in df.schema.items()]
    rows = [
        [_cell(v) if p is None or not isinstance(v, float) else _fixed(v, p) for v, p in zip(row, places)]
        for row in df.rows()
    ]
    if max_chars is not None:
        rows = [[v if len(v) <= max_chars else v[: max_chars - 1] + "…" for v in row] for row in rows]
    return rows


def table_text(df: pl.DataFrame, max_rows: int | None = None, max_chars: int | None = None) -> str:
    """An aligned plain-text table with a header line; numbers right-aligned."""
    shown = df if max_rows is None else df.head(max_rows)
    cells = table_cells(shown, max_chars)
    header = list(df.columns)
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(header)]
    numeric = [dtype.is_numeric() for dtype in df.dtypes]

    def line(values: Iterable[str]) -> str:
        """One row of cells, padded to the column widths."""
        parts = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    out = [line(header), line("-" * w for w in widths)] + [line(r) for r in cells]
    if max_rows is not None and df.height > max_rows:
        out.append(f"... {df.height - max_rows:,} more rows (use --json or --csv for all)")
    return "\n".join(out)


COLUMN_GAP = 3  # characters between two columns of rich's table (padding and rule)
MIN_TEXT_WIDTH = 12  # a text column a narrow terminal squeezes keeps at least this many characters a line


def rich_table(df: pl.DataFrame, title: str | None = None, max_chars: int | None = None):
    """The same cells as table_text as a rich Table, for a terminal: a bold header, numbers right-aligned."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    cells = table_cells(df, max_chars)
    table = Table(
        box=box.SIMPLE_HEAD, header_style="bold", title=title, title_justify="left", pad_edge=False, show_edge=False
    )
    for i, (name, dtype) in enumerate(df.schema.items()):
        widest = max([len(name)] + [len(row[i]) for row in cells])
        if dtype.is_numeric():  # a number is never folded: its column keeps its full width
            table.add_column(name, justify="right", no_wrap=True, min_width=widest)
        else:  # text folds onto more lines when the terminal is narrow, its header never
            table.add_column(name, overflow="fold", min_width=min(widest, max(len(name), MIN_TEXT_WIDTH)))
    for row in cells:
        table.add_row(*(Text(v) for v in row))  # Text: cell values are never read as rich markup
    return table


def is_terminal(stream: Any) -> bool:
    """Whether `stream` is an interactive terminal (tables are drawn by rich there, plain text elsewhere)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def print_table(df: pl.DataFrame, stream: Any = None, title: str | None = None, max_chars: int | None = None) -> None:
    """Print a table for people: rich's table on a terminal, the plain aligned text otherwise (scripts, pipes,
    the docs' examples), both from the same cells."""
    stream = stream or sys.stdout
    if is_terminal(stream):
        from rich.console import Console

        console = Console(file=stream, highlight=False)
        table = rich_table(df, title, max_chars)
        narrowest = sum(c.min_width or 0 for c in table.columns) + COLUMN_GAP * (len(table.columns) - 1)
        if narrowest <= console.width:
            console.print(table)
            return  # else too wide for the terminal: the plain text, which the terminal wraps, hides no column
    if title is not None:
        stream.write(title + "\n")
    stream.write(table_text(df, max_chars=max_chars) + "\n")


def record(row: dict[str, Any]) -> pl.DataFrame:
    """One row as a two-column table (column, value), each value as text: a wide row read top to bottom."""
    return pl.DataFrame(
        {"column": list(row), "value": [_cell(v) for v in row.values()]},
        schema={"column": pl.String, "value": pl.String},
    )


def finite(df: pl.DataFrame) -> pl.DataFrame:
    """NaN and ±infinity in float columns as null: JSON has no such numbers (json.dumps would write NaN)."""
    floats = [name for name, dtype in df.schema.items() if dtype.is_float()]
    return df.with_columns(pl.when(pl.col(name).is_finite()).then(pl.col(name)).alias(name) for name in floats)


def _finite_value(value: Any) -> Any:
    """A JSON-able value with NaN and ±infinity (also inside lists and dicts) as None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (list, tuple)):
        return [_finite_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _finite_value(v) for k, v in value.items()}
    return value


SHORT_ARRAY = 100  # a JSON array without objects whose text is at most this long stays on one line


def to_json(obj: Any) -> str:
    """JSON indented two spaces, arrays without objects on one line when short; NaN and infinities as null."""
    return _json(_finite_value(obj), "")


def _json(value: Any, indent: str) -> str:
    """One JSON value at the given indentation."""
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        if not any(isinstance(v, dict) for v in value):  # plain values, or short arrays of them ([[0, 1], [1, 1]])
            flat = json.dumps(value, ensure_ascii=False, default=str, separators=(", ", ": "))
            if len(flat) <= SHORT_ARRAY:
                return flat
        return "[\n" + ",\n".join(inner + _json(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False, default=str)


def render(df: pl.DataFrame, fmt: str) -> str:
    """The text of `df` in format `fmt`."""
    if fmt == "json":
        return to_json(finite(df).to_dicts())
    if fmt == "csv":
        return flatten(df).write_csv()
    return table_text(df)


def emit(df: pl.DataFrame, fmt: str = "table", out=None, limit: int | None = None) -> None:
    """Print `df` in format `fmt` to stdout (or `out`): at most `limit` rows, a note on stderr when cut or empty."""
    if df.height == 0:
        note("no results")
        if fmt == "table":
            return
    shown = df if limit is None or df.height <= limit else df.head(limit)
    stream = out or sys.stdout
    if fmt == "table":
        print_table(shown, stream)
    else:
        text = render(shown, fmt)
        stream.write(text if text.endswith("\n") else text + "\n")
    if shown.height < df.height:
        note(f"showing {shown.height:,} of {df.height:,} rows (--limit 0 for all)")


def emit_json(obj: Any, out=None) -> None:
    """Print any JSON-able object."""
    (out or sys.stdout).write(to_json(obj) + "\n")


def save(df: pl.DataFrame, path: Path, provenance: dict[str, Any] | None = None) -> None:
    """Write `df` to a file whose extension picks the format (.parquet, .csv, .json, .md), atomically.

    Parquet keeps `provenance` in its footer; the text formats get it in PATH.provenance.json beside them."""
    from pipeline.core.files import write_json, write_parquet, write_text

    provenance = provenance or {"stage": "query"}
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        write_parquet(path, df, provenance)
    elif suffix == ".csv":
        write_text(path, flatten(df).write_csv())
    elif suffix == ".json":
        write_text(path, render(df, "json") + "\n")
    elif suffix == ".md":
        write_text(path, markdown(df))
    else:
        raise WordstatsError(f"{path}: unknown output format {suffix!r} (use .parquet, .csv, .json or .md)")
    if suffix != ".parquet" and provenance.get("stage") == "sql":
        write_json(provenance_path(path), provenance)


def provenance_path(path: Path) -> Path:
    """The file beside an exported text table that holds its provenance (PATH.provenance.json)."""
    return path.with_name(path.name + ".provenance.json")


def markdown(df: pl.DataFrame) -> str:
    """A Markdown table."""
    head = "| " + " | ".join(df.columns) + " |"
    rule = "|" + "|".join("---:" if d.is_numeric() else "---" for d in df.dtypes) + "|"
    body = ["| " + " | ".join(_cell(v).replace("|", "\\|") for v in row) + " |" for row in df.rows()]
    return "\n".join([head, rule, *body]) + "\n"


def plural(n: int, noun: str, plural_noun: str | None = None) -> str:
    """'1 word', '2 words', '1,000 boxes' (with `plural_noun` for irregular plurals)."""
    if n == 1:
        return f"1 {noun}"
    many = plural_noun or (noun + "es" if noun.endswith(("s", "x", "ch", "sh")) else noun + "s")
    return f"{n:,} {many}"
