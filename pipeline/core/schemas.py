"""The declared schema of every built table (each package declares its tables in its manifest): each column's
type, a one-line description, and the sort order.

Stage outputs are conformed on write (every integer signed: Int32, or Int64 for seeds and counts of
combinations; a column of nulls takes its declared type), must then match their schema, and carry the
descriptions and the sort order in the Parquet footer. Every table is checked against its schema when it is
read (queries and stages alike): a missing column or one of another type is a damaged table, told in one
line with the command that rebuilds it. Columns a table does not declare are allowed (and not checked)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.core import registry

if TYPE_CHECKING:
    from pipeline.core.manifest import Stage

Column = tuple[pl.DataType, str]  # the declared type and a one-line description
SCALARS: dict[str, pl.DataType] = {
    "str": pl.String(),
    "bool": pl.Boolean(),
    "i8": pl.Int8(),
    "i16": pl.Int16(),
    "i32": pl.Int32(),
    "i64": pl.Int64(),
    "u8": pl.UInt8(),
    "u16": pl.UInt16(),
    "u32": pl.UInt32(),
    "u64": pl.UInt64(),
    "f32": pl.Float32(),
    "f64": pl.Float64(),
}


def column_type(text: str) -> pl.DataType:
    """The polars type of a type as the manifests and docs/tables.md write it: str, i32, list[str],
    struct{letter: str, words: list[str]}."""
    text = text.strip()
    if text.startswith("list[") and text.endswith("]"):
        return pl.List(column_type(text[5:-1]))
    if text.startswith("struct{") and text.endswith("}"):
        fields = (part.split(":", 1) for part in top_level_parts(text[7:-1]))
        return pl.Struct({name.strip(): column_type(inner) for name, inner in fields})
    if text not in SCALARS:
        raise ValueError(f"unknown column type {text!r}")
    return SCALARS[text]


def top_level_parts(text: str) -> list[str]:
    """A comma-separated list split at the commas outside brackets and braces."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "[{"
        depth -= ch in "]}"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


# Every table's declared columns: {table: {column: (type, description)}}, from the packages' manifests.
TABLES: dict[str, dict[str, Column]] = {
    name: {c: (column_type(t), about) for c, (t, about) in table.columns.items()}
    for name, table in registry.tables().items()
}

# Columns named per variant of the config ([scrabble.openings] variants): V_score, V_position, V_blanks, V_bingo.
# A table holds them for its config's variants, so only their types are declared (by the end of the name).
VARIANT_COLUMNS: dict[str, dict[str, pl.DataType]] = {
    name: {ending: column_type(t) for ending, t in table.variant_columns.items()}
    for name, table in registry.tables().items()
    if table.variant_columns
}

# Tables read a row at a time: each row is a row group, so that a reader filtering on a column skips the others
# by their statistics (boggle solve reads one variant's dictionary).
ROW_GROUP_ROWS: dict[str, int] = {
    name: table.row_group_rows for name, table in registry.tables().items() if table.row_group_rows
}

SORTED_BY: dict[str, list[str]] = {
    name: list(table.sorted_by) for name, table in registry.tables().items() if table.sorted_by
}

WIDE = {"seed", "combinations", "letter_mask"}  # integers that keep 64 bits


def declared(table: str, schema: dict[str, Any]) -> dict[str, pl.DataType]:
    """The columns `table` must have, with their types: its fixed columns, and every per-variant column of each
    variant that one of `schema`'s columns names (a table holds the variants of the config it was built with)."""
    fixed = {c: t for c, (t, _) in TABLES.get(table, {}).items() if not _per_variant(table, c)}
    families = VARIANT_COLUMNS.get(table, {})
    variants = {c[: -len(e)] for c in schema for e in families if c.endswith(e) and c not in fixed and len(c) > len(e)}
    for variant in sorted(variants):
        fixed.update({f"{variant}{ending}": dtype for ending, dtype in families.items()})
    return fixed


def _per_variant(table: str, column: str) -> bool:
    """Whether a declared column is one of the per-variant columns (present only for the config's variants)."""
    return any(column.endswith(ending) for ending in VARIANT_COLUMNS.get(table, {}))


def mismatch(table: str, schema: dict[str, Any]) -> tuple[str, str, str | None] | None:
    """The first declared column of `table` that `schema` lacks or holds with another type: (column, the
    declared type, the type found, None when missing); None when the schema is the declared one."""
    for column, dtype in declared(table, schema).items():
        if column not in schema:
            return column, type_name(dtype), None
        if schema[column] != dtype:
            return column, type_name(dtype), type_name(schema[column])
    return None


def type_name(dtype: Any) -> str:
    """A polars type as docs/tables.md writes it: str, i32, f64, list[str], struct{letter: str, ...}."""
    if isinstance(dtype, pl.List):
        return f"list[{type_name(dtype.inner)}]"
    if isinstance(dtype, pl.Struct):
        return "struct{" + ", ".join(f"{f.name}: {type_name(f.dtype)}" for f in dtype.fields) + "}"
    for name, scalar in SCALARS.items():
        if dtype == scalar:
            return name
    return str(dtype)


def conform(table: str, df: pl.DataFrame) -> pl.DataFrame:
    """A stage output with every integer column signed (Int64 for WIDE columns, Int32 for the rest) and each
    declared column that holds only nulls (or lists of them) cast to its declared type."""
    wanted = declared(table, df.schema)
    casts = []
    for name, dtype in df.schema.items():
        if name in wanted and wanted[name] != dtype and (_has_null(dtype) or dtype.is_integer()):
            casts.append(pl.col(name).cast(wanted[name]))
        elif dtype.is_integer():
            target = pl.Int64 if name in WIDE or dtype in (pl.Int64, pl.UInt64) else pl.Int32
            if dtype != target:
                casts.append(pl.col(name).cast(target))
    return df.with_columns(casts) if casts else df


def _has_null(dtype: Any) -> bool:
    """Whether a type is polars' Null type, or a list or struct of it (what a column of only nulls becomes)."""
    if dtype == pl.Null:
        return True
    if isinstance(dtype, pl.List):
        return _has_null(dtype.inner)
    if isinstance(dtype, pl.Struct):
        return any(_has_null(f.dtype) for f in dtype.fields)
    return False


def footer(table: str, df: pl.DataFrame) -> dict[str, Any]:
    """Footer entries for a table: each known column's description, and the sort order when the rows keep it."""
    known = TABLES.get(table, {})
    out: dict[str, Any] = {"columns": {c: known[c][1] for c in df.columns if c in known}}
    keys = [k for k in SORTED_BY.get(table, []) if k in df.columns]
    if keys and df.height and df[keys[0]].is_sorted():
        out["sorted_by"] = keys
    return out


class Declared:
    """The declared tables as a store needs them (pipeline.core.catalog.Tables)."""

    mismatch = staticmethod(mismatch)
    conform = staticmethod(conform)
    footer = staticmethod(footer)

    @staticmethod
    def row_group_rows(table: str) -> int | None:
        """Rows per row group of a table read a row at a time (None: the default)."""
        return ROW_GROUP_ROWS.get(table)

    @staticmethod
    def producer(file: str) -> Stage | None:
        """The stage that writes `file`."""
        return registry.producer(file)


DECLARED = Declared()
