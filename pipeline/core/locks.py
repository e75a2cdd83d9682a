"""File locks (fcntl): one writer per lexicon, and readers that hold off a stage's commit while they read."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from pipeline.core.errors import WordstatsError

_READ_LOCKS: list[int] = []  # shared locks this command holds until it ends


def lock_fd(path: Path) -> int:
    """A file descriptor to lock `path` with (created when missing; opened read-only in a read-only folder)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        try:
            return os.open(path, os.O_RDONLY)
        except OSError:
            raise WordstatsError(f"{path.parent}: cannot write ({exc.strerror or exc})") from None


@contextlib.contextmanager
def locked(path: Path, how: int) -> Iterator[None]:
    """Hold an flock on `path` for the block."""
    fd = lock_fd(path)
    try:
        fcntl.flock(fd, how)
        yield
    finally:
        os.close(fd)


def hold_read_lock(fd: int) -> None:
    """Keep a locked file descriptor until release_read_locks()."""
    _READ_LOCKS.append(fd)


def release_read_locks() -> None:
    """Release the read locks taken by this command."""
    while _READ_LOCKS:
        os.close(_READ_LOCKS.pop())
