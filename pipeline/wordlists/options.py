"""Word-list options: parsing and checking lengths, letters and patterns; merging a preset."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pipeline.core.errors import WordstatsError, pick
from pipeline.letters.alphabet import upper_ascii
from pipeline.wordlists.fields import BY_NAME, field_named

if TYPE_CHECKING:
    from pipeline.wordlists.settings import Settings

MAX_GRADE = 5  # the highest grade a children's list reaches: the classroom review covers grades K to 5
PAPERS = ("A4", "Letter")
# Options that replace each other: giving one on the command line drops the others from the preset.
GROUPS = ({"common", "min_zipf"},)


def flag(name: str) -> str:
    """The command-line option of field `name` (min_zipf → --min-zipf, count → --sample)."""
    return BY_NAME[name].flag if name in BY_NAME else "--" + name.replace("_", "-")


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


def parse_range(text: str, option: str, lo_limit: int = 1) -> tuple[int, int]:
    """A number or a range option ("2", "1-3") as (low, high)."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", str(text))
    if not match:
        raise WordstatsError(f"{option} {text!r}: give a number (2) or a range (1-3)")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) else lo
    if lo < lo_limit or lo > hi:
        raise WordstatsError(f"{option} {text!r}: give a range from {lo_limit} up, the smaller number first")
    return lo, hi


def parse_grade(text: str) -> tuple[int, int]:
    """A grade option, "K", "1", "2-3" or "K-2", as (lowest, highest) with kindergarten 0."""
    cleaned = re.sub(r"\b[kK]\b", "0", str(text))
    try:
        lo, hi = parse_range(cleaned, "--grade", 0)
    except WordstatsError:
        raise WordstatsError(f"--grade {text!r}: give a grade K to 5 (K, 1, 2-3, K-2)") from None
    if hi > MAX_GRADE:
        raise WordstatsError(
            f"--grade {text!r}: grades run from K to 5 (the reviewed classroom words; for older readers use --common)"
        )
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
    """Raise a one-line error when an option's value is not of its field's type, choices or range."""
    field_named(name).validate(value)


def merge(settings: Settings, preset: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """The options in force: the preset's, replaced by those given on the command line."""
    options: dict[str, Any] = {}
    if preset is not None:
        options = dict(settings.presets[pick(preset, settings.presets, "preset")])
    # None is "not given"; so is an unset flag (False), which must not undo the preset's.
    given = {k: v for k, v in given.items() if v is not None and not (field_named(k).switch and v is False)}
    for key in given:
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
