"""What a store knows of the tables the packages declare: each table's schema check, how a stage's output is
conformed and described, and the stage that writes each file (pipeline.core.schemas.DECLARED, handed to a Store
when it is made)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import polars as pl

    from pipeline.core.manifest import Stage


class Tables(Protocol):
    """What a store knows of the tables the packages declare (pipeline.core.schemas.DECLARED): each table's
    schema check, how a stage's output is conformed and described, and the stage that writes each file."""

    def mismatch(self, table: str, schema: dict[str, Any]) -> tuple[str, str, str | None] | None:
        """The first column of `schema` that is not as table `table` declares it: (column, declared, found)."""

    def conform(self, table: str, df: pl.DataFrame) -> pl.DataFrame:
        """A stage's output with its columns of the declared types."""

    def footer(self, table: str, df: pl.DataFrame) -> dict[str, Any]:
        """The footer entries of a table: its columns' descriptions and its sort order."""

    def row_group_rows(self, table: str) -> int | None:
        """Rows per row group, for a table read a row at a time (None: the default)."""

    def producer(self, file: str) -> Stage | None:
        """The stage that writes `file`, if any."""


def declared_tables() -> Tables:
    """The tables the packages' manifests declare."""
    from pipeline.core.schemas import DECLARED

    return DECLARED
