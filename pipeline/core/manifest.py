"""What a package declares to the shared core, once, in its manifest (`pipeline/<package>/manifest.py`): its
config sections, its stages, the schema of every table they write, its command-line modules and the warm-up
that compiles its numba kernels. The core gathers the manifests of the packages `pipeline/games.py` lists
(`pipeline.core.registry`); nothing in the core names a game.

This module imports nothing heavy: the config loader reads the manifests at every start."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.core.settings import Setting

Column = tuple[str, str]  # a column's type as docs/tables.md writes it (str, i32, list[str]) and what it holds


@dataclass(frozen=True)
class Stage:
    """A pure function from input tables to output files, and what it needs."""

    name: str
    module: str  # the module holding `build(inputs, ctx)` and `params(config, spec)`
    inputs: tuple[str, ...]  # tables it reads (by name: "words" → words.parquet)
    outputs: tuple[str, ...]  # files it writes
    optional_inputs: tuple[str, ...] = ()  # tables read when they exist
    description: str = ""
    word_list: bool = False  # built for a plain word list by `run --source` (the game stages opt in)
    reads_sources: bool = False  # reads the lexicon's word list files rather than tables (ingest)
    manifest: str = ""  # the manifest that declares it (filled in by the registry)


@dataclass(frozen=True)
class Table:
    """A Parquet table's declared schema: each column's type and description, the columns named per variant of
    the config (by the end of their name: `_score` → V_score for each variant V), the sort order its rows keep,
    and rows per row group when a reader filters it a row at a time."""

    name: str
    columns: dict[str, Column]
    variant_columns: dict[str, str] = field(default_factory=dict)
    sorted_by: tuple[str, ...] = ()
    row_group_rows: int | None = None


@dataclass(frozen=True)
class Manifest:
    """A package's declarations: its name, the top-level config sections it reads, its stages (in dependency
    order), its tables, its command-line modules and its warm-up."""

    name: str
    sections: tuple[str, ...] = ()
    stages: tuple[Stage, ...] = ()
    tables: tuple[Table, ...] = ()
    # command modules, each with the names (the words after `wordstats`) of the commands and command groups it
    # registers: a command's module is imported only when its name is called
    commands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # commands (the words after `wordstats`) that `make install` runs on a small lexicon built with the
    # package's stages, so that every numba kernel they reach is compiled before first use (pipeline.core.warm);
    # ("-m", MODULE, *args) runs a reference tool's main(args), {lexicon}, {data} and {tmp} filled in
    warmup: tuple[tuple[str, ...], ...] = ()
    # the settings it reads from its sections (pipeline.core.settings): a table with a declared setting takes
    # no other field
    settings: tuple[Setting, ...] = ()
