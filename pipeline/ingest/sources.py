"""Read word-list sources safely: files, package resources and pickles, with a hash. A text file is read a
block at a time (its lines never all in memory at once); a pickle is read whole."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from pipeline.core.config import MAX_SOURCE_BYTES, PACKAGE_RE, Source
from pipeline.core.errors import WordstatsError, first_line
from pipeline.core.sections import read_regular_file

VOWELS = "AEIOU"
REASONS = ("undecodable", "non_letter", "accented", "capitalised", "too_short", "too_long")
MAX_EXAMPLES = 5
EXAMPLE_CHARS = 40
BLOCK_BYTES = 4 << 20  # a text source is read this much at a time (the first block holds BINARY_SAMPLE)


@dataclass
class SourceText:
    """A source's raw bytes in memory, with the label and hash that go into provenance."""

    source: Source
    data: bytes

    @property
    def sha256(self) -> str:
        """The sha256 of the raw bytes."""
        return hashlib.sha256(self.data).hexdigest()

    def blocks(self) -> Iterator[bytes]:
        """The bytes, as one block."""
        yield self.data


@dataclass
class SourceFile:
    """A text source read from its file a block at a time; its sha256 is known once every block is read, and
    is then checked against the config's."""

    source: Source
    path: Path
    digest: hashlib._Hash = field(default_factory=hashlib.sha256)

    @property
    def sha256(self) -> str:
        """The sha256 of the bytes read."""
        return self.digest.hexdigest()

    def blocks(self) -> Iterator[bytes]:
        """The file's bytes in blocks of BLOCK_BYTES: a regular file of at most MAX_SOURCE_BYTES (checked on the
        open file before reading, and again as it is read), whose sha256 is the config's when it gives one."""
        where = self.source.where
        fd = _open_regular(self.path, where)
        total = 0
        with os.fdopen(fd, "rb") as fh:
            while block := _read_block(fh, where):
                total += len(block)
                if total > MAX_SOURCE_BYTES:
                    raise WordstatsError(f"{self.path}: word list larger than the limit of {MAX_SOURCE_BYTES:,} bytes")
                self.digest.update(block)
                yield block
        if self.source.sha256 and self.sha256 != self.source.sha256:
            raise WordstatsError(f"{where}: sha256 is {self.sha256}, config expects {self.source.sha256}")


def _open_regular(path: Path, where: str) -> int:
    """A file descriptor of the regular word list file at `path`, within the size limit (a pipe, a device or
    a folder refused before anything is read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise WordstatsError(f"{path}: word list not found") from None
    except IsADirectoryError:
        raise WordstatsError(f"{path}: is a directory, not a word list") from None
    except OSError as exc:
        raise WordstatsError(f"{path}: cannot read word list ({exc.strerror or exc})") from None
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        problem = "is a directory, not a word list"
    elif not stat.S_ISREG(info.st_mode):
        problem = "not a regular file (a pipe, device or socket), refused as word list"
    elif info.st_size > MAX_SOURCE_BYTES:
        problem = f"word list larger than the limit of {MAX_SOURCE_BYTES:,} bytes"
    else:
        return fd
    os.close(fd)
    raise WordstatsError(f"{path}: {problem}")


def _read_block(fh, where: str) -> bytes:
    """The next block of a file (empty at its end)."""
    try:
        return fh.read(BLOCK_BYTES)
    except OSError as exc:
        raise WordstatsError(f"{where}: cannot read ({exc.strerror or exc})") from None


def read_source(source: Source) -> SourceText | SourceFile:
    """A source ready to read, with one-line errors for every failure: a text file (or text resource) read a
    block at a time, a pickle read whole now (its hash checked)."""
    path = source.path if source.path is not None else _resource_path(source)
    if source.format != "pickle":
        if source.path is not None:
            _check_regular(path, source)
        return SourceFile(source, path)
    data = read_regular_file(path, "word list", MAX_SOURCE_BYTES)
    text = SourceText(source, data)
    if source.sha256 and text.sha256 != source.sha256:
        raise WordstatsError(f"{source.where}: sha256 is {text.sha256}, config expects {source.sha256}")
    return text


def _check_regular(path: Path, source: Source) -> None:
    """Refuse a word list file that is missing, special or too large before any stage work starts."""
    os.close(_open_regular(path, source.where))


def _resource_path(source: Source) -> Path:
    """A package resource's file: a regular file inside the package's own folder, within the size limit."""
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
    if not path.exists():
        raise WordstatsError(f"{label}: no file {resource!r} in package {package!r}")
    try:
        os.close(_open_regular(path, label))
    except WordstatsError as exc:
        raise WordstatsError(f"{label}: {exc}") from None
    return path


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


def line_batches(text: SourceText | SourceFile) -> Iterator[list[bytes]]:
    """The raw lines of a source, a block's worth at a time (a pickled set gives one line per entry, sorted):
    a binary file is refused from its first block, a UTF-8 byte order mark dropped, and CR, LF and CRLF all end
    a line (a CRLF split between two blocks is one line end)."""
    if text.source.format == "pickle":
        assert isinstance(text, SourceText)
        yield pickled_entries(text)
        return
    first = True
    for piece in _whole_lines(_checked_text(text)):
        if first:
            piece = piece.removeprefix(b"\xef\xbb\xbf")
            first = False
        lines = piece.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        if lines[-1] == b"":
            lines.pop()  # the newline that ends the last line does not start another
        yield lines


def _checked_text(text: SourceText | SourceFile) -> Iterator[bytes]:
    """The source's blocks, refused as binary from the first one (which holds BINARY_SAMPLE bytes)."""
    first = True
    for block in text.blocks():
        if first and looks_binary(block):
            raise WordstatsError(
                f"{text.source.where}: looks like a binary file (many control or undecodable bytes), not a word list"
            )
        first = False
        yield block


def _whole_lines(blocks: Iterator[bytes]) -> Iterator[bytes]:
    """The bytes of `blocks`, cut after a line end; the last piece holds what follows the last line end (a
    line longer than a block is gathered from its blocks, each copied once)."""
    pending: list[bytes] = []
    for block in blocks:
        end = len(block) - 1 if block.endswith(b"\r") else len(block)  # a CR at the end may be half a CRLF
        cut = max(block.rfind(b"\n", 0, end), block.rfind(b"\r", 0, end))
        if cut < 0:
            pending.append(block)
            continue
        yield b"".join([*pending, block[: cut + 1]])
        pending = [block[cut + 1 :]]
    if any(pending):
        yield b"".join(pending)


def pickled_entries(text: SourceText) -> list[bytes]:
    """The entries of a pickled set or list of strings, sorted, as UTF-8 lines."""
    label, data = text.source.where, text.data
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
