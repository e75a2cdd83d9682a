"""Progress bars and spinners on stderr (rich), silenced by --quiet."""

from __future__ import annotations

import contextlib
import sys


class _Silent:
    """A task that shows nothing."""

    def advance(self, n: int = 1) -> None:
        """Count n more steps done."""


class _Shown:
    """A rich task: a bar when the total is known, a spinner otherwise."""

    def __init__(self, bar, task_id):
        self.bar, self.task_id = bar, task_id

    def advance(self, n: int = 1) -> None:
        """Count n more steps done."""
        self.bar.advance(self.task_id, n)


class Progress:
    """Makes tasks that show progress on stderr unless quiet."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet

    @contextlib.contextmanager
    def task(self, description: str, total: int | None = None):
        """A progress task for the duration of the block."""
        if self.quiet:
            yield _Silent()
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.progress import Progress as RichProgress

        columns = [SpinnerColumn(), TextColumn("{task.description}")]
        if total is not None:
            columns += [BarColumn(), MofNCompleteColumn()]
        columns.append(TimeElapsedColumn())
        console = Console(file=sys.stderr)
        with RichProgress(*columns, console=console, transient=False) as bar:
            yield _Shown(bar, bar.add_task(description, total=total))


SILENT = Progress(quiet=True)
