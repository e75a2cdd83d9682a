"""File locks (fcntl): one writer per lexicon, and readers that hold off a stage's commit while they read (the
part of a Store that read-locks, ReadLocks)."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.core.errors import WordstatsError, first_line, note
from pipeline.core.files import TMP_SUFFIX
from pipeline.core.layout import COMMIT_LOCK, JOURNAL

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
    """Release the read locks taken by this command (and forget the lexicons it read)."""
    while _READ_LOCKS:
        os.close(_READ_LOCKS.pop())
    READERS.clear()


READERS: list[ReadLocks] = []  # the lexicons this command reads (read_lock), to find a damaged table when a read fails


class ReadLocks:
    """The reading part of a lexicon's Store that holds off commits: the shared read lock, for the command or for
    a block, and an interrupted commit's files read where they are."""

    root: Path
    lexicon: str
    pending: dict[str, Path]

    if TYPE_CHECKING:

        def writer(self, wait: bool = True) -> contextlib.AbstractContextManager[Any]: ...

        def journal_plan(self) -> dict[str, Any] | None: ...

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
