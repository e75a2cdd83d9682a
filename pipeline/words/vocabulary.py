"""The reviewed classroom vocabulary: a decision for every word a children's sheet may print (default-deny).

Every word of every children's pool (grades K to 5 and the Dolch words, over every bundled lexicon) was read
and given a decision: keep, or exclude with a category. The decisions ship as data
(`data/raw/classroom-review.tsv`); teachers add or overrule decisions in `configs/wordlists.toml` ([review]).
A children's list prints only words with a keep decision; a word without a decision is left out and counted.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.errors import WordstatsError

DECISIONS = ("keep", "exclude")
# Why a word is excluded: the category key and its plain-words name.
CATEGORIES: dict[str, str] = {
    "sexual": "sexual or double meaning",
    "violence": "violence and weapons",
    "punishment": "punishment and cruelty",
    "death": "death and dying",
    "drugs-alcohol": "drugs, alcohol, smoking and gambling",
    "slurs-insults": "slurs and insults",
    "body-toilet": "body and toilet",
    "frightening": "frightening",
    "identity": "identity words used as insults in school",
    "archaic": "archaic, obscure or not a spelling word",
}
HEADER = ("word", "decision", "category", "note")
MAX_REVIEW_BYTES = 16 << 20
WORD_RE = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Decision:
    """One word's review: keep or exclude, the category of an exclusion, a short note, and who decided."""

    decision: str
    category: str = ""
    note: str = ""
    by: str = "review"  # "review" (the shipped file) or "teacher" (configs/wordlists.toml)


@dataclass(frozen=True)
class Vocabulary:
    """Every reviewed word (upper case) and its decision, the teacher's overrides applied."""

    decisions: dict[str, Decision]

    @functools.cached_property
    def kept(self) -> frozenset[str]:
        """The words a children's sheet may print."""
        return frozenset(w for w, d in self.decisions.items() if d.decision == "keep")

    @functools.cached_property
    def excluded(self) -> dict[str, str]:
        """The excluded words and their categories."""
        return {w: d.category for w, d in self.decisions.items() if d.decision == "exclude"}

    def decision(self, word: str) -> Decision | None:
        """The decision on a word (any case), or None when it was never reviewed."""
        return self.decisions.get(word.upper())


def parse_review(data: bytes, path: Path) -> dict[str, Decision]:
    """The decisions of a review file: a header `word decision category note`, then one tab-separated row per
    word (lower-case a-z); a one-line error naming the file and line for anything else."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: the review file is not UTF-8 text") from None
    lines = text.splitlines()
    if not lines or tuple(lines[0].split("\t")) != HEADER:
        raise WordstatsError(f"{path}: line 1: expected the header {' '.join(HEADER)!r} (tab-separated)")
    out: dict[str, Decision] = {}
    for number, line in enumerate(lines[1:], 2):
        cells = line.split("\t")
        if len(cells) != len(HEADER):
            raise WordstatsError(f"{path}: line {number}: expected {len(HEADER)} tab-separated fields")
        word, decision, category, note = cells
        if not WORD_RE.fullmatch(word):
            raise WordstatsError(f"{path}: line {number}: {word!r} is not a lower-case word (letters a-z)")
        check_decision(decision, category, f"{path}: line {number}")
        if word.upper() in out:
            raise WordstatsError(f"{path}: line {number}: {word!r} is reviewed twice")
        out[word.upper()] = Decision(decision, category, note)
    return out


def check_decision(decision: str, category: str, where: str) -> None:
    """A one-line error unless `decision` is keep (no category) or exclude with a known category."""
    if decision not in DECISIONS:
        raise WordstatsError(f"{where}: decision {decision!r}: choose keep or exclude")
    if decision == "keep" and category:
        raise WordstatsError(f"{where}: a keep decision takes no category (got {category!r})")
    if decision == "exclude" and category not in CATEGORIES:
        raise WordstatsError(f"{where}: category {category!r}: choose {', '.join(CATEGORIES)}")


@functools.lru_cache(maxsize=4)
def read_review(path: Path, sha256: str | None) -> dict[str, Decision]:
    """The shipped review file's decisions (checked against its pinned sha256)."""
    from pipeline.core.sections import read_regular_file

    data = read_regular_file(path, "review file", MAX_REVIEW_BYTES)
    if sha256 and hashlib.sha256(data).hexdigest() != sha256:
        raise WordstatsError(f"{path}: sha256 differs from field review.sha256 of the word-list settings")
    return parse_review(data, path)


def vocabulary(
    path: Path, sha256: str | None, keep: tuple[str, ...], exclude: tuple[tuple[str, str], ...]
) -> Vocabulary:
    """The review file's decisions with the teacher's own: `keep` words and `exclude` (word, category) pairs
    replace the file's decision on the same word, or add one."""
    decisions = dict(read_review(path, sha256))
    for word in keep:
        decisions[word.upper()] = Decision("keep", by="teacher")
    for word, category in exclude:
        decisions[word.upper()] = Decision("exclude", category, by="teacher")
    return Vocabulary(decisions)
