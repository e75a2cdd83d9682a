"""The report's model: sections made of parts (tables and figures) from queries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl


@dataclass
class Part:
    """One query of a section, its result, and how the page shows it."""

    key: str
    caption: str
    sql: str
    result: pl.DataFrame
    show: str = "table"  # "figures" (key numbers), "table", or "plot" (a picture, data folded away)
    plot: Callable[[pl.DataFrame], object] | None = None
    image: bytes | None = None


@dataclass
class Section:
    """A part of the page about one table."""

    key: str
    title: str
    table: str
    about: str
    parts: list[Part] = field(default_factory=list)


class Skip(Exception):
    """A section that cannot be drawn from the tables at hand (the reason says why)."""


class Tables:
    """The input tables, queried with polars SQL under their file stems."""

    def __init__(self, frames: dict[str, pl.DataFrame]):
        self.frames = frames
        self.ctx = pl.SQLContext({name: df.lazy() for name, df in frames.items()})

    def need(self, name: str, *columns: str) -> None:
        """Skip the section unless table `name` exists with these columns."""
        if name not in self.frames:
            raise Skip(f"{name}.parquet is not built")
        missing = [c for c in columns if c not in self.frames[name].columns]
        if missing:
            raise Skip(f"{name}.parquet has no column {', '.join(missing)}")

    def part(self, key: str, caption: str, sql: str, show: str = "table", plot=None) -> Part:
        """Run one query and wrap its result."""
        sql = " ".join(sql.split())
        return Part(key, caption, sql, self.ctx.execute(sql, eager=True), show, plot)
