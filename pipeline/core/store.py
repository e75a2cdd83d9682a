"""A lexicon's tables, read: where each lives, each checked against its declared schema when read, the manifest
and the hashes it records. A Store also commits (pipeline.core.commits) and holds read locks
(pipeline.core.locks); what it knows of the declared tables (their schemas, the stage that writes each) it is
handed when made. The files themselves are written by pipeline.core.files."""

from __future__ import annotations

import contextlib
import json
import shlex
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.catalog import Tables, declared_tables
from pipeline.core.commits import Commits
from pipeline.core.errors import WordstatsError, first_line
from pipeline.core.files import sha256_file
from pipeline.core.layout import MANIFEST, SOURCE_RECORD
from pipeline.core.locks import READERS, ReadLocks

MAX_ROWS = 2**32 - 1  # the most rows polars takes in head(n); a larger n overflows, so "the first n" caps n here


class Store(Commits, ReadLocks):
    """The folder of one lexicon's tables: data_dir/<lexicon>/<table>.<ext>; the declared tables (`tables`) are
    the packages' unless given."""

    def __init__(self, data_dir: Path, lexicon: str, tables: Tables | None = None):
        from pipeline.core.config import check_lexicon_name

        self.data_dir, self.lexicon = Path(data_dir), check_lexicon_name(lexicon)
        self.tables = tables if tables is not None else declared_tables()
        self.root = self.data_dir / lexicon
        self.pending: dict[str, Path] = {}  # a commit no one could finish: its files not yet renamed, by name
        self._noting: list[set[str]] = []  # the tables asked for within each noting_reads block

    def path(self, name: str) -> Path:
        """The file of table `name` ('words' → words.parquet; names with an extension are kept): the file a
        commit that could not be finished is putting in its place, if any (see read_lock)."""
        file = name if "." in name else f"{name}.parquet"
        return self.pending.get(file, self.root / file)

    @contextlib.contextmanager
    def noting_reads(self) -> Iterator[set[str]]:
        """The tables asked for within the block (what a result is computed from), filled in as they are read."""
        asked: set[str] = set()
        self._noting.append(asked)
        try:
            yield asked
        finally:
            self._noting.remove(asked)

    def exists(self, name: str) -> bool:
        """Whether table `name` has been built."""
        return self.path(name).is_file()

    def require(self, name: str, columns: Iterable[str] = ()) -> Path:
        """The path of table `name`, or an error that says how to build it; a Parquet table must be readable,
        match its declared schema (pipeline/core/schemas.py) and have `columns`."""
        path = self.path(name)
        for asked in self._noting:
            asked.add(name)
        if not path.is_file():
            if not self.root.is_dir():
                raise WordstatsError(
                    f"no tables for lexicon {self.lexicon!r} in {self.data_dir} "
                    f"(run `make all` or `wordstats run --lexicon {self.lexicon}`)"
                )
            raise WordstatsError(f"{path} not found: build it with `{self.rebuild_command(name)}` or `make all`")
        if path.suffix == ".parquet":
            self.check_schema(name, columns)
        return path

    def check_schema(self, name: str, columns: Iterable[str] = ()) -> None:
        """An error naming the file and the command that rebuilds it, unless Parquet table `name` has every
        column its schema declares, each of the declared type, and `columns`."""
        path, schema = self.path(name), self.schema(name)
        bad = self.tables.mismatch(Path(name).stem, schema)
        missing = [c for c in columns if c not in schema]
        if bad is not None and bad[2] is not None:
            raise WordstatsError(
                f"{path}: damaged table: column {bad[0]!r} is {bad[2]}, not {bad[1]}: "
                f"rebuild it with `{self.rebuild_command(name)}`"
            )
        if bad is not None or missing:
            column = bad[0] if bad is not None else missing[0]
            raise WordstatsError(
                f"{path} has no column {column!r} (damaged, or built by an older version): "
                f"rebuild it with `{self.rebuild_command(name)}`"
            )

    def rebuild_command(self, name: str) -> str:
        """The command that builds table `name` again: its stage, for this lexicon (with the word list files an
        ad hoc lexicon was built from, when the stage reads word lists)."""
        stage = self.tables.producer(name if "." in name else f"{name}.parquet")
        if stage is None:
            return f"wordstats run --lexicon {self.lexicon}"
        sources = adhoc_sources(self) if stage.reads_sources else None
        given = "".join(f" --source {shlex.quote(source)}" for source in sources or [])
        return f"wordstats run {stage.name}{given} --lexicon {self.lexicon}"

    def schema(self, name: str) -> dict[str, pl.DataType]:
        """The columns of Parquet table `name` and their types, or an error naming a damaged file."""
        path = self.path(name)
        try:
            return dict(pl.read_parquet_schema(path))
        except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
            raise self._damaged(path, exc) from None

    def _damaged(self, path: Path, exc: Exception) -> WordstatsError:
        """The error for a Parquet file that cannot be read."""
        return WordstatsError(
            f"{path}: not a readable Parquet table ({first_line(exc)}): "
            f"rebuild it with `{self.rebuild_command(path.name)}`"
        )

    def read(self, name: str, columns: list[str] | None = None) -> pl.DataFrame:
        """Read table `name` (Parquet), or only `columns` of it."""
        path = self.require(name, columns or ())
        try:
            return pl.read_parquet(path, columns=columns)
        except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
            raise self._damaged(path, exc) from None

    def scan(self, name: str, columns: Iterable[str] = ()) -> pl.LazyFrame:
        """Scan table `name` lazily; `columns` are those the caller uses (checked to be there)."""
        return pl.scan_parquet(self.require(name, columns))

    def read_json(self, name: str) -> Any:
        """Read a JSON output such as ingest_report.json (a damaged one is an error naming it)."""
        path = self.require(name)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WordstatsError(
                f"{path}: damaged JSON ({first_line(exc)}): rebuild it with `{self.rebuild_command(name)}`"
            ) from None

    def parquet_tables(self) -> dict[str, Path]:
        """Every Parquet table of this lexicon, by file stem."""
        if not self.root.is_dir():
            return {}
        tables = {p.stem: p for p in sorted(self.root.glob("*.parquet")) if p.is_file()}
        tables.update({Path(name).stem: tmp for name, tmp in self.pending.items() if name.endswith(".parquet")})
        return dict(sorted(tables.items()))

    def manifest(self) -> dict[str, Any]:
        """The manifest: each table's rows, sha256, stage and build time."""
        path = self.root / MANIFEST
        if not path.is_file():
            return {"lexicon": self.lexicon, "tables": {}}
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise self._bad_manifest(path, str(exc)) from None
        if not isinstance(manifest, dict) or not isinstance(manifest.get("tables"), dict):
            raise self._bad_manifest(path, 'no "tables" object')
        if not all(isinstance(entry, dict) for entry in manifest["tables"].values()):
            raise self._bad_manifest(path, 'a "tables" entry that is not an object')
        return manifest

    def _bad_manifest(self, path: Path, why: str) -> WordstatsError:
        """The error for a manifest.json that cannot be read."""
        return WordstatsError(
            f"{path}: damaged manifest ({why}): delete it and rebuild with `wordstats run --lexicon {self.lexicon}`"
        )

    def recorded_hashes(self) -> dict[Path, str]:
        """The sha256 the manifest records for each of its files that still has the recorded size, by resolved
        path (the hashes every query's provenance names; empty when the manifest cannot be read)."""
        try:
            tables = self.manifest()["tables"]
        except WordstatsError:
            return {}
        found = {}
        for name, entry in tables.items():
            path = self.root / name
            with contextlib.suppress(OSError):
                if isinstance(entry.get("sha256"), str) and path.stat().st_size == entry.get("bytes"):
                    found[path.resolve()] = entry["sha256"]
        return found

    def damaged_table(self) -> Path | None:
        """The first table whose bytes differ from the sha256 its manifest entry recorded (same size: a file
        damaged in place), or None."""
        try:
            tables = self.manifest()["tables"]
        except WordstatsError:
            return None
        for name, entry in tables.items():
            path = self.root / name
            with contextlib.suppress(OSError):
                if path.stat().st_size == entry.get("bytes") and sha256_file(path) != entry.get("sha256"):
                    return path
        return None

    def manifest_is_stale(self, outputs: Iterable[str]) -> bool:
        """Whether the manifest misses a built output, lists a missing one, or disagrees on a file's size."""
        tables = self.manifest()["tables"]
        on_disk = {name for name in outputs if (self.root / name).is_file()}
        if not on_disk <= set(tables) or not all((self.root / name).is_file() for name in tables):
            return True
        return any((self.root / name).stat().st_size != entry.get("bytes") for name, entry in tables.items())


def adhoc_sources(store: Store) -> list[str] | None:
    """The word list files a lexicon was last built from with --source (None when built from the config)."""
    try:
        sources = json.loads((store.root / SOURCE_RECORD).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return [str(s) for s in sources] if isinstance(sources, list) else None


def damaged_among(stores: Iterable[Store], exc: BaseException) -> WordstatsError | None:
    """The one-line error naming the first table of `stores` whose bytes differ from its manifest's sha256
    (a page damaged in place, which is why reading failed with `exc`), or None."""
    for store in stores:
        path = store.damaged_table()
        if path is not None:
            return WordstatsError(
                f"{path}: damaged table ({first_line(exc)}; its bytes are not those {MANIFEST} recorded): "
                f"rebuild it with `{store.rebuild_command(path.name)}`"
            )
    return None


def unreadable(exc: BaseException, stores: Iterable[Store] | None = None) -> WordstatsError:
    """The one-line error for a read of the tables of `stores` (by default those this command read-locked) that
    failed inside polars (a page damaged in place): the table whose bytes differ from its manifest's sha256,
    else the lexicons read."""
    stores = [s for s in READERS if isinstance(s, Store)] if stores is None else list(stores)
    found = damaged_among(stores, exc)
    if found is not None:
        return found
    why = first_line(exc)
    lexicons = ", ".join(dict.fromkeys(s.lexicon for s in stores)) or "?"
    return WordstatsError(
        f"cannot read the tables of lexicon {lexicons} ({why}): rebuild them with `wordstats run --lexicon {lexicons}`"
    )
