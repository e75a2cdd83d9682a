"""What a use case returns: a frozen result carrying its provenance (the query, the request, the lexicon and the
sha256 of each table it read, from the lexicon's manifest), the same for the command line and the web page."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl

    from pipeline.core.store import Store


@dataclass(frozen=True)
class Provenance:
    """Where a result comes from: the query, what was asked, the lexicon, and each table read with its sha256."""

    query: str
    request: dict[str, Any]
    lexicon: str
    inputs: dict[str, str | None]


def provenance(store: Store, query: str, request: Any, tables: tuple[str, ...]) -> Provenance:
    """The provenance of a query on `store` that read `tables`: their sha256 as the lexicon's manifest records
    them (None for a table the manifest does not list)."""
    try:
        recorded = store.manifest().get("tables", {})
    except Exception:  # a missing or damaged manifest: the tables were checked when read
        recorded = {}
    inputs = {}
    for table in tables:
        name = table if "." in table else f"{table}.parquet"
        entry = recorded.get(name)
        inputs[name] = entry.get("sha256") if isinstance(entry, dict) else None
    asked = dataclasses.asdict(request) if dataclasses.is_dataclass(request) and not isinstance(request, type) else {}
    return Provenance(query, {k: _plain(v) for k, v in asked.items()}, store.lexicon, inputs)


def _plain(value: Any) -> Any:
    """A request value as JSON-ready data."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Listing:
    """A query's rows and their provenance."""

    table: pl.DataFrame
    provenance: Provenance

    @property
    def lexicon(self) -> str:
        """The lexicon the rows come from."""
        return self.provenance.lexicon
