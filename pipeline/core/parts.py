"""Parted tables: a table grown block by block kept as a folder of immutable Parquet parts, one per block.

A parted table `NAME/` holds `part-00000.parquet`, `part-00001.parquet`, ... in the order the blocks were
written, each with its checksum beside it (`part-00000.sha256.json`: the sha256 and size of the part's bytes),
and optionally other sidecars (`part-00000.cpu.json`, any `part-NNNNN.WHAT.json`: what a block records that is
not the table, such as its CPU seconds). Read in part order the parts are one table, for polars (`scan`, `read`)
and for DuckDB (`duckdb_source`); every read checks each part against its checksum, so a damaged part, or one
without its checksum, is a one-line error naming it. A new block adds a part and rewrites none; a part is
created once, never replaced: it is written to a temporary file, synced, and linked to its name, which fails
when the name exists. A block's sidecars are written before its part, so a run killed between the two leaves
sidecars past the last part, which readers pass over and the next writer of that block replaces. A table grows
only under `growing` (an exclusive lock on its folder), inside which a run reads the table again before it adds
a part, so that two runs growing one table never shrink or fork it.

What each part's footer holds is the caller's (pipeline.core.files.parquet_bytes writes it, so the same frame
and provenance give the same bytes); `footers` reads them all, and the tables that grow this way check each
part's keys against their run's, naming the part that differs."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError

PART = "part-{:05d}.parquet"
PART_PATTERN = re.compile(r"part-(\d{5})\.parquet")
GLOB = "part-*.parquet"
SIDECAR_PATTERN = re.compile(r"part-(\d{5})\.[a-z0-9_-]+\.json")  # what a block records beside its part
CHECKSUM_SUFFIX = ".sha256.json"  # a part's checksum: {"bytes": size, "sha256": hex}
MAX_PARTS = 100_000  # five digits


def part_path(folder: Path, index: int) -> Path:
    """The path of part `index` of the table in `folder`."""
    if not 0 <= index < MAX_PARTS:
        raise WordstatsError(f"{folder}: a parted table holds at most {MAX_PARTS:,} parts (part {index} asked)")
    return folder / PART.format(index)


def sidecar_path(part: Path, suffix: str) -> Path:
    """The sidecar of a part: part-00003.parquet with suffix .cpu.json is part-00003.cpu.json."""
    return part.with_name(part.name.removesuffix(".parquet") + suffix)


def _temporary(name: str) -> bool:
    """Whether a file name is a writer's temporary file (.NAME.RANDOM.tmp), which readers pass over."""
    return name.startswith(".") and name.endswith(".tmp")


def part_files(folder: Path, checked: bool = True) -> list[Path]:
    """The parts of the table in `folder`, in order (none for a missing folder), each checked against its
    checksum unless `checked` is False; a one-line error naming the file when the folder is a file, a part is
    missing (the parts are numbered from 0 without a gap), damaged or without its checksum, or the folder holds
    anything but parts and their sidecars (part-NNNNN.WHAT.json, each beside its part or beside the next part to
    be written)."""
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise WordstatsError(f"{folder}: not a folder of parts (a parted table is a folder of part-NNNNN.parquet)")
    found: dict[int, Path] = {}
    sidecars: list[tuple[int, Path]] = []
    for entry in sorted(folder.iterdir()):
        if _temporary(entry.name):
            continue
        match, beside = PART_PATTERN.fullmatch(entry.name), SIDECAR_PATTERN.fullmatch(entry.name)
        if match and entry.is_file():
            found[int(match.group(1))] = entry
        elif beside and entry.is_file():
            sidecars.append((int(beside.group(1)), entry))
        else:
            raise WordstatsError(f"{entry}: not a part of the table in {folder} (only {GLOB} and their sidecars)")
    for index in range(max(found, default=-1) + 1):
        if index not in found:
            raise WordstatsError(f"{part_path(folder, index)}: missing (the parts are numbered from 0 without a gap)")
    for index, entry in sidecars:
        if index not in found and index != len(found):  # the next part's sidecars: a block still being written
            raise WordstatsError(f"{entry}: a sidecar without its part ({part_path(folder, index).name})")
    files = [found[i] for i in range(len(found))]
    for part in files if checked else ():
        check_part(part)
    return files


_CHECKED: dict[tuple[str, int, int, int], str] = {}  # parts checked by this process: (path, inode, size, mtime)


def check_part(part: Path) -> None:
    """A one-line error naming the part when it has no checksum beside it or its bytes do not match it."""
    side = sidecar_path(part, CHECKSUM_SUFFIX)
    try:
        want = json.loads(side.read_text())
        size, digest_hex = int(want["bytes"]), str(want["sha256"])
    except FileNotFoundError:
        raise WordstatsError(
            f"{part}: no checksum beside it ({side.name}); if you trust the table, record its parts' checksums "
            f"with `python -m pipeline.core.parts {part.parent}`"
        ) from None
    except (OSError, ValueError, TypeError, KeyError):
        raise WordstatsError(f"{side}: not a part's checksum (a JSON object of bytes and sha256)") from None
    stat = part.stat()
    key = (str(part), stat.st_ino, stat.st_size, stat.st_mtime_ns)
    if _CHECKED.get(key) == digest_hex:
        return
    if stat.st_size != size or _sha256(part) != digest_hex:
        raise WordstatsError(f"{part}: damaged (its bytes do not match {side.name}); the part is refused")
    _CHECKED[key] = digest_hex


def checksum_bytes(data: bytes) -> bytes:
    """The checksum sidecar of a part holding `data`."""
    return (json.dumps({"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}) + "\n").encode()


def scan(folder: Path) -> pl.LazyFrame:
    """The parts as one lazy table, rows in part order (a missing or empty folder is an error naming it)."""
    parts = part_files(folder)
    if not parts:
        raise WordstatsError(f"{folder}: no parts (an empty or missing parted table)")
    return pl.scan_parquet(parts)


def read(folder: Path, columns: list[str] | None = None) -> pl.DataFrame:
    """The parts as one table, rows in part order; a one-line error naming a part that cannot be read."""
    frames = []
    for part in part_files(folder):
        frames.append(read_part(part, columns))
    if not frames:
        raise WordstatsError(f"{folder}: no parts (an empty or missing parted table)")
    try:
        return pl.concat(frames, how="vertical")
    except pl.exceptions.PolarsError as exc:
        raise WordstatsError(f"{folder}: its parts have different columns ({first(exc)})") from None


def read_part(part: Path, columns: list[str] | None = None) -> pl.DataFrame:
    """One part; a one-line error naming it when it is not a readable Parquet file."""
    try:
        return pl.read_parquet(part, columns=columns)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise WordstatsError(f"{part}: not a readable Parquet part ({first(exc)})") from None


def footers(parts: list[Path]) -> list[dict[str, Any]]:
    """Each part's provenance (its footer's wordstats.* keys); a one-line error naming a damaged part."""
    from pipeline.core.files import read_provenance

    out = []
    for part in parts:
        try:
            out.append(read_provenance(part))
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise WordstatsError(f"{part}: not a readable Parquet part ({first(exc)})") from None
    return out


def first(exc: BaseException) -> str:
    """An exception's first line."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def duckdb_source(folder: Path) -> str:
    """The DuckDB table expression that reads the parts as one table, in part order:
    read_parquet('FOLDER/part-*.parquet') (DuckDB reads a glob's files in name order)."""
    text = str(folder / GLOB).replace("'", "''")
    return f"read_parquet('{text}')"


def digest(folder: Path) -> str:
    """The sha256 of the table: of each part's name and bytes in order (sidecars are not the table)."""
    total = hashlib.sha256()
    for part in part_files(folder):
        total.update(part.name.encode() + b"\0" + _sha256(part).encode() + b"\n")
    return total.hexdigest()


def _sha256(path: Path) -> str:
    from pipeline.core.files import sha256_file

    return sha256_file(path)


def create_once(target: Path, data: bytes) -> bool:
    """Create `target` holding `data`, never replacing a file: True when written, False when it exists already
    with these bytes; a one-line error naming it when it exists with other bytes (nothing is changed)."""
    from pipeline.core.files import temporary_path, write_error

    tmp = temporary_path(target)
    try:
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
            os.link(tmp, target)  # fails when target exists: a part is never replaced
        except FileExistsError:
            if target.is_file() and target.read_bytes() == data:
                return False
            raise WordstatsError(
                f"{target}: exists with other bytes (another run wrote this block first); nothing written"
            ) from None
        except OSError as exc:
            raise write_error(target, exc) from None
        _sync_folder(target.parent)
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    """Make a new name in `folder` durable (where the system allows syncing a folder)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def part_bytes(df: pl.DataFrame, provenance: dict[str, Any], row_group_size: int | None = None) -> bytes:
    """A part's bytes: our Parquet (pipeline.core.files.parquet_bytes) of the frame with the provenance in its
    footer; the same frame and provenance give the same bytes."""
    import tempfile

    from pipeline.core.files import ROW_GROUP, parquet_bytes

    with tempfile.TemporaryDirectory(prefix="wordstats-part-") as tmp:
        path = Path(tmp) / "part.parquet"
        parquet_bytes(path, df, provenance, row_group_size or ROW_GROUP)
        return path.read_bytes()


def append(
    folder: Path, index: int, df: pl.DataFrame, provenance: dict[str, Any], sidecars: dict[str, bytes] | None = None
) -> bool:
    """Add part `index` to the table in `folder` (the folder made if needed), its checksum and `sidecars`
    (suffix: bytes, such as ".cpu.json") written first: True when written, False when the part exists with the
    same bytes; a one-line error naming it when it exists with other bytes. Sidecars left past the last part
    by an interrupted run are replaced; call it inside `growing(folder)`."""
    target = part_path(folder, index)
    if index and not part_path(folder, index - 1).is_file():
        raise WordstatsError(f"{part_path(folder, index - 1)}: missing (a part is added after the one before it)")
    data = part_bytes(df, provenance)
    if target.is_file():  # the same block written again: its sidecars stay as they are
        return create_once(target, data)
    for suffix, content in {CHECKSUM_SUFFIX: checksum_bytes(data), **(sidecars or {})}.items():
        side = sidecar_path(target, suffix)
        with contextlib.suppress(FileNotFoundError):
            side.unlink()  # an interrupted run's, for a block that may differ from this one
        create_once(side, content)
    return create_once(target, data)


@contextlib.contextmanager
def growing(folder: Path):
    """Hold an exclusive lock on the table's folder (made if missing) for the block: one run at a time changes a
    table, whatever its blocks; another waits here, then reads the table again."""
    import fcntl

    from pipeline.core.files import write_error

    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise write_error(folder, exc) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def remove(folder: Path) -> int:
    """Remove every part of the table in `folder` and their sidecars (to make the table again on purpose), last
    part first, damaged ones too; the number of parts removed."""
    parts = part_files(folder, checked=False)
    for entry in sorted(folder.iterdir(), reverse=True):
        if PART_PATTERN.fullmatch(entry.name) or SIDECAR_PATTERN.fullmatch(entry.name):
            entry.unlink()
    return len(parts)


def record_checksums(folder: Path) -> int:
    """Write the checksum of each part of the table in `folder` that has none (a table grown before parts had
    checksums); the number written."""
    written = 0
    for part in part_files(folder, checked=False):
        if not sidecar_path(part, CHECKSUM_SUFFIX).exists():
            written += create_once(sidecar_path(part, CHECKSUM_SUFFIX), checksum_bytes(part.read_bytes()))
    return written


if __name__ == "__main__":  # python -m pipeline.core.parts FOLDER...: record missing checksums
    import sys

    for name in sys.argv[1:]:
        try:
            print(f"{name}: {record_checksums(Path(name))} checksums written")
        except WordstatsError as exc:
            sys.exit(f"wordstats: {exc}")
