"""Safe by default: the block list and the not-for-the-classroom topics, each entry with all its forms."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import polars as pl

VOWELS = "aeiou"
POS = ("NOUN", "VERB", "ADJ")  # parts of speech whose inflections lemminflect generates
SUFFIX_POS = {"y": ("ADJ",), "ish": ()}  # what a derived word is (shitty → shittier); nouns otherwise


def inflections(word: str, pos: tuple[str, ...] = POS) -> set[str]:
    """Every inflected form of `word` (lower case) from lemminflect's dictionary, or, for a word it does not
    know, built by its rules for the parts of speech `pos`; and the word itself."""
    import lemminflect

    forms = {word}
    known = lemminflect.getAllInflections(word)
    tables = (known,) if known else tuple(lemminflect.getAllInflectionsOOV(word, upos=p) for p in pos)
    for table in tables:
        for values in table.values():
            forms.update(v.lower() for v in values)
    return {f for f in forms if f.isalpha()}


def derivations(word: str, suffixes: Iterable[str]) -> set[str]:
    """`word` + each suffix, spelled as English does: a final consonant after one short vowel doubled
    before a vowel (shit → shitty), a final silent e dropped before a vowel (rape → raping)."""
    out: set[str] = set()
    if len(word) < 3:
        return out
    doubles = word[-1] not in VOWELS + "wxy" and word[-2] in VOWELS and word[-3] not in VOWELS
    silent_e = word.endswith("e") and word[-2] not in VOWELS
    for suffix in suffixes:
        if suffix[0] in VOWELS + "y" and doubles:
            out.add(word + word[-1] + suffix)
        elif suffix[0] in VOWELS + "y" and silent_e:
            out.add(word[:-1] + suffix)
        else:
            out.add(word + suffix)
    return out


def expand(words: Iterable[str], suffixes: Iterable[str]) -> set[str]:
    """The words with their inflections, their derived forms and the derived forms' inflections."""
    out: set[str] = set()
    for word in words:
        out |= inflections(word)
        for suffix in suffixes:
            for d in derivations(word, (suffix,)):
                out |= inflections(d, SUFFIX_POS.get(suffix, ("NOUN",)))
    return out


@dataclass(frozen=True)
class Exclusions:
    """What lists leave out: offensive words, topics not for the classroom, roots, and what is allowed."""

    offensive: frozenset[str]  # upper case, every form
    topics: dict[str, frozenset[str]]  # topic → upper-case words, every form
    roots: tuple[str, ...]  # upper case; any word containing one is offensive
    allow: frozenset[str]
    entries: int  # entries before expansion (block list, additions, slurs, topic words)

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """Every excluded word (offensive and topics), upper case."""
        out = set(self.offensive)
        for words in self.topics.values():
            out |= words
        return frozenset(out - self.allow)

    def excluded(self, word: str) -> bool:
        """Whether a lexicon word (upper case) is left out of lists by default."""
        word = word.upper()
        if word in self.allow:
            return False
        return word in self.words or any(r in word for r in self.roots)

    def reason(self, word: str) -> str | None:
        """Why a word is left out: "offensive", a topic name, or None."""
        word = word.upper()
        if word in self.allow:
            return None
        if word in self.offensive or any(r in word for r in self.roots):
            return "offensive"
        for topic, words in self.topics.items():
            if word in words:
                return topic
        return None

    def keep(self) -> pl.Expr:
        """A polars filter keeping the words not left out (column `word`, upper case)."""
        word = pl.col("word")
        kept = ~word.is_in(sorted(self.words))
        if self.roots:
            kept = kept & ~word.str.contains("|".join(re.escape(r) for r in self.roots))
        return kept | word.is_in(sorted(self.allow))


def build_exclusions(
    entries: Iterable[str],
    topics: dict[str, Iterable[str]],
    roots: Iterable[str],
    allow: Iterable[str],
    suffixes: Iterable[str],
) -> Exclusions:
    """Expand every entry into its inflected and derived forms and every topic word into its inflected
    forms (ValueError: an allowed word that nothing blocks)."""
    entries = sorted({e.lower() for e in entries})
    suffixes = tuple(suffixes)
    allow_set = frozenset(a.upper() for a in allow)
    offensive = frozenset(w.upper() for w in expand(entries, suffixes))
    expanded = {t: frozenset(w.upper() for w in expand(ws, ())) for t, ws in topics.items()}
    roots = tuple(r.upper() for r in roots)
    everything = offensive.union(*expanded.values())
    for word in sorted(allow_set):
        if word not in everything and not any(r in word for r in roots):
            raise ValueError(word)
    n = len(entries) + sum(len(set(ws)) for ws in topics.values())
    return Exclusions(offensive - allow_set, {t: ws - allow_set for t, ws in expanded.items()}, roots, allow_set, n)
