"""The one user-facing error type: the CLI prints it on one line and exits with its code; and notes, the lines
for people on standard error that are not errors."""

import difflib
import string
import sys
from collections.abc import Callable, Iterable


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


class FieldError(WordstatsError):
    """A problem with fields of a request: each field named by its request name in braces, other values given by
    keyword (FieldError("{floor} must be at least 1, got {got}", got=0)); each client names the fields its own way
    (the command line by option, --floor; the page by the field's label). Told as it stands, it names them as
    the command line does by default."""

    def __init__(self, template: str, exit_code: int | None = None, flags: dict[str, str] | None = None, **values):
        self.template, self.values, self.flags = template, values, flags or {}
        super().__init__(self.told(lambda name: self.flags.get(name) or default_flag(name)), exit_code)

    def told(self, name: Callable[[str], str]) -> str:
        """The problem with each field called `name(field)`."""
        return string.Formatter().vformat(self.template, (), _Names(name, self.values))


class _Names(dict):
    """The values of a FieldError's template; any other name in braces is a field, named by a client's naming."""

    def __init__(self, name: Callable[[str], str], values: dict):
        super().__init__(values)
        self.name = name

    def __missing__(self, key: str) -> str:
        return self.name(key)


def default_flag(name: str) -> str:
    """A request field's command-line option when it declares no other: --min-zipf for min_zipf."""
    return "--" + name.replace("_", "-")


def escaped(text: str) -> str:
    """Text as it stands in a FieldError's template (its braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def about(name: str, problem: str, flag: str = "") -> FieldError:
    """The error of one field: its name, then `problem` (text, braces and all) as it stands; `flag`, its option
    when it is not --name."""
    return FieldError("{" + name + "}" + escaped(problem), flags={name: flag} if flag else None)


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
