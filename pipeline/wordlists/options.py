"""Word-list options: parsing and checking lengths, letters and patterns; merging a preset."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pipeline.core.config import upper_ascii
from pipeline.core.errors import WordstatsError, pick
from pipeline.wordlists.fonts import FONT_NAMES

if TYPE_CHECKING:
    from pipeline.wordlists.settings import Settings

BANDS = ("easy", "medium", "hard")
MAX_GRADE = 5  # the highest grade a children's list reaches: the classroom review covers grades K to 5
SORTS = ("alpha", "frequency", "difficulty")
PAPERS = ("A4", "Letter")
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}  # --paper a4|letter
DOLCH = ("pre-primer", "primer", "grade-1", "grade-2", "grade-3", "nouns", "all")
# --phonics values: the phonics.parquet test each stands for
PHONICS = (
    "cvc",
    "ccvc",
    "cvcc",
    "blends",
    "digraphs",
    "magic-e",
    "vowel-teams",
    "r-controlled",
    "double-letters",
    "short-vowels",
    "long-vowels",
    "regular",
    "irregular",
)
LONG_PHONICS = ("magic-e", "vowel-teams", "long-vowels")  # --vowel means the letter's long sound with these
SPELLINGS = ("us", "uk")
# ARPAbet sounds of the CMU Pronouncing Dictionary (--sound)
SOUNDS = (
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH"
).split()
SHEETS = ("list", "spelling-test", "word-search", "scramble", "hangman", "handwriting", "flashcards")
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
    "children": bool,
    "grade": str,
    "dolch": str,
    "phonics": str,
    "vowel": str,
    "syllables": str,
    "sound": str,
    "spelling": str,
    "paper": str,
    "sheet": str,
    "difficulty": str,
    "lowercase": bool,
    "font": str,
    "phase": str,
    "grapheme": str,
}
# Fields whose command-line option has another name (the shared CLI vocabulary: --sample N picks N at random).
OPTION_NAMES = {"count": "--sample"}
# On/off options given as bare flags (--common): absent means "as the preset says".
FLAGS = ("common", "boggle_findable", "children", "lowercase")
# Options that replace each other: giving one on the command line drops the others from the preset.
GROUPS = ({"common", "min_zipf"},)


def flag(name: str) -> str:
    """The command-line option of field `name` (min_zipf → --min-zipf)."""
    return OPTION_NAMES.get(name, "--" + name.replace("_", "-"))


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
    elif name == "grade":
        parse_grade(value)
    elif name == "syllables":
        parse_range(value, "--syllables")
    elif name == "dolch" and value not in DOLCH:
        raise WordstatsError(f"--dolch {value!r}: choose {', '.join(DOLCH)}")
    elif name == "phonics" and value not in PHONICS:
        raise WordstatsError(f"--phonics {value!r}: choose {', '.join(PHONICS)}")
    elif name == "vowel" and (len(value) != 1 or value.lower() not in "aeiou"):
        raise WordstatsError(f"--vowel {value!r}: give one vowel letter (a, e, i, o or u)")
    elif name == "sound" and value.upper() not in SOUNDS:
        raise WordstatsError(f"--sound {value!r}: give a sound of the CMU dictionary ({' '.join(SOUNDS)})")
    elif name == "spelling" and value not in SPELLINGS:
        raise WordstatsError(f"--spelling {value!r}: choose us or uk")
    elif name == "paper" and value.lower() not in PAPER_NAMES:
        raise WordstatsError(f"--paper {value!r}: choose letter or a4")
    elif name == "difficulty" and value not in BANDS:
        raise WordstatsError(f"--difficulty {value!r}: choose easy, medium or hard")
    elif name == "sheet" and value not in SHEETS:
        raise WordstatsError(f"--sheet {value!r}: choose {', '.join(SHEETS)}")
    elif name == "phase" and not re.fullmatch(r"(uk|us)-\d", str(value)):
        raise WordstatsError(f"--phase {value!r}: give a scheme and phase, uk-2 ... uk-5 or us-1 ... us-7")
    elif name == "grapheme" and not re.fullmatch(r"[a-z]{1,4}|[aeiou]_e", str(value)):
        raise WordstatsError(f"--grapheme {value!r}: give a spelling of a sound (ai, sh, igh, a_e)")
    elif name == "font" and value not in FONT_NAMES:
        raise WordstatsError(f"--font {value!r}: choose {', '.join(FONT_NAMES)}")
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
