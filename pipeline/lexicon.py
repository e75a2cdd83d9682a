"""Read and normalise word lists: the ingest stage (words.parquet and its report)."""

from __future__ import annotations

import hashlib
import io
import math
import pickle
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources

import numpy as np
import polars as pl

from pipeline.config import LETTERS, LexiconSpec, Source, TileSet
from pipeline.errors import WordstatsError

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


@dataclass
class IngestReport:
    """Counts of what happened to each line and entry of a lexicon's sources."""

    lexicon: str
    sources: list[dict] = field(default_factory=list)
    lines_read: int = 0
    blank_or_comment_lines: int = 0
    entries: int = 0
    kept: int = 0
    duplicates: int = 0
    dropped: dict[str, int] = field(default_factory=lambda: {r: 0 for r in REASONS})
    examples: dict[str, list[str]] = field(default_factory=lambda: {r: [] for r in REASONS})

    def drop(self, reason: str, entry: str) -> None:
        """Count one dropped entry and keep it as an example if there is room."""
        self.dropped[reason] += 1
        if len(self.examples[reason]) < MAX_EXAMPLES:
            shown = entry if len(entry) <= EXAMPLE_CHARS else entry[:EXAMPLE_CHARS] + f"… ({len(entry):,} chars)"
            self.examples[reason].append(shown)

    def as_dict(self) -> dict:
        """The JSON form of the report."""
        return {
            "lexicon": self.lexicon,
            "sources": self.sources,
            "lines_read": self.lines_read,
            "blank_or_comment_lines": self.blank_or_comment_lines,
            "entries": self.entries,
            "kept": self.kept,
            "duplicates": self.duplicates,
            "dropped_total": sum(self.dropped.values()),
            "dropped": {r: {"count": self.dropped[r], "examples": self.examples[r]} for r in REASONS},
        }


def fold_accents(entry: str) -> str:
    """Strip diacritics: NFKD, then drop combining marks (café → cafe)."""
    return "".join(c for c in unicodedata.normalize("NFKD", entry) if not unicodedata.combining(c))


def normalise(entry: str, spec: LexiconSpec) -> tuple[str | None, str | None]:
    """An entry as an upper-case A–Z word, or None and the reason it is dropped."""
    word = entry
    if not (word.isascii() and word.isalpha()):
        folded = fold_accents(word)
        if not (folded.isascii() and folded.isalpha()):
            return None, "non_letter"
        if not spec.fold_accents:
            return None, "accented"
        word = folded
    if spec.drop_capitalised and word[0].isupper():
        return None, "capitalised"
    if len(word) < spec.min_length:
        return None, "too_short"
    if spec.max_length is not None and len(word) > spec.max_length:
        return None, "too_long"
    return word.upper(), None


def parse_words(texts: list[SourceText], spec: LexiconSpec) -> tuple[list[str], IngestReport]:
    """The lexicon's distinct words, sorted, and the report of what was dropped and why."""
    report = IngestReport(spec.name)
    seen: set[str] = set()
    for text in texts:
        lines = source_lines(text)
        entries_before = report.entries
        for raw in lines:
            report.lines_read += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                report.entries += 1
                report.drop("undecodable", raw.decode("utf-8", "backslashreplace"))
                continue
            tokens = line.split()
            if not tokens or tokens[0].startswith("#"):
                report.blank_or_comment_lines += 1
                continue
            for token in tokens:
                if token.startswith("#"):
                    break
                report.entries += 1
                word, reason = normalise(token, spec)
                if reason:
                    report.drop(reason, token)
                elif word in seen:
                    report.duplicates += 1
                else:
                    seen.add(word)
        report.sources.append({
            "source": text.source.label,
            "sha256": text.sha256,
            "lines": len(lines),
            "entries": report.entries - entries_before,
        })
    labels = ", ".join(t.source.where for t in texts)
    if report.entries == 0:
        raise WordstatsError(f"{labels}: the word list is empty (no entries, only blank or comment lines)")
    if not seen:
        top = max(REASONS, key=lambda r: report.dropped[r])
        raise WordstatsError(
            f"{labels}: no word kept out of {report.entries:,} entries "
            f"(most dropped as {top}: {report.dropped[top]:,}); check the lexicon rules"
        )
    report.kept = len(seen)
    return sorted(seen), report


def letter_counts(words: list[str]) -> np.ndarray:
    """An (n_words, 26) matrix of letter counts."""
    n = len(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).astype(np.int64) - ord("A")
    owner = np.repeat(np.arange(n, dtype=np.int64), lengths)
    return np.bincount(owner * 26 + codes, minlength=n * 26).reshape(n, 26)


def zipf_frequencies(words: list[str]) -> np.ndarray:
    """English Zipf frequency of each word from wordfreq (same rounding as zipf_frequency), 0.0 if unknown."""
    import wordfreq

    freqs = wordfreq.get_frequency_dict("en", wordlist="best")
    out = np.zeros(len(words), dtype=np.float64)
    for i, word in enumerate(words):
        f = freqs.get(word.lower())
        if f:
            f = round(f, math.floor(-math.log(f, 10)) + 3)
            out[i] = round(math.log(f, 10) + 9, 2)
    return out


def word_table(words: list[str], values: TileSet) -> pl.DataFrame:
    """The words table: one row per word with its letter statistics and frequency."""
    counts = letter_counts(words)
    present = counts > 0
    bits = (1 << np.arange(26, dtype=np.uint64)).astype(np.uint64)
    letter_values = np.array([values.values[c] for c in LETTERS], dtype=np.int64)
    vowel_idx = [LETTERS.index(v) for v in VOWELS]
    return pl.DataFrame({
        "word": pl.Series(words, dtype=pl.String),
        "length": pl.Series(counts.sum(axis=1), dtype=pl.UInt32),
        "alphagram": pl.Series(["".join(sorted(w)) for w in words], dtype=pl.String),
        "letter_mask": pl.Series((present.astype(np.uint64) @ bits).astype(np.uint32), dtype=pl.UInt32),
        "vowels": pl.Series(counts[:, vowel_idx].sum(axis=1), dtype=pl.UInt32),
        "distinct_letters": pl.Series(present.sum(axis=1), dtype=pl.UInt8),
        "scrabble_value": pl.Series(counts @ letter_values, dtype=pl.UInt32),
        "zipf": pl.Series(zipf_frequencies(words), dtype=pl.Float64),
    })


def ingest(texts: list[SourceText], spec: LexiconSpec, values: TileSet) -> tuple[pl.DataFrame, dict]:
    """The ingest stage: raw sources → (words table, ingest report)."""
    words, report = parse_words(texts, spec)
    return word_table(words, values), report.as_dict()


def params(config, spec: LexiconSpec | None) -> dict:
    """The ingest parameters recorded in provenance: the lexicon rules and the tile values used."""
    return {
        "min_length": spec.min_length if spec else None,
        "max_length": spec.max_length if spec else None,
        "drop_capitalised": spec.drop_capitalised if spec else None,
        "fold_accents": spec.fold_accents if spec else None,
        "tile_values": dict(sorted(scrabble_tiles(config).values.items())),
    }


def scrabble_tiles(config) -> TileSet:
    """The standard English tile set that gives `scrabble_value` ([tiles.scrabble] in the config)."""
    if "scrabble" not in config.tiles:
        raise WordstatsError(f"{config.path}: field tiles.scrabble: missing (the letter values for scrabble_value)")
    return config.tiles["scrabble"]


def build(inputs: dict, ctx) -> dict:
    """The ingest stage."""
    words, report = ingest(ctx.sources, ctx.spec, scrabble_tiles(ctx.config))
    return {"words.parquet": words, "ingest_report.json": report}
