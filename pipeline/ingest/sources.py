"""Read word-list sources safely: files, package resources and pickles, as text with a hash."""

from __future__ import annotations

import hashlib
import io
import pickle
from dataclasses import dataclass
from importlib import resources

from pipeline.core.config import Source
from pipeline.core.errors import WordstatsError

VOWELS = "AEIOU"
REASONS = ("undecodable", "non_letter", "accented", "capitalised", "too_short", "too_long")
MAX_EXAMPLES = 5
EXAMPLE_CHARS = 40


@dataclass
class SourceText:
    """A source's raw bytes, with the label and hash that go into provenance."""

    source: Source
    data: bytes

    @property
    def sha256(self) -> str:
        """The sha256 of the raw bytes."""
        return hashlib.sha256(self.data).hexdigest()


def read_source(source: Source) -> SourceText:
    """Read a source's bytes from its file or package, with one-line errors for every failure."""
    if source.path is not None:
        path = source.path
        if not path.exists():
            raise WordstatsError(f"{path}: word list not found")
        if path.is_dir():
            raise WordstatsError(f"{path}: is a directory, not a word list")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise WordstatsError(f"{path}: cannot read ({exc.strerror})") from None
    else:
        assert source.package is not None and source.resource is not None  # a source is a path or a resource
        try:
            data = resources.files(source.package).joinpath(source.resource).read_bytes()
        except ModuleNotFoundError:
            raise WordstatsError(f"{source.label}: package {source.package!r} is not installed") from None
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise WordstatsError(f"{source.label}: no file {source.resource!r} in package {source.package!r}") from None
    text = SourceText(source, data)
    if source.sha256 and text.sha256 != source.sha256:
        raise WordstatsError(f"{source.where}: sha256 is {text.sha256}, config expects {source.sha256}")
    return text


class _SetUnpickler(pickle.Unpickler):
    """Unpickle only plain containers of strings (package data files), never arbitrary objects."""

    def find_class(self, module, name):
        """Allow only set, frozenset and list."""
        if module == "builtins" and name in ("set", "frozenset", "list"):
            return getattr(__import__("builtins"), name)
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}")


def source_lines(text: SourceText) -> list[bytes]:
    """The raw lines of a source (a pickled set gives one line per entry, sorted)."""
    label, data = text.source.where, text.data
    if text.source.format == "pickle":
        try:
            entries = _SetUnpickler(io.BytesIO(data)).load()
        except Exception as exc:  # any failure to unpickle is bad input, told in one line
            raise WordstatsError(f"{label}: not a pickled set of words ({exc})") from None
        if not all(isinstance(e, str) for e in entries):
            raise WordstatsError(f"{label}: the pickled set holds something other than strings")
        return [e.encode("utf-8") for e in sorted(entries)]
    if b"\x00" in data:
        raise WordstatsError(f"{label}: looks like a binary file (it contains NUL bytes), not a word list")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the newline that ends the last line does not start another
    return lines
