"""What a compiled extension is made from, read without importing anything of the package (setup.py loads this
file alone): the native folders, the digest of a folder's sources and the processor's digest."""

from __future__ import annotations

import hashlib
import platform
from pathlib import Path

SUFFIXES = (".c", ".h")


def folders(package: Path) -> list[Path]:
    """The `native` folders of the package's sub-packages, in order."""
    return sorted(p for p in package.glob("**/native") if p.is_dir() and any(files(p)))


def files(folder: Path) -> list[Path]:
    """The C sources and headers of a native folder, in order."""
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())


def digest(folder: Path) -> str:
    """A digest of the names and bytes of a native folder's sources: a build of other sources is stale."""
    hashed = hashlib.sha256()
    for path in files(folder):
        hashed.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return hashed.hexdigest()[:32]


def processor() -> str:
    """A digest of this processor's model and instruction sets (a build for it runs only here)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            lines = [next(line for line in info if line.startswith(key)) for key in ("model name", "flags")]
    except (OSError, StopIteration):
        lines = [platform.machine(), platform.processor()]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
