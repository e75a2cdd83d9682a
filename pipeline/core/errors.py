"""The one user-facing error type: the CLI prints it on one line and exits with its code."""


class WordstatsError(Exception):
    """A problem the user can fix (bad input, missing table, bad config), told in one line."""

    exit_code = 2

    def __init__(self, message: str, exit_code: int | None = None):
        super().__init__(" ".join(str(message).split()))
        if exit_code is not None:
            self.exit_code = exit_code


class NotFound(WordstatsError):
    """A query found nothing the user asked about (exit code 1, like grep)."""

    exit_code = 1


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when the message is empty)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
