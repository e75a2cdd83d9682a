"""The one user-facing error type: the CLI prints it on one line and exits with its code; and notes, the lines
for people on standard error that are not errors."""

import difflib
import sys
from collections.abc import Iterable


def note(text: str) -> None:
    """A short note for people on stderr (never mixed into the data on stdout)."""
    sys.stderr.write(f"note: {text}\n")


class WordstatsError(Exception):
    """A problem the user can fix (bad input, missing table, bad config), told in one line."""

    exit_code = 2
    leave_at_once = False  # the command ends the process as soon as it has said so (see cluster.ClusterLost)

    def __init__(self, message: str, exit_code: int | None = None):
        super().__init__(" ".join(str(message).split()))
        if exit_code is not None:
            self.exit_code = exit_code


class NotFound(WordstatsError):
    """A query found nothing the user asked about (exit code 1, like grep)."""

    exit_code = 1


class Interrupted(WordstatsError):
    """The user stopped the command (Ctrl-C): exit code 130, as a shell reports SIGINT."""

    exit_code = 130


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when the message is empty)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def pick(value: str, choices: Iterable[str], what: str) -> str:
    """The choice that `value` names, ignoring case; an unknown name is an error with "did you mean"."""
    names = list(choices)
    for name in names:
        if name.lower() == value.strip().lower():
            return name
    raise WordstatsError(unknown(value, names, what))


def unknown(value: str, names: Iterable[str], what: str) -> str:
    """The message for an unknown name: the closest known one, then all of them."""
    names = list(names)
    lower = {n.lower(): n for n in names}
    close = difflib.get_close_matches(value.strip().lower(), list(lower), n=1, cutoff=0.6)
    hint = f"; did you mean {lower[close[0]]!r}?" if close else ""
    return f"unknown {what} {value!r}{hint} (known: {', '.join(names) or 'none'})"
