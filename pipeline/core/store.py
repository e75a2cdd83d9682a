"""Where tables live, a stage's outputs committed all at once (a journal, then renames), and the per-lexicon
manifest. The files themselves are written by pipeline.core.files."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shlex
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError, first_line, note
from pipeline.core.files import (
    ROW_GROUP,
    TMP_SUFFIX,
    WRITE_ERRORS,
    parquet_bytes,
    read_provenance,
    sha256_file,
    temporary_path,
    write_error,
    write_json,
)
from pipeline.core.locks import hold_read_lock, lock_fd, locked

MANIFEST = "manifest.json"
JOURNAL = ".commit.json"  # a stage's outputs being renamed into place: finished by the next writer or reader
DAMAGED_JOURNAL = ".commit.json.damaged"  # a journal that cannot be read is set aside as .commit.json.damaged.N
MAX_JOURNAL_BYTES = 1 << 20  # a journal names a stage's few files: anything larger is damaged
WRITER_LOCK = ".lock"  # held by the one process building a lexicon
COMMIT_LOCK = ".commit.lock"  # held exclusively while a stage's outputs are renamed, shared by readers
FINGERPRINTS = ".make"  # each stage's settings fingerprint, per lexicon: <lexicon>/.make/<stage>.settings
SOURCE_RECORD = ".source.json"  # the word list files an ad hoc lexicon was built from
READERS: list[Store] = []  # the lexicons this command reads (read_lock), to find a damaged table when a read fails
MAX_ROWS = 2**32 - 1  # the most rows polars takes in head(n); a larger n overflows, so "the first n" caps n here


def fingerprint_path(data_dir: Path, lexicon: str, stage: str) -> Path:
    """The file holding the settings fingerprint of one stage of one lexicon (a Makefile prerequisite)."""
    return Path(data_dir) / lexicon / FINGERPRINTS / f"{stage}.settings"


class Store:
    """The folder of one lexicon's tables: data_dir/<lexicon>/<table>.<ext>."""

    def __init__(self, data_dir: Path, lexicon: str):
        from pipeline.core.config import check_lexicon_name

        self.data_dir, self.lexicon = Path(data_dir), check_lexicon_name(lexicon)
        self.root = self.data_dir / lexicon
        self.pending: dict[str, Path] = {}  # a commit no one could finish: its files not yet renamed, by name
        self.required: list[str] = []  # every table asked for, in order: what a result was computed from

    def path(self, name: str) -> Path:
        """The file of table `name` ('words' → words.parquet; names with an extension are kept): the file a
        commit that could not be finished is putting in its place, if any (see read_lock)."""
        file = name if "." in name else f"{name}.parquet"
        return self.pending.get(file, self.root / file)

    def exists(self, name: str) -> bool:
        """Whether table `name` has been built."""
        return self.path(name).is_file()

    def require(self, name: str, columns: Iterable[str] = ()) -> Path:
        """The path of table `name`, or an error that says how to build it; a Parquet table must be readable,
        match its declared schema (pipeline/core/schemas.py) and have `columns`."""
        path = self.path(name)
        self.required.append(name)
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
        from pipeline.core.schemas import mismatch

        path, schema = self.path(name), self.schema(name)
        bad = mismatch(Path(name).stem, schema)
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
        from pipeline.core.registry import producer

        stage = producer(name if "." in name else f"{name}.parquet")
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

    def record(self, entries: dict[str, dict[str, Any]]) -> None:
        """Add or replace manifest entries, under a lock so concurrent writers do not lose each other's."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".manifest.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            manifest = self.manifest()
            manifest["lexicon"] = self.lexicon
            manifest["tables"].update(entries)
            manifest["tables"] = dict(sorted(manifest["tables"].items()))
            write_json(self.root / MANIFEST, manifest)

    # -- one writer per lexicon, and a stage's outputs committed together

    @contextlib.contextmanager
    def writer(self, wait: bool = True):
        """Hold the lexicon's writer lock (waiting for another run of the same lexicon, or refusing when
        `wait` is false); finish an interrupted commit and remove leftover temporary files first."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WordstatsError(f"{self.root}: cannot create the lexicon folder ({exc.strerror or exc})") from None
        fd = lock_fd(self.root / WRITER_LOCK)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                busy = f"another wordstats run is building lexicon {self.lexicon!r}"
                raise WordstatsError(f"{self.root}: {busy}") from None
            self.recover()
            yield self
        finally:
            os.close(fd)

    def recover(self) -> None:
        """Finish a commit that was interrupted after its journal was written, or set a damaged journal aside
        (saying so); delete other temporary files.

        Call with the writer lock held."""
        journal = self.root / JOURNAL
        if os.path.lexists(journal):
            plan = self.journal_plan()
            if plan is None:
                self._set_aside(journal)
            else:
                self._apply(plan)
        for tmp in self.root.glob(f".*{TMP_SUFFIX}"):
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()

    def journal_plan(self) -> dict[str, Any] | None:
        """The renames and manifest entries of the commit journal, or None when it is damaged: not a regular
        file, too large, not JSON, or not renames of this folder's temporary files to plain file names."""
        from pipeline.core.sections import read_regular_file

        try:
            plan = json.loads(read_regular_file(self.root / JOURNAL, "commit journal", MAX_JOURNAL_BYTES))
        except (WordstatsError, UnicodeDecodeError, ValueError):
            return None
        return plan if _is_plan(plan) else None

    def _set_aside(self, journal: Path) -> None:
        """Move a damaged journal out of the way and drop the lexicon's make fingerprints (so that `make all`
        builds every stage again: the commit it described cannot be finished), saying so on stderr."""
        aside = f"{DAMAGED_JOURNAL}.{time.time_ns()}"  # every one kept, for whoever looks into it
        os.replace(journal, self.root / aside)
        for fingerprint in (self.root / FINGERPRINTS).glob("*.settings"):
            with contextlib.suppress(FileNotFoundError):
                fingerprint.unlink()
        note(
            f"{journal}: damaged commit journal set aside as {aside}; the commit it described cannot be "
            f"finished, so the tables of lexicon {self.lexicon!r} may come from two builds: rebuild them with "
            f"`wordstats run --lexicon {self.lexicon}` or `make all`"
        )

    def _apply(self, plan: dict[str, Any]) -> None:
        """Rename a commit's temporary files into place, record them in the manifest, drop the journal."""
        with locked(self.root / COMMIT_LOCK, fcntl.LOCK_EX):
            for tmp, final in plan["renames"]:
                if (self.root / tmp).exists():
                    os.replace(self.root / tmp, self.root / final)
            self.record(plan["entries"])
            (self.root / JOURNAL).unlink()
        _sync_dir(self.root)

    def commit(self, outputs: dict[str, Any], provenance: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Write a stage's outputs (DataFrame → Parquet, dict/list → JSON, str/bytes → text) all together:
        every temporary file first, then one journal, then the renames and the manifest. A failure before the
        journal leaves the previous files as they were; one after it is finished by the next run."""
        written: dict[str, Path] = {}
        entries: dict[str, dict[str, Any]] = {}
        try:
            for name, obj in outputs.items():
                target = self.path(name)
                tmp = written[name] = temporary_path(target)
                try:
                    rows = _write_output(tmp, name, obj, provenance)
                    os.chmod(tmp, 0o644)
                    _sync_file(tmp)
                except WRITE_ERRORS as exc:
                    raise write_error(target, exc) from None
                if target.name.startswith("."):  # a hidden file (such as .source.json) goes in, unlisted
                    continue
                entries[target.name] = {
                    "rows": rows,
                    "bytes": tmp.stat().st_size,
                    "sha256": sha256_file(tmp),
                    "stage": provenance.get("stage"),
                    "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                }
            plan = {"renames": [[tmp.name, self.path(name).name] for name, tmp in written.items()], "entries": entries}
            try:
                write_json(self.root / JOURNAL, plan)
            except WordstatsError as exc:
                raise WordstatsError(f"{exc} while committing {', '.join(entries)}") from None
        except BaseException:
            for tmp in written.values():
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
            raise
        try:
            self._apply(plan)
        except WRITE_ERRORS as exc:  # the journal is there: the next run (or `info`) finishes the commit
            raise write_error(self.root / MANIFEST, exc) from None
        return entries

    def write(self, outputs: dict[str, Any], provenance: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Commit a set of outputs under the lexicon's writer lock (see `commit`)."""
        with self.writer():
            return self.commit(outputs, provenance)

    # -- readers

    def read_lock(self) -> None:
        """Take the lexicon's shared read lock until the command ends (release_read_locks), so that no stage's
        outputs are renamed while this command reads them; finish an interrupted commit first when possible."""
        fd = self._shared_lock()
        if fd is not None:
            hold_read_lock(fd)
        READERS.append(self)

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the lexicon's shared read lock for the block only (a long-lived process: a web page, a notebook),
        so that a build's commit waits for the reads in flight and for nothing else."""
        fd = self._shared_lock()
        try:
            yield
        finally:
            if fd is not None:
                os.close(fd)

    def _shared_lock(self) -> int | None:
        """A descriptor holding the shared read lock (None when there is no folder or no lock can be opened);
        an interrupted commit is finished first when possible, and read as finished when it cannot be."""
        if not self.root.is_dir():
            return None
        journal = self.root / JOURNAL
        why = ""
        if os.path.lexists(journal):
            try:
                with self.writer(wait=False):
                    pass
            except (WordstatsError, OSError) as exc:
                why = first_line(exc)
        fd = None
        try:
            fd = lock_fd(self.root / COMMIT_LOCK)
        except WordstatsError as exc:
            why = why or first_line(exc)  # a folder we cannot even open a lock in is one nobody is writing to
        else:
            fcntl.flock(fd, fcntl.LOCK_SH)
        self.pending = {}
        if os.path.lexists(journal):
            try:
                self.read_through(journal, why)
            except BaseException:
                if fd is not None:
                    os.close(fd)
                raise
        return fd

    def read_through(self, journal: Path, why: str) -> None:
        """Read the tables as the unfinished commit of `journal` leaves them once finished (its files not yet
        renamed are read where they are), or refuse when the journal is damaged and a commit was cut short."""
        plan = self.journal_plan()
        if plan is not None:
            self.pending = {final: self.root / tmp for tmp, final in plan["renames"] if (self.root / tmp).is_file()}
            return
        if any(self.root.glob(f".*{TMP_SUFFIX}")):
            raise WordstatsError(
                f"{journal}: damaged commit journal of a commit cut short, which cannot be set aside ({why}): "
                f"the tables of lexicon {self.lexicon!r} may be half replaced; make the folder writable, or "
                f"rebuild them with `wordstats run --lexicon {self.lexicon}`"
            )
        note(f"{journal}: damaged commit journal, left in place ({why}); no commit is unfinished")

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

    # -- the manifest, checked against the files and rebuilt from the tables' footers

    def manifest_is_stale(self, outputs: Iterable[str]) -> bool:
        """Whether the manifest misses a built output, lists a missing one, or disagrees on a file's size."""
        tables = self.manifest()["tables"]
        on_disk = {name for name in outputs if (self.root / name).is_file()}
        if not on_disk <= set(tables) or not all((self.root / name).is_file() for name in tables):
            return True
        return any((self.root / name).stat().st_size != entry.get("bytes") for name, entry in tables.items())

    def rebuild_manifest(self, producers: dict[str, str]) -> dict[str, Any]:
        """The manifest made again from the files: rows and stage from each Parquet footer, sizes, hashes, and
        file times; `producers` names the stage of each output file (for JSON and HTML outputs)."""
        try:
            old = self.manifest()["tables"]
        except WordstatsError:
            old = {}
        known = {**{name: entry.get("stage") for name, entry in old.items()}, **producers}
        tables = {}
        for name, stage in sorted(known.items()):
            path = self.root / name
            if not path.is_file():
                continue
            size, digest = path.stat().st_size, None
            if name in old and old[name].get("bytes") == size:
                digest = old[name].get("sha256")
            entry = {
                "rows": None,
                "bytes": size,
                "sha256": digest or sha256_file(path),
                "stage": stage,
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(path.stat().st_mtime)),
            }
            if path.suffix == ".parquet":
                import pyarrow.parquet as pq

                try:
                    entry["rows"] = pq.read_metadata(path).num_rows
                    entry["stage"] = read_provenance(path).get("stage", stage)
                except Exception:  # a damaged table keeps its place (rows unknown) until its stage rebuilds it
                    pass
            elif path.suffix == ".json":
                with contextlib.suppress(ValueError, UnicodeDecodeError):
                    obj = json.loads(path.read_text(encoding="utf-8"))
                    entry["rows"] = len(obj) if isinstance(obj, list) else None
            if name in old and old[name].get("sha256") == entry["sha256"]:
                entry["built_at"] = old[name].get("built_at", entry["built_at"])
            tables[name] = entry
        return {"lexicon": self.lexicon, "tables": tables}


def adhoc_sources(store: Store) -> list[str] | None:
    """The word list files a lexicon was last built from with --source (None when built from the config)."""
    try:
        sources = json.loads((store.root / SOURCE_RECORD).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return [str(s) for s in sources] if isinstance(sources, list) else None


def _write_output(path: Path, name: str, obj: Any, provenance: dict[str, Any]) -> int | None:
    """Write one stage output to `path` (not atomically); its rows (None when it has no rows)."""
    if isinstance(obj, pl.DataFrame):
        from pipeline.core.schemas import ROW_GROUP_ROWS, conform, footer, mismatch

        table = Path(name).stem
        obj = conform(table, obj)
        bad = mismatch(table, obj.schema)
        if bad is not None:
            raise RuntimeError(
                f"stage output {name}: column {bad[0]!r} is {bad[2] or 'missing'}, its schema declares {bad[1]} "
                f"(pipeline/core/schemas.py)"
            )
        parquet_bytes(path, obj, {**provenance, **footer(table, obj)}, ROW_GROUP_ROWS.get(table, ROW_GROUP))
        return obj.height
    if isinstance(obj, (dict, list)):
        text = json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        path.write_bytes(text.encode("utf-8"))
        return len(obj) if isinstance(obj, list) else None
    if isinstance(obj, (str, bytes)):
        path.write_bytes(obj.encode("utf-8") if isinstance(obj, str) else obj)
        return None
    raise TypeError(f"stage output {name} has unsupported type {type(obj).__name__}")


def _sync_file(path: Path) -> None:
    """Flush a file's bytes to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_dir(path: Path) -> None:
    """Flush a folder's entries (renames) to the disk, where the file system allows it."""
    with contextlib.suppress(OSError):
        _sync_file(path)


def _is_plan(plan: Any) -> bool:
    """Whether a journal's content is a commit plan: renames of this folder's temporary files (.NAME.X.tmp) to
    plain file names NAME, and a manifest entry (an object) per listed file."""
    if not isinstance(plan, dict) or not isinstance(plan.get("renames"), list):
        return False
    if not isinstance(plan.get("entries"), dict) or not all(isinstance(e, dict) for e in plan["entries"].values()):
        return False
    for pair in plan["renames"]:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            return False
        tmp, final = pair
        if Path(final).name != final or final in ("", ".", "..") or not tmp.startswith(f".{final}."):
            return False
        if Path(tmp).name != tmp or not tmp.endswith(TMP_SUFFIX):
            return False
    return True


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
    stores = list(READERS if stores is None else stores)
    found = damaged_among(stores, exc)
    if found is not None:
        return found
    why = first_line(exc)
    lexicons = ", ".join(dict.fromkeys(s.lexicon for s in stores)) or "?"
    return WordstatsError(
        f"cannot read the tables of lexicon {lexicons} ({why}): rebuild them with `wordstats run --lexicon {lexicons}`"
    )
