"""Normalise entries to upper-case words and count what is dropped, by reason."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import polars as pl

from pipeline.core.config import MAX_WORD_LENGTH, LexiconSpec
from pipeline.core.errors import WordstatsError
from pipeline.ingest.sources import (
    EXAMPLE_CHARS,
    MAX_EXAMPLES,
    REASONS,
    SourceText,
    source_lines,
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


def parse_words(texts: list[SourceText], spec: LexiconSpec) -> tuple[list[str], dict]:
    """The lexicon's distinct words, sorted, and the report of what was dropped and why."""
    parts = [split_entries(t) for t in texts]
    frame = classify([e for p in parts for e in p.entries], spec)
    undecodable = [u for p in parts for u in p.undecodable]
    dropped: dict[str, dict[str, Any]] = {r: {"count": 0, "examples": []} for r in REASONS}
    dropped["undecodable"] = {"count": len(undecodable), "examples": [_example(u) for u in undecodable[:MAX_EXAMPLES]]}
    for reason, group in frame.filter(pl.col("reason").is_not_null()).group_by("reason", maintain_order=True):
        dropped[reason[0]] = {
            "count": group.height,
            "examples": [_example(e) for e in group["entry"].head(MAX_EXAMPLES)],
        }
    valid = frame["word"].drop_nulls()
    words = valid.unique().sort()
    report: dict[str, Any] = {
        "lexicon": spec.name,
        "sources": [
            {
                "source": t.source.label,
                "sha256": t.sha256,
                "lines": p.lines,
                "entries": len(p.entries) + len(p.undecodable),
            }
            for t, p in zip(texts, parts)
        ],
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
        raise WordstatsError(
            f"{where}: no word kept out of {report['entries']:,} entries "
            f"(most dropped as {top}: {dropped[top]['count']:,}); check the lexicon rules"
        )
    return words.to_list(), report
