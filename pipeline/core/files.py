"""Files written atomically (a temporary file beside the target, renamed into place only when whole), and our
Parquet: zstd, statistics, provenance in the footer."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError, first_line

TMP_SUFFIX = ".tmp"


def sha256_file(path: Path) -> str:
    """The sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_if_file(path: Path) -> str | None:
    """The sha256 of a file's bytes, or None when there is no such file (a setting's file recorded in params)."""
    return sha256_file(path) if path.is_file() else None


def write_error(target: Path, exc: BaseException) -> WordstatsError:
    """The one-line error for a file that could not be written (full disk, read-only folder, ...)."""
    why = exc.strerror if isinstance(exc, OSError) and exc.strerror else first_line(exc)
    return WordstatsError(f"{target}: cannot write ({why})")


WRITE_ERRORS = (OSError, pl.exceptions.ComputeError)  # polars reports a full disk as a ComputeError


def temporary_path(target: Path) -> Path:
    """A new empty temporary file beside `target` (.NAME.RANDOM.tmp), its folder created if needed."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WordstatsError(f"{target}: cannot create its folder {target.parent} ({exc.strerror or exc})") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent)
    except OSError as exc:
        raise write_error(target, exc) from None
    os.close(fd)
    return Path(tmp)


@contextlib.contextmanager
def atomic_path(target: Path):
    """Yield a temporary path beside `target`; rename it into place only if the block succeeds and `target` is
    not a special file or a folder.

    A failure to write is an error naming `target` (never the temporary file)."""
    from pipeline.core.outputs import refuse_special

    tmp = temporary_path(target)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        with open(tmp, "rb") as fh:  # on the disk before it takes the target's name: a crash leaves old or new
            os.fsync(fh.fileno())
        refuse_special(target)
        os.replace(tmp, target)
        sync_folder(target.parent)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, WRITE_ERRORS):
            raise write_error(target, exc) from None
        raise


def sync_folder(folder: Path) -> None:
    """Put a folder's entries (a rename into it) on the disk, where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(target: Path, data: bytes) -> None:
    """Write bytes atomically."""
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def write_text(target: Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    write_bytes(target, text.encode("utf-8"))


def write_json(target: Path, obj: Any) -> None:
    """Write JSON atomically, keys in a stable order."""
    write_text(target, json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


ROW_GROUP = 16384  # rows per Parquet row group (schemas.ROW_GROUP_ROWS names the tables that take fewer)


def write_parquet(target: Path, df: pl.DataFrame, provenance: dict[str, Any], row_group_size: int = ROW_GROUP) -> None:
    """Write a DataFrame atomically as Parquet with provenance in the footer key-value metadata."""
    with atomic_path(target) as tmp:
        parquet_bytes(tmp, df, provenance, row_group_size)


def parquet_bytes(path: Path, df: pl.DataFrame, provenance: dict[str, Any], row_group_size: int = ROW_GROUP) -> None:
    """Write a DataFrame to `path` (not atomically) as our Parquet: zstd, statistics, provenance in the footer;
    a `sorted_by` entry of the provenance is also recorded as the row groups' sorting_columns."""
    metadata = {f"wordstats.{k}": _meta_value(v) for k, v in sorted(provenance.items())}
    sorted_by = provenance.get("sorted_by")
    if not sorted_by:
        df.write_parquet(
            path,
            compression="zstd",
            compression_level=3,
            statistics=True,
            row_group_size=row_group_size,
            metadata=metadata,
        )
        return
    import pyarrow.parquet as pq

    schema = df.head(0).to_arrow().schema
    schema = schema.with_metadata({**(schema.metadata or {}), **metadata})
    with pq.ParquetWriter(
        path,
        schema,
        compression="zstd",
        compression_level=3,
        write_statistics=True,
        sorting_columns=[pq.SortingColumn(df.columns.index(c)) for c in sorted_by],
    ) as writer:
        for start in range(0, df.height, row_group_size):  # a row group at a time: one copy of it in Arrow
            writer.write_table(df.slice(start, row_group_size).to_arrow().cast(schema), row_group_size=row_group_size)


def _meta_value(value: Any) -> str:
    """A provenance value as Parquet metadata text: strings as they are, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))


def read_provenance(path: Path) -> dict[str, Any]:
    """The provenance stored in a Parquet file's footer."""
    out = {}
    for key, value in pl.read_parquet_metadata(path).items():
        if key.startswith("wordstats."):
            name = key.removeprefix("wordstats.")
            try:
                out[name] = json.loads(value) if name in ("inputs", "params", "columns", "sorted_by") else value
            except json.JSONDecodeError:
                out[name] = value
    return out
