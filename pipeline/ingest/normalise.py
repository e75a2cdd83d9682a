"""Normalise entries to upper-case words and count what is dropped, by reason."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from pipeline.core.config import MAX_WORD_LENGTH, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.ingest.sources import (
    EXAMPLE_CHARS,
    MAX_EXAMPLES,
    REASONS,
    SourceFile,
    SourceText,
    line_batches,
)


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
    if word is None:
        return None, reason
    if spec.drop_capitalised and word[0].isupper():
        return None, "capitalised"
    if len(word) < spec.min_length:
        return None, "too_short"
    if len(word) > (spec.max_length or MAX_WORD_LENGTH):
        return None, "too_long"
    return word.upper(), None


@dataclass
class SourceEntries:
    """A batch of a source's lines split into entries, with the lines that held none."""

    entries: list[str]
    undecodable: list[str]
    lines: int
    blank_or_comment_lines: int


def split_entries(lines: list[bytes]) -> SourceEntries:
    """The white-space separated entries of raw lines; `#` starts a comment; bad UTF-8 lines set aside."""
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
        frame = frame.with_columns(
            word=pl.Series([w for w, _ in folded], dtype=pl.String),
            reason=pl.Series([r for _, r in folded], dtype=pl.String),
        )
    w, n = pl.col("word"), pl.col("word").str.len_chars()
    checks = [
        (w.str.contains("^[A-Z]") if spec.drop_capitalised else pl.lit(False), "capitalised"),
        (n < spec.min_length, "too_short"),
        (n > (spec.max_length or MAX_WORD_LENGTH), "too_long"),
    ]
    rule: Any = pl.when(pl.col("reason").is_not_null()).then(pl.col("reason"))
    for cond, name in checks:
        rule = rule.when(cond).then(pl.lit(name))
    frame = frame.with_columns(reason=rule.otherwise(None))
    return frame.with_columns(word=pl.when(pl.col("reason").is_null()).then(w.str.to_uppercase()))


def _example(entry: str) -> str:
    """An entry as the report quotes it: cut to EXAMPLE_CHARS, with its length when cut."""
    return entry if len(entry) <= EXAMPLE_CHARS else entry[:EXAMPLE_CHARS] + f"… ({len(entry):,} chars)"


class DistinctWords:
    """The distinct words of a stream of batches, merged as they come: memory in proportion to the distinct
    words, not to the entries (each merge at least doubles what has been merged, so the work stays linear)."""

    def __init__(self) -> None:
        self.merged = pl.Series("word", [], dtype=pl.String)
        self.parts: list[pl.Series] = []
        self.waiting = 0

    def add(self, words: pl.Series) -> None:
        """Take in a batch of words."""
        part = words.unique()
        self.parts.append(part)
        self.waiting += part.len()
        if self.waiting > max(self.merged.len(), MERGE_AFTER):
            self.merge()

    def merge(self) -> pl.Series:
        """The distinct words so far."""
        if self.parts:
            self.merged = pl.concat([self.merged, *self.parts]).unique()
            self.parts, self.waiting = [], 0
        return self.merged


MERGE_AFTER = 1 << 16  # words waiting before a merge, at the least


@dataclass
class SourceWords:
    """One source once read: its distinct kept words and what the report counts (dropped entries by reason,
    with their first examples)."""

    label: str
    where: str
    sha256: str
    words: pl.Series
    valid: int  # entries kept, duplicates counted
    lines: int
    blank_or_comment_lines: int
    entries: int  # undecodable lines counted as entries
    dropped: dict[str, dict[str, Any]] = field(default_factory=dict)


def read_words(text: SourceText | SourceFile, spec: LexiconSpec) -> SourceWords:
    """Read a source a batch of lines at a time: its distinct words under the lexicon's rules and its counts
    (memory in proportion to the words kept, not to the source)."""
    words = DistinctWords()
    dropped: dict[str, dict[str, Any]] = {r: {"count": 0, "examples": []} for r in REASONS}
    valid = lines = blank = entries = 0
    for batch in line_batches(text):
        part = split_entries(batch)
        frame = classify(part.entries, spec)
        kept = frame["word"].drop_nulls()
        words.add(kept)
        valid += kept.len()
        lines += part.lines
        blank += part.blank_or_comment_lines
        entries += frame.height + len(part.undecodable)
        _count(dropped["undecodable"], len(part.undecodable), part.undecodable)
        for reason, group in frame.filter(pl.col("reason").is_not_null()).group_by("reason", maintain_order=True):
            _count(dropped[str(reason[0])], group.height, group["entry"].head(MAX_EXAMPLES).to_list())
    return SourceWords(
        text.source.label, text.source.where, text.sha256, words.merge(), valid, lines, blank, entries, dropped
    )


def _count(tally: dict[str, Any], count: int, examples: list[str]) -> None:
    """Add a batch's dropped entries of one reason to its tally: the count, and examples up to MAX_EXAMPLES."""
    tally["count"] += count
    room = MAX_EXAMPLES - len(tally["examples"])
    tally["examples"].extend(_example(e) for e in examples[: max(room, 0)])


def merge_sources(sources: list[SourceWords], spec: LexiconSpec) -> tuple[pl.Series, dict]:
    """The lexicon's distinct words, sorted, and the report of what was dropped and why, from its sources."""
    words = pl.concat([s.words for s in sources]).unique().sort() if sources else pl.Series("word", [], pl.String)
    dropped: dict[str, dict[str, Any]] = {r: {"count": 0, "examples": []} for r in REASONS}
    for source in sources:
        for reason, tally in source.dropped.items():
            dropped[reason]["count"] += tally["count"]
            dropped[reason]["examples"] = (dropped[reason]["examples"] + tally["examples"])[:MAX_EXAMPLES]
    report: dict[str, Any] = {
        "lexicon": spec.name,
        "sources": [{"source": s.label, "sha256": s.sha256, "lines": s.lines, "entries": s.entries} for s in sources],
        "lines_read": sum(s.lines for s in sources),
        "blank_or_comment_lines": sum(s.blank_or_comment_lines for s in sources),
        "entries": sum(s.entries for s in sources),
        "kept": words.len(),
        "duplicates": sum(s.valid for s in sources) - words.len(),
        "dropped_total": sum(d["count"] for d in dropped.values()),
        "dropped": dropped,
    }
    where = ", ".join(s.where for s in sources)
    if report["entries"] == 0:
        raise WordstatsError(f"{where}: the word list is empty (no entries, only blank or comment lines)")
    if report["kept"] == 0:
        top = max(REASONS, key=lambda r: dropped[r]["count"])
        raise WordstatsError(
            f"{where}: no word kept out of {report['entries']:,} entries "
            f"(most dropped as {top}: {dropped[top]['count']:,}); check the lexicon rules"
        )
    return words, report
