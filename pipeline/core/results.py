"""What a use case returns: a frozen result carrying its provenance (the command, the request, the lexicon, the
config's sha256 and the sha256 of each table it read, from the lexicon's manifest), one shape for every game,
the same for the command line, the web page and a Python program."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import polars as pl


@dataclass(frozen=True)
class Provenance:
    """Where a result comes from, the same for every use case: the command, what was asked, the lexicon, the
    config's sha256, and each table read with its sha256 (as the lexicon's manifest records it; None for one
    it does not list); the version is read when asked for (a look-up a one-off command should not pay unasked)."""

    command: str
    request: dict[str, Any]
    lexicon: str = ""
    config_sha256: str = ""
    inputs: dict[str, str | None] = field(default_factory=dict)
    jobs: tuple[str, ...] = ()  # the sharded jobs that computed it (their folders under <lexicon>/jobs)

    @property
    def version(self) -> str:
        """The installed wordstats version."""
        from pipeline import __version__

        return __version__

    def as_dict(self) -> dict[str, Any]:
        """The provenance as JSON holds it."""
        return {**dataclasses.asdict(self), "version": self.version}


class Place(Protocol):
    """Where a result is computed: a lexicon's store and the config (a Session)."""

    @property
    def store(self) -> Any:
        """The lexicon's store."""

    @property
    def config(self) -> Any:
        """The config."""


def provenance(
    s: Place, command: str, request: Any, tables: tuple[str, ...] | list[str] = (), jobs: tuple[str, ...] = ()
) -> Provenance:
    """The provenance of `command` answering `request` (a request dataclass, or the parameters that matter as a
    dict) in a session from these tables of its lexicon (their sha256 as the lexicon's manifest records them),
    computed by these jobs."""
    store = s.store
    try:
        recorded = store.manifest().get("tables", {}) if tables else {}
    except Exception:  # a missing or damaged manifest: the tables were checked when read
        recorded = {}
    inputs = {}
    for table in tables:
        name = table if "." in table else f"{table}.parquet"
        entry = recorded.get(name)
        inputs[name] = entry.get("sha256") if isinstance(entry, dict) else None
    if isinstance(request, dict):
        asked = request
    elif dataclasses.is_dataclass(request) and not isinstance(request, type):
        asked = dataclasses.asdict(request)
    else:
        asked = {}
    plain = {k: _plain(v) for k, v in asked.items()}
    return Provenance(command, plain, store.lexicon, s.config.sha256, inputs, jobs)


def footer(
    stage: str,
    lexicon: str,
    config_sha256: str,
    inputs: Mapping[str, str | None],
    params: dict[str, Any],
    jobs: list[str] | None = None,
) -> dict[str, Any]:
    """The provenance a written table's Parquet footer holds, one shape for the runner's stages and the commands
    that write tables: the stage (or command) that wrote it, the lexicon, the config's sha256, each input's
    sha256, the parameters that matter, the jobs that computed it (when it was) and the version."""
    from pipeline import __version__

    made = {"stage": stage, "lexicon": lexicon, "config_sha256": config_sha256, "inputs": inputs, "params": params}
    return {**made, **({"jobs": jobs} if jobs is not None else {}), "version": __version__}


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
