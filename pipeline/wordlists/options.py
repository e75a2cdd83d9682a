"""Word-list options: parsing and checking lengths, letters and patterns; merging a preset."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pipeline.core.config import upper_ascii
from pipeline.core.errors import WordstatsError, pick

if TYPE_CHECKING:
    from pipeline.wordlists.settings import Settings

BANDS = ("easy", "medium", "hard")
SORTS = ("alpha", "frequency", "difficulty")
PAPERS = ("A4", "Letter")
# Preset fields and their types; each is also a command-line option (min_zipf → --min-zipf).
FIELDS: dict[str, type] = {
    "title": str,
    "length": str,
    "common": bool,
    "min_zipf": float,
    "top_frequent": int,
    "contains": str,
    "starts_with": str,
    "ends_with": str,
    "pattern": str,
    "hangman": str,
    "boggle_findable": bool,
    "min_find_rate": float,
    "count": int,
    "seed": int,
    "sort": str,
    "blanks": bool,
}
# On/off options given as bare flags (--common): absent means "as the preset says".
FLAGS = ("common", "boggle_findable")
# Options that replace each other: giving one on the command line drops the others from the preset.
GROUPS = ({"common", "min_zipf"},)


def flag(name: str) -> str:
    """The command-line option of field `name` (min_zipf → --min-zipf)."""
    return "--" + name.replace("_", "-")


def parse_length(text: str) -> tuple[int, int]:
    """A length option, "5" or "4-6", as (shortest, longest)."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", str(text))
    if not match:
        raise WordstatsError(f"--length {text!r}: give a number of letters (5) or a range (4-6)")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) else lo
    if lo < 1:
        raise WordstatsError(f"--length {text!r}: a word has at least 1 letter")
    if lo > hi:
        raise WordstatsError(f"--length {text}: the range is backwards (the shorter length comes first: {hi}-{lo})")
    return lo, hi


def letters(text: str, option: str) -> str:
    """Upper-case letters of an option such as --contains, or an error naming the bad character."""
    word = upper_ascii(text.strip())
    if not word:
        raise WordstatsError(f"{option}: give at least one letter")
    for ch in word:
        if not ("A" <= ch <= "Z"):
            raise WordstatsError(f"{option} {text!r}: letters only (bad character {ch!r})")
    return word


def pattern_for_list(pattern: str) -> str:
    """The anchored regex of a word-list pattern (the pattern query's syntax; it must name a letter)."""
    from pipeline.anagrams.queries import pattern_regex

    regex = pattern_regex(pattern)
    if not re.search(r"[A-Za-z]", pattern):
        raise WordstatsError(
            f"--pattern {pattern!r} has no letters: a word-list pattern needs at least one letter "
            f"(*IGHT, ?A?E); for a word length use --length"
        )
    return regex


def check_option(name: str, value: Any) -> None:
    """Raise a one-line error when an option's value is out of range."""
    if name == "length":
        parse_length(value)
    elif name in ("contains", "starts_with", "ends_with"):
        letters(value, flag(name))
    elif name == "pattern":
        pattern_for_list(value)
    elif name == "hangman" and value not in BANDS:
        raise WordstatsError(f"--hangman {value!r}: choose easy, medium or hard")
    elif name == "sort" and value not in SORTS:
        raise WordstatsError(f"--sort {value!r}: choose alpha, frequency or difficulty")
    elif name in ("count", "top_frequent") and value < 1:
        raise WordstatsError(f"{flag(name)} {value}: must be at least 1")
    elif name == "min_zipf" and not 0 <= value <= 8:
        raise WordstatsError(f"--min-zipf {value}: Zipf frequencies run from 0 to 8")
    elif name == "min_find_rate" and not 0 <= value <= 1:
        raise WordstatsError(f"--min-find-rate {value}: a find rate is between 0 and 1")


def merge(settings: Settings, preset: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """The options in force: the preset's, replaced by those given on the command line."""
    options: dict[str, Any] = {}
    if preset is not None:
        options = dict(settings.presets[pick(preset, settings.presets, "preset")])
    # None is "not given"; so is an unset flag (False), which must not undo the preset's.
    given = {k: v for k, v in given.items() if v is not None and not (k in FLAGS and v is False)}
    for key in given:
        if key not in FIELDS:
            raise WordstatsError(f"unknown word-list option {key!r}")
        for group in GROUPS:
            if key in group:
                for other in group:
                    options.pop(other, None)
    if given.get("common") and "min_zipf" in given:
        raise WordstatsError("give --common or --min-zipf, not both")
    for key, value in given.items():
        check_option(key, value)
    options.update(given)
    return options
