"""The one guard of every file a command writes (--out, --gcg-dir, make-rules): checked before any work.

A command's file never lands in a data folder (only the pipeline writes there), on a special file (a device,
pipe or socket, or anything under /dev, /proc or /sys), on a folder, or on an existing file without --force;
the write itself is atomic (files.atomic_path), and refuses a special file that appeared in the meantime."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from pipeline.core.errors import FieldError, WordstatsError, escaped
from pipeline.core.layout import COMMIT_LOCK, MANIFEST_LOCK

SYSTEM_FOLDERS = (Path("/dev"), Path("/proc"), Path("/sys"))  # kernel interfaces: never a command's output
LEXICON_MARKERS = (COMMIT_LOCK, MANIFEST_LOCK)  # the store's lock files: only a lexicon's folder holds them


def check_out(
    out: Path | None,
    force: bool,
    suffixes: Iterable[str] | None = None,
    data_dir: Path | None = None,
    *,
    field: str = "out",
    about: str = "",
    owned: Path | None = None,
    ours: Callable[[Path], bool] | None = None,
) -> None:
    """Refuse a file a command would write: an unknown suffix, a system folder, a special file, a folder, a
    path inside the data folder (except `owned`, the pipeline's own file there) or inside a lexicon's
    folder, an existing file without --force (unless `ours` says the command wrote it). Errors name the request's
    `field` (and `about` it)."""
    if out is None:
        if force:
            raise FieldError("{force} applies to {" + field + "}" + escaped(f"{about} FILE"))
        return
    where = "{" + field + "}" + escaped(f"{about} {out}")
    resolved = Path(os.path.abspath(out)).resolve()
    refuse_system_folder(resolved, where)
    mode = file_mode(out, where)
    if mode is not None and stat.S_ISDIR(mode):
        raise FieldError(where + ": is a folder")
    if mode is not None and not stat.S_ISREG(mode):
        raise FieldError(where + f": {special_kind(mode)}, not a regular file: refused")
    if owned is None or resolved != Path(os.path.abspath(owned)).resolve():
        refuse_data_folder(resolved, where, data_dir)
    if suffixes is not None:
        known = tuple(suffixes)
        if out.suffix.lower() not in known:
            raise FieldError(
                where + escaped(f": unknown output format {out.suffix or '(none)'!r} (use {', '.join(known)})")
            )
    if os.path.lexists(out) and not force and not (mode is not None and ours is not None and ours(out)):
        raise FieldError(where + ": file exists (add {force} to replace it)")


def check_out_folder(folder: Path, data_dir: Path | None = None, field: str = "out_dir") -> None:
    """Refuse a folder a command would write files into: a system folder, the data folder, a lexicon's folder,
    or something that is not a folder; errors name the request's `field`."""
    where = "{" + field + "} " + escaped(str(folder))
    resolved = Path(os.path.abspath(folder)).resolve()
    refuse_system_folder(resolved, where)
    mode = file_mode(folder, where)
    if mode is not None and not stat.S_ISDIR(mode):
        raise FieldError(where + ": not a folder")
    refuse_data_folder(resolved, where, data_dir)


def refuse_system_folder(resolved: Path, where: str) -> None:
    """Refuse a path under /dev, /proc or /sys (`where`: the field and path, a FieldError template)."""
    for folder in SYSTEM_FOLDERS:
        if resolved == folder or resolved.is_relative_to(folder):
            raise FieldError(where + escaped(f": inside {folder}, the system's devices and files: refused"))


def refuse_data_folder(resolved: Path, where: str, data_dir: Path | None) -> None:
    """Refuse a path inside the data folder or inside any folder that holds a lexicon's tables."""
    if data_dir is not None and resolved.is_relative_to(Path(os.path.abspath(data_dir)).resolve()):
        raise FieldError(where + escaped(f": inside the data folder {data_dir}, where only the pipeline writes"))
    for folder in resolved.parents:
        if any(os.path.lexists(folder / marker) for marker in LEXICON_MARKERS):
            raise FieldError(
                where + escaped(f": inside {folder}, a folder of wordstats tables, where only the pipeline writes")
            )


def file_mode(path: Path, where: str) -> int | None:
    """The mode of what `path` names (through symbolic links), None when nothing is there."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise FieldError(
            where + escaped(f": cannot create its folder {Path(path).parent} (a file is in the way)")
        ) from None
    except OSError as exc:
        raise FieldError(where + escaped(f": cannot look at it ({exc.strerror or exc})")) from None


def special_kind(mode: int) -> str:
    """What a special file is, in words."""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def refuse_special(target: Path) -> None:
    """Refuse to replace a special file or a folder at `target` (checked again just before an atomic rename)."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return
    if stat.S_ISDIR(mode):
        raise WordstatsError(f"{target}: is a folder")
    if not stat.S_ISREG(mode):
        raise WordstatsError(f"{target}: {special_kind(mode)}, not a regular file: refused")
