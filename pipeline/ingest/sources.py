"""Read word-list sources safely: files, package resources and pickles, as text with a hash."""

from __future__ import annotations

import hashlib
import io
import pickle
from dataclasses import dataclass
from importlib import resources

from pipeline.core.config import MAX_SOURCE_BYTES, PACKAGE_RE, Source, read_regular_file
from pipeline.core.errors import WordstatsError, first_line

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
        data = read_regular_file(source.path, "word list", MAX_SOURCE_BYTES)
    else:
        assert source.package is not None and source.resource is not None  # a source is a path or a resource
        data = _read_resource(source)
    text = SourceText(source, data)
    if source.sha256 and text.sha256 != source.sha256:
        raise WordstatsError(f"{source.where}: sha256 is {text.sha256}, config expects {source.sha256}")
    return text


def _read_resource(source: Source) -> bytes:
    """A package resource's bytes: a regular file inside the package's own folder, within the size limit."""
    from pathlib import Path

    label, package, resource = source.label, source.package, source.resource
    assert package is not None and resource is not None
    if not PACKAGE_RE.fullmatch(package) or ".." in Path(resource).parts or Path(resource).is_absolute():
        raise WordstatsError(f"{label}: the resource must be a file inside package {package!r}")
    try:
        root = resources.files(package)
    except ModuleNotFoundError:
        raise WordstatsError(f"{label}: package {package!r} is not installed") from None
    except (TypeError, ValueError, ImportError) as exc:
        raise WordstatsError(f"{label}: {package!r} is not a package with data files ({exc})") from None
    if not isinstance(root, Path):
        raise WordstatsError(f"{label}: package {package!r} is not installed as files")
    path = Path(root, resource)
    if not path.resolve().is_relative_to(Path(root).resolve()):
        raise WordstatsError(f"{label}: the resource leaves package {package!r}")
    try:
        return read_regular_file(path, "word list", MAX_SOURCE_BYTES)
    except WordstatsError as exc:
        if not path.exists():
            raise WordstatsError(f"{label}: no file {resource!r} in package {package!r}") from None
        raise WordstatsError(f"{label}: {exc}") from None


class _SetUnpickler(pickle.Unpickler):
    """Unpickle only plain containers of strings (package data files), never arbitrary objects."""

    def find_class(self, module, name):
        """Allow only set, frozenset and list."""
        if module == "builtins" and name in ("set", "frozenset", "list"):
            return getattr(__import__("builtins"), name)
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}")


BINARY_SAMPLE = 1 << 20  # bytes of a source looked at to tell text from binary
BINARY_SHARE = 0.05  # text has (almost) no control characters and is (almost all) UTF-8
BINARY_MIN_ODD = 8  # a few stray bytes (a Latin-1 line in a short list) do not make a file binary
_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\r\f\v") + b"\x7f"


def looks_binary(data: bytes) -> bool:
    """Whether bytes are binary rather than text: a NUL, or more than BINARY_SHARE (and BINARY_MIN_ODD) of
    the sample's bytes control characters or not UTF-8."""
    sample = data[:BINARY_SAMPLE]
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    control = len(sample) - len(sample.translate(None, _CONTROL))
    undecodable = sample.decode("utf-8", "replace").count("\ufffd") - sample.decode("utf-8", "ignore").count("\ufffd")
    odd = control + undecodable
    return odd > BINARY_MIN_ODD and odd / len(sample) > BINARY_SHARE


def source_lines(text: SourceText) -> list[bytes]:
    """The raw lines of a source (a pickled set gives one line per entry, sorted)."""
    label, data = text.source.where, text.data
    if text.source.format == "pickle":
        try:
            entries = _SetUnpickler(io.BytesIO(data)).load()
        except Exception as exc:  # any failure to unpickle is bad input, told in one line
            raise WordstatsError(f"{label}: not a pickled set of words ({first_line(exc)})") from None
        if not isinstance(entries, (set, frozenset, list)):
            raise WordstatsError(f"{label}: the pickle holds a {type(entries).__name__}, not a set or list of words")
        if not all(type(e) is str for e in entries):
            raise WordstatsError(f"{label}: the pickled set holds something other than strings")
        if sum(map(len, entries)) > MAX_SOURCE_BYTES:  # one shared string referenced many times stays small pickled
            raise WordstatsError(f"{label}: the pickled words add up to more than {MAX_SOURCE_BYTES:,} characters")
        return [e.encode("utf-8") for e in sorted(entries)]
    if looks_binary(data):
        raise WordstatsError(f"{label}: looks like a binary file (many control or undecodable bytes), not a word list")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the newline that ends the last line does not start another
    return lines
