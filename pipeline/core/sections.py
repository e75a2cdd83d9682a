"""A TOML file read safely (a regular file of bounded size, UTF-8) and its tables read field by field, each
error one line naming the file and the field: the config, the word-list settings, the phonics phases and the
tile sets all read through these."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from pipeline.core.errors import WordstatsError

MISSING = object()


class Section:
    """One table of the TOML file, with typed getters whose errors name the file and the field."""

    def __init__(self, data: Any, where: str, file: Path):
        self.where, self.file = where, file
        if not isinstance(data, dict):
            self.fail("", f"expected a table, got {_show(data)}")
        self.data: dict = data

    def fail(self, key: str, problem: str):
        """Raise the one-line error for this section's field `key`."""
        name = f"{self.where}.{key}" if self.where and key else (self.where or key)
        raise WordstatsError(f"{self.file}: field {name}: {problem}")

    def has(self, key: str) -> bool:
        """Whether the field is present."""
        return key in self.data

    def keys(self) -> list[str]:
        """The field names present, in file order."""
        return list(self.data)

    def allow(self, *names: str) -> None:
        """Reject fields not in `names` (catches typos)."""
        for key in self.data:
            if key not in names:
                self.fail(key, f"unknown field (expected one of: {', '.join(names)})")

    def _get(self, key, default):
        """The raw value of field `key`, `default` when absent, or an error when it is required."""
        if key in self.data:
            return self.data[key]
        if default is MISSING:
            self.fail(key, "missing")
        return default

    def integer(self, key: str, default=MISSING, lo: int | None = None, hi: int | None = None):
        """An integer field within [lo, hi]."""
        value = self._get(key, default)
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"expected an integer, got {_show(value)}")
        if lo is not None and value < lo:
            self.fail(key, f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            self.fail(key, f"must be at most {hi}, got {value}")
        return value

    def number(self, key: str, default=MISSING, lo: float | None = None, hi: float | None = None):
        """A number field within [lo, hi]."""
        value = self._get(key, default)
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:  # NaN != NaN
            self.fail(key, f"expected a number, got {_show(value)}")
        if lo is not None and value < lo:
            self.fail(key, f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            self.fail(key, f"must be at most {hi}, got {value}")
        return float(value)

    def flag(self, key: str, default=MISSING) -> bool:
        """A true/false field."""
        value = self._get(key, default)
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {_show(value)}")
        return value

    def text(self, key: str, default=MISSING, choices=None, pattern: str | None = None):
        """A string field, optionally one of `choices` or matching `pattern`."""
        value = self._get(key, default)
        if value is None and default is None:
            return None
        if not isinstance(value, str):
            self.fail(key, f"expected a string, got {_show(value)}")
        if choices is not None and value not in choices:
            self.fail(key, f"expected one of {', '.join(map(repr, choices))}, got {value!r}")
        if pattern is not None and not re.fullmatch(pattern, value):
            self.fail(key, f"{value!r} is not of the form {pattern}")
        return value

    def sequence(self, key: str, default=MISSING, of=str) -> list:
        """A list field whose items are all of type `of`."""
        value = self._get(key, default)
        if not isinstance(value, list) or not all(isinstance(v, of) and not isinstance(v, bool) for v in value):
            self.fail(key, f"expected a list of {of.__name__}, got {_show(value)}")
        return value

    def section(self, key: str, default=MISSING) -> Section:
        """A sub-table."""
        value = self._get(key, default)
        return Section(value, f"{self.where}.{key}" if self.where else key, self.file)

    def sections(self, key: str) -> dict[str, Section]:
        """A table of named sub-tables, e.g. [lexicons.NAME]."""
        outer = self.section(key, {})
        return {name: outer.section(name) for name in outer.keys()}


def _show(value: Any) -> str:
    """A value as an error message shows it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_regular_file(path: Path, what: str, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes`; FIFOs, devices, sockets and folders are refused
    before anything is opened (reading them could block or never end)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise WordstatsError(f"{path}: {what} not found") from None
    except OSError as exc:
        raise WordstatsError(f"{path}: cannot read {what} ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):
        raise WordstatsError(f"{path}: is a directory, not a {what}")
    if not stat.S_ISREG(mode):
        raise WordstatsError(f"{path}: not a regular file (a pipe, device or socket), refused as {what}")
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise WordstatsError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise WordstatsError(f"{path}: {what} larger than the limit of {max_bytes:,} bytes")
    return data


def parse_toml(data: bytes, path: Path, what: str) -> dict:
    """The TOML document in a file's bytes (UTF-8, a byte order mark allowed), or an error naming the file."""
    try:
        return tomllib.loads(data.decode("utf-8-sig"))  # a byte order mark (some Windows editors) is fine
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: {what} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise WordstatsError(f"{path}: invalid TOML: {exc}") from None
