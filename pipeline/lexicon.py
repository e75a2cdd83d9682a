"""Read and normalise word lists: the ingest stage (words.parquet and its report)."""

from __future__ import annotations

import hashlib
import io
import itertools
import math
import pickle
import unicodedata
from dataclasses import dataclass
from importlib import resources

import numpy as np
import polars as pl

from pipeline.config import LETTERS, LexiconSpec, Source, TileSet
from pipeline.errors import WordstatsError
from pipeline.tiles import letter_matrix, letter_values

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


def fold_accents(entry: str) -> str:
    """Strip diacritics: NFKD, then drop combining marks (café → cafe)."""
    return "".join(c for c in unicodedata.normalize("NFKD", entry) if not unicodedata.combining(c))


def letters_only(entry: str, spec: LexiconSpec) -> tuple[str | None, str | None]:
    """The entry as ASCII letters (accents folded when the rules allow), or None and the reason."""
    if entry.isascii() and entry.isalpha():
        return entry, None
    folded = fold_accents(entry)
    if not (folded.isascii() and folded.isalpha()):
        return None, "non_letter"
    if not spec.fold_accents:
        return None, "accented"
    return folded, None


def normalise(entry: str, spec: LexiconSpec) -> tuple[str | None, str | None]:
    """An entry as an upper-case A–Z word, or None and the reason it is dropped."""
    word, reason = letters_only(entry, spec)
    if reason:
        return None, reason
    if spec.drop_capitalised and word[0].isupper():
        return None, "capitalised"
    if len(word) < spec.min_length:
        return None, "too_short"
    if spec.max_length is not None and len(word) > spec.max_length:
        return None, "too_long"
    return word.upper(), None


@dataclass
class SourceEntries:
    """A source split into entries, with the lines that held none."""

    entries: list[str]
    undecodable: list[str]
    lines: int
    blank_or_comment_lines: int


def split_entries(text: SourceText) -> SourceEntries:
    """The white-space separated entries of a source; `#` starts a comment; bad UTF-8 lines set aside."""
    lines = source_lines(text)
    entries: list[str] = []
    undecodable: list[str] = []
    blank = 0
    for raw in lines:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            undecodable.append(raw.decode("utf-8", "backslashreplace"))
            continue
        tokens = line.split()
        if not tokens or tokens[0].startswith("#"):
            blank += 1
            continue
        if "#" in line:
            tokens = tokens[: next((i for i, t in enumerate(tokens) if t.startswith("#")), len(tokens))]
        entries.extend(tokens)
    return SourceEntries(entries, undecodable, len(lines), blank)


def classify(entries: list[str], spec: LexiconSpec) -> pl.DataFrame:
    """Each entry with its normalised `word`, or the `reason` it is dropped (`normalise`, vectorised)."""
    frame = pl.DataFrame({"entry": pl.Series(entries, dtype=pl.String)})
    simple = frame["entry"].str.contains(r"^[A-Za-z]+$")
    if simple.all():
        frame = frame.with_columns(word=pl.col("entry"), reason=pl.lit(None, pl.String))
    else:  # the slow path, for the few entries that are not plain ASCII letters
        folded = [(e, None) if plain else letters_only(e, spec) for e, plain in zip(entries, simple)]
        frame = frame.with_columns(word=pl.Series([w for w, _ in folded], dtype=pl.String),
                                   reason=pl.Series([r for _, r in folded], dtype=pl.String))
    w, n = pl.col("word"), pl.col("word").str.len_chars()
    checks = [(w.str.contains("^[A-Z]") if spec.drop_capitalised else pl.lit(False), "capitalised"),
              (n < spec.min_length, "too_short"),
              (n > spec.max_length if spec.max_length is not None else pl.lit(False), "too_long")]
    rule = pl.when(pl.col("reason").is_not_null()).then(pl.col("reason"))
    for cond, name in checks:
        rule = rule.when(cond).then(pl.lit(name))
    frame = frame.with_columns(reason=rule.otherwise(None))
    return frame.with_columns(word=pl.when(pl.col("reason").is_null()).then(w.str.to_uppercase()))


def _example(entry: str) -> str:
    """An entry as the report quotes it: cut to EXAMPLE_CHARS, with its length when cut."""
    return entry if len(entry) <= EXAMPLE_CHARS else entry[:EXAMPLE_CHARS] + f"… ({len(entry):,} chars)"


def parse_words(texts: list[SourceText], spec: LexiconSpec) -> tuple[list[str], dict]:
    """The lexicon's distinct words, sorted, and the report of what was dropped and why."""
    parts = [split_entries(t) for t in texts]
    frame = classify([e for p in parts for e in p.entries], spec)
    undecodable = [u for p in parts for u in p.undecodable]
    dropped = {r: {"count": 0, "examples": []} for r in REASONS}
    dropped["undecodable"] = {"count": len(undecodable), "examples": [_example(u) for u in undecodable[:MAX_EXAMPLES]]}
    for reason, group in frame.filter(pl.col("reason").is_not_null()).group_by("reason", maintain_order=True):
        dropped[reason[0]] = {"count": group.height,
                              "examples": [_example(e) for e in group["entry"].head(MAX_EXAMPLES)]}
    valid = frame["word"].drop_nulls()
    words = valid.unique().sort()
    report = {
        "lexicon": spec.name,
        "sources": [{"source": t.source.label, "sha256": t.sha256, "lines": p.lines,
                     "entries": len(p.entries) + len(p.undecodable)} for t, p in zip(texts, parts)],
        "lines_read": sum(p.lines for p in parts),
        "blank_or_comment_lines": sum(p.blank_or_comment_lines for p in parts),
        "entries": frame.height + len(undecodable),
        "kept": words.len(),
        "duplicates": valid.len() - words.len(),
        "dropped_total": sum(d["count"] for d in dropped.values()),
        "dropped": dropped,
    }
    where = ", ".join(t.source.where for t in texts)
    if report["entries"] == 0:
        raise WordstatsError(f"{where}: the word list is empty (no entries, only blank or comment lines)")
    if report["kept"] == 0:
        top = max(REASONS, key=lambda r: dropped[r]["count"])
        raise WordstatsError(f"{where}: no word kept out of {report['entries']:,} entries "
                             f"(most dropped as {top}: {dropped[top]['count']:,}); check the lexicon rules")
    return words.to_list(), report


def zipf_table() -> pl.DataFrame:
    """wordfreq's English list as (lower-case word, zipf), with zipf_frequency's exact rounding."""
    import wordfreq

    pack = wordfreq.get_frequency_list("en", wordlist="best")
    zipf_of_bucket = []
    for index in range(len(pack)):  # wordfreq stores frequencies in centibel buckets: 10 ** (-index / 100)
        f = 10 ** (-index / 100)
        f = round(f, math.floor(-math.log(f, 10)) + 3)
        zipf_of_bucket.append(round(math.log(f, 10) + 9, 2))
    sizes = np.fromiter(map(len, pack), dtype=np.int64, count=len(pack))
    return pl.DataFrame({
        "key": pl.Series(list(itertools.chain.from_iterable(pack)), dtype=pl.String),
        "zipf": pl.Series(np.repeat(np.array(zipf_of_bucket), sizes), dtype=pl.Float64),
    }).unique("key", keep="last", maintain_order=True)  # a word in two buckets: the later one wins, as in wordfreq


def zipf_frequencies(words: pl.Series) -> pl.Series:
    """English Zipf frequency of each word from wordfreq (as zipf_frequency gives it), 0.0 when unknown."""
    keys = pl.DataFrame({"key": words.str.to_lowercase()})
    return keys.join(zipf_table(), on="key", how="left", maintain_order="left")["zipf"].fill_null(0.0)


def alphagrams(counts: np.ndarray) -> pl.Series:
    """Each word's letters in alphabetical order, built from its letter counts."""
    n = counts.shape[0]
    letters = np.tile(np.frombuffer(LETTERS.encode(), dtype=np.uint8), n)
    data = np.repeat(letters, counts.ravel())
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts.sum(axis=1), out=offsets[1:])
    import pyarrow as pa

    array = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data.tobytes()))
    return pl.Series("alphagram", pl.from_arrow(array), dtype=pl.String)


def word_table(words: list[str], tiles: TileSet) -> pl.DataFrame:
    """The words table: one row per word with its letter statistics, Scrabble value (`tiles`) and frequency."""
    word = pl.Series("word", words, dtype=pl.String)
    counts = letter_matrix(word)
    present = counts > 0
    bits = (1 << np.arange(26, dtype=np.uint64)).astype(np.uint64)
    vowel_idx = [LETTERS.index(v) for v in VOWELS]
    return pl.DataFrame({
        "word": word,
        "length": pl.Series(counts.sum(axis=1), dtype=pl.UInt32),
        "alphagram": alphagrams(counts),
        "letter_mask": pl.Series((present.astype(np.uint64) @ bits).astype(np.uint32), dtype=pl.UInt32),
        "vowels": pl.Series(counts[:, vowel_idx].sum(axis=1), dtype=pl.UInt32),
        "distinct_letters": pl.Series(present.sum(axis=1), dtype=pl.UInt8),
        "scrabble_value": pl.Series(counts @ letter_values(tiles), dtype=pl.UInt32),
        "zipf": zipf_frequencies(word),
    })


def ingest(texts: list[SourceText], spec: LexiconSpec, tiles: TileSet) -> tuple[pl.DataFrame, dict]:
    """The ingest stage: raw sources → (words table, ingest report)."""
    words, report = parse_words(texts, spec)
    return word_table(words, tiles), report


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
