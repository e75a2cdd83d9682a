"""A stage's outputs committed all at once: every temporary file, then one journal, then the renames and the
manifest entries; one writer per lexicon; an interrupted commit finished (or its damaged journal set aside) by
the next writer; and the manifest rebuilt from the files. The part of a Store that writes (pipeline.core.store)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.core.errors import WordstatsError, note
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
from pipeline.core.layout import (
    COMMIT_LOCK,
    DAMAGED_JOURNAL,
    FINGERPRINTS,
    JOURNAL,
    MANIFEST,
    MANIFEST_LOCK,
    WRITER_LOCK,
)
from pipeline.core.locks import lock_fd, locked

if TYPE_CHECKING:
    from pipeline.core.catalog import Tables

MAX_JOURNAL_BYTES = 1 << 20  # a journal names a stage's few files: anything larger is damaged


class Commits:
    """The writing part of a lexicon's Store: commits, the writer lock, recovery and the manifest's entries."""

    root: Path
    lexicon: str
    tables: Tables

    if TYPE_CHECKING:

        def path(self, name: str) -> Path: ...

        def manifest(self) -> dict[str, Any]: ...

    def record(self, entries: dict[str, dict[str, Any]]) -> None:
        """Add or replace manifest entries, under a lock so concurrent writers do not lose each other's."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / MANIFEST_LOCK, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            manifest = self.manifest()
            manifest["lexicon"] = self.lexicon
            manifest["tables"].update(entries)
            manifest["tables"] = dict(sorted(manifest["tables"].items()))
            write_json(self.root / MANIFEST, manifest)

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
                    rows = _write_output(tmp, name, obj, provenance, self.tables)
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


def _write_output(path: Path, name: str, obj: Any, provenance: dict[str, Any], tables: Tables) -> int | None:
    """Write one stage output to `path` (not atomically), a table as `tables` declares it; its rows (None when it
    has no rows)."""
    if isinstance(obj, pl.DataFrame):
        table = Path(name).stem
        obj = tables.conform(table, obj)
        bad = tables.mismatch(table, dict(obj.schema))
        if bad is not None:
            raise RuntimeError(
                f"stage output {name}: column {bad[0]!r} is {bad[2] or 'missing'}, its schema declares {bad[1]} "
                f"(pipeline/core/schemas.py)"
            )
        rows = tables.row_group_rows(table) or ROW_GROUP
        parquet_bytes(path, obj, {**provenance, **tables.footer(table, obj)}, rows)
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
