"""The word-list vocabulary, declared once: every option of a list (a preset field, a command-line option, a
field of the teacher's page) with its type, help, plain-words label, choices or range, and its check (each a
pipeline.core.fields.Field)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from pipeline.core.errors import FieldError, WordstatsError, about, escaped
from pipeline.core.fields import SAMPLE, SEED, Field, parse_length, parse_range
from pipeline.core.settings import default_of
from pipeline.letters.alphabet import upper_ascii
from pipeline.wordlists.manifest import FILE_SETTINGS
from pipeline.wordlists.values import Grades, ListPattern, Span, Swaps

if TYPE_CHECKING:
    from pipeline.words.phases import Phase

BANDS = ("easy", "medium", "hard")
SORTS = ("alpha", "frequency", "difficulty", "playability")
DOLCH = ("pre-primer", "primer", "grade-1", "grade-2", "grade-3", "nouns", "all")
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
SOUNDS = tuple(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH".split()
)  # ARPAbet sounds of the CMU Pronouncing Dictionary (--sound)
SOUND_WORDS = {  # each sound as a teacher names it on a form: the sound and a word that has it
    "AA": "short o, as in hot", "AE": "short a, as in cat", "AH": "short u, as in cup", "AO": "aw, as in saw",
    "AW": "ow, as in cow", "AY": "long i, as in bike", "B": "b, as in bat", "CH": "ch, as in chip",
    "D": "d, as in dog", "DH": "th, as in this", "EH": "short e, as in bed", "ER": "er, as in her",
    "EY": "long a, as in cake", "F": "f, as in fish", "G": "g, as in go", "HH": "h, as in hat",
    "IH": "short i, as in sit", "IY": "long e, as in see", "JH": "j, as in jam", "K": "k, as in kit",
    "L": "l, as in leg", "M": "m, as in man", "N": "n, as in net", "NG": "ng, as in ring",
    "OW": "long o, as in boat", "OY": "oy, as in boy", "P": "p, as in pig", "R": "r, as in red",
    "S": "s, as in sun", "SH": "sh, as in ship", "T": "t, as in top", "TH": "th, as in thin",
    "UH": "short oo, as in book", "UW": "long oo, as in moon", "V": "v, as in van", "W": "w, as in wet",
    "Y": "y, as in yes", "Z": "z, as in zoo", "ZH": "zh, as in treasure",
}  # fmt: skip
SHEETS = ("list", "spelling-test", "word-search", "scramble", "hangman", "handwriting", "flashcards")
PAPER_NAMES = {"letter": "Letter", "a4": "A4"}  # --paper letter|a4, as fpdf names them
FONTS = ("dejavu", "atkinson", "andika")
PHASES = ("uk-2", "uk-3", "uk-4", "uk-5", "us-1", "us-2", "us-3", "us-4", "us-5", "us-6", "us-7")
VOWELS = ("a", "e", "i", "o", "u")
MAX_GRADE = 5  # the highest grade a children's list reaches: the classroom review covers grades K to 5


def _length(text: str) -> Span:
    """A length: "5" or "4-6" letters."""
    return Span(*parse_length(text))


def parse_grade(text: str) -> Grades:
    """A grade, "K", "1", "2-3" or "K-2", as a range with kindergarten 0."""
    cleaned = re.sub(r"\b[kK]\b", "0", str(text))
    try:
        lo, hi = parse_range(cleaned, "grade", 0)
    except WordstatsError:
        raise about("grade", f" {text!r}: give a grade K to 5 (K, 1, 2-3, K-2)") from None
    if hi > MAX_GRADE:
        raise FieldError(
            "{grade} "
            + escaped(repr(text))
            + ": grades run from K to 5 (the reviewed classroom words; for older readers use {common})"
        )
    return Grades(lo, hi)


def letters(text: str, field: str) -> str:
    """Upper-case letters of a field such as contains, or an error naming the bad character."""
    word = upper_ascii(text.strip())
    if not word:
        raise about(field, ": give at least one letter")
    for ch in word:
        if not ("A" <= ch <= "Z"):
            raise about(field, f" {text!r}: letters only (bad character {ch!r})")
    return word


def pattern_for_list(pattern: str) -> ListPattern:
    """A word-list pattern (the pattern query's syntax; it must name a letter) and its anchored regex."""
    from pipeline.letters.patterns import pattern_regex

    regex = pattern_regex(pattern)
    if not re.search(r"[A-Za-z]", pattern):
        raise FieldError(
            "{pattern} "
            + escaped(repr(pattern))
            + " has no letters: a word-list pattern needs at least one letter (*IGHT, ?A?E); for a word length use "
            "{length}"
        )
    return ListPattern(pattern.strip().upper(), regex)


def _letters(option: str) -> Callable[[str], str]:
    """The parser of a field of letters: capitals A-Z only."""

    def parse(text: str) -> str:
        """Letters A-Z, in capitals."""
        return letters(text, option)

    return parse


MAX_SYLLABLES = 12  # more than any English word has (CMU's longest are 10)


def _syllables(text: str) -> Span:
    """A syllables range: "2" or "1-2"."""
    return Span(*parse_range(text, "syllables", hi=MAX_SYLLABLES, what="syllables"))


def _phase(text: str) -> Phase:
    """A phonics phase by its key: scheme and number (uk-2 ... uk-5, us-1 ... us-7)."""
    from pipeline.words.phases import load_phases

    phases = load_phases()
    for phase in phases:
        if phase.key == str(text).lower():
            return phase
    raise about("phase", f" {text!r}: give a scheme and phase, {', '.join(p.key for p in phases)}")


def _grapheme(text: str) -> str:
    """A spelling of a sound: ai, sh, igh, a_e."""
    if not re.fullmatch(r"[a-z]{1,4}|[aeiou]_e", str(text)):
        raise about("grapheme", f" {text!r}: give a spelling of a sound (ai, sh, igh, a_e)")
    return str(text)


MAX_SWAPS = 100  # words a teacher may swap out of one set


def _swap(text: str) -> Swaps:
    """Words to swap out: words of letters, comma-separated, at most MAX_SWAPS."""
    words = [w.strip() for w in str(text).split(",") if w.strip()]
    if len(words) > MAX_SWAPS or not all(w.isascii() and w.isalpha() for w in words):
        raise about("swap", f" {str(text)[:40]!r}: give up to {MAX_SWAPS} words of letters, comma-separated")
    return Swaps(tuple(w.upper() for w in words))


PHONICS_WORDS = {
    "cvc": "CVC words (cat, dog, sun)",
    "ccvc": "a blend, then a short vowel (frog, stop)",
    "cvcc": "a short vowel, then a blend (lamp, jump)",
    "blends": "consonant blends (frog, lamp, string)",
    "digraphs": "digraphs: sh, ch, th, wh, ph, ck, ng",
    "magic-e": "magic e (cake, bike, rope)",
    "vowel-teams": "vowel teams (rain, tree, boat)",
    "r-controlled": "bossy r (car, her, bird)",
    "double-letters": "double letters (bell, kiss)",
    "short-vowels": "short vowel sounds",
    "long-vowels": "long vowel sounds",
    "regular": "spelled as they sound",
    "irregular": "tricky words",
}
PHASE_WORDS = {
    "uk-2": "Phase 2 (s a t p i n m d...)",
    "uk-3": "Phase 3 (ch sh th ai ee igh oa oo...)",
    "uk-4": "Phase 4 (adjacent consonants)",
    "uk-5": "Phase 5 (ay ou ie ea split digraphs...)",
    "us-1": "Step 1: short vowels, CVC",
    "us-2": "Step 2: digraphs",
    "us-3": "Step 3: blends",
    "us-4": "Step 4: silent e",
    "us-5": "Step 5: bossy r",
    "us-6": "Step 6: vowel teams",
    "us-7": "Step 7: diphthongs, soft c and g",
}
MIN_FIND_RATE = default_of(FILE_SETTINGS, "min_find_rate")  # a Boggle-findable word's share of boards, unless set

SHEET_WORDS = {
    "list": "word list",
    "spelling-test": "spelling test",
    "word-search": "word search",
    "scramble": "unscramble the words",
    "hangman": "Hangman",
    "handwriting": "handwriting practice",
    "flashcards": "flashcards",
}

FIELDS: tuple[Field, ...] = (
    Field("title", str, "Title of the sheet.", "Title", "sheet", "TEXT"),
    Field("length", str, 'Letters: "5" or a range "4-6".', "Letters", "words", "N|A-B", parse=_length),
    Field(
        "common",
        bool,
        "Only common words (Zipf frequency >= 3.0).",
        "Only common words",
        "words",
        hint="Only words met often in everyday reading.",
    ),
    Field(
        "min_zipf",
        float,
        "Only words at least this frequent (Zipf scale).",
        "How common",
        "words",
        lo=0,
        hi=8,
        hint="From 1 (rare) to 7 (met all the time): 3 keeps everyday words, 4 only very common ones.",
    ),
    Field(
        "top_frequent",
        int,
        "Only words among the N most frequent of the lexicon.",
        "Among the N most frequent",
        "words",
        hint="Only words among this many of the most often met (1000: the thousand most common words).",
        lo=1,
        hi=10**12,
    ),
    Field(
        "contains",
        str,
        "Letters the word contains, in order.",
        "Contains",
        "words",
        "LETTERS",
        parse=_letters("contains"),
        show=str.lower,
    ),
    Field(
        "starts_with",
        str,
        "Letters the word starts with.",
        "Starts with",
        "words",
        "LETTERS",
        parse=_letters("starts_with"),
        show=str.lower,
    ),
    Field(
        "ends_with",
        str,
        "Letters the word ends with.",
        "Ends with",
        "words",
        "LETTERS",
        parse=_letters("ends_with"),
        show=str.lower,
    ),
    Field(
        "pattern",
        str,
        "A pattern with at least one letter: *IGHT, ?A?E, [BC]AT.",
        "Pattern (? one letter, * any letters)",
        "words",
        "PATTERN",
        parse=pattern_for_list,
    ),
    Field(
        "hangman",
        str,
        "Hangman difficulty: easy, medium or hard.",
        "Hangman difficulty",
        "puzzle",
        "[easy|medium|hard]",
        choices=BANDS,
    ),
    Field(
        "boggle_findable", bool, "Only words often found on random Boggle boards.", "Found on Boggle boards", "puzzle"
    ),
    Field(
        "min_find_rate",
        float,
        f"Find rate for --boggle-findable (default {MIN_FIND_RATE:g}).",
        "Boggle find rate",
        "puzzle",
        hint="How often a word must turn up on random Boggle boards: 0.01 is one board in a hundred.",
        lo=0,
        hi=1,
    ),
    replace(
        SAMPLE,
        name="count",
        label="How many words",
        group="pick",
        option="--sample",
        hint="How many words to pick at random from all that match.",
    ),
    replace(
        SEED,
        label="Set number",
        group="pick",
        hint="Each number is another set of words; the same number prints the same set again.",
    ),
    Field(
        "swap",
        str,
        "Words to swap out, comma-separated: each is replaced by another word of the pool, the rest stay.",
        "Swap out",
        "pick",
        "WORD,WORD",
        parse=_swap,
    ),
    Field(
        "sort",
        str,
        "alpha (default), frequency, difficulty or playability (any case).",
        "Order",
        "pick",
        "[alpha|frequency|difficulty|playability]",
        choices=SORTS,
        choice_words={
            "alpha": "A to Z",
            "frequency": "most common first",
            "difficulty": "easiest first",
            "playability": "most useful in word games first",
        },
    ),
    Field(
        "blanks",
        bool,
        "Add numbered blank lines for a spelling test.",
        "Spelling test page",
        "sheet",
        negatable=True,
    ),
    Field(
        "children",
        bool,
        "Only words a primary-school child knows (Dolch, Dale-Chall; grade K-4).",
        "Words a child knows",
        "school",
    ),
    Field(
        "keep_mine",
        bool,
        "Keep the words of your own word list that the classroom review has not read or leaves out (offensive "
        "words are still left out, and puzzles still never spell one).",
        "Keep my words",
        "school",
        hint="For a word list of your own: print its words even where the classroom review has not read them.",
    ),
    Field(
        "grade",
        str,
        "Grade level: K, 1 ... 5, or a range (K-2, 2-3).",
        "Grade",
        "school",
        "GRADE",
        parse=parse_grade,
        suggest=("K", "1", "2", "3", "4", "5", "K-1", "K-2", "1-2", "1-3", "2-3", "3-4", "3-5", "K-5"),
        choice_words={"K": "kindergarten", **{g: f"grade {g}" for g in "12345"}},
    ),
    Field(
        "dolch",
        str,
        "Dolch sight words: pre-primer, primer, grade-1, grade-2, grade-3, nouns, all.",
        "Dolch sight words",
        "school",
        "LIST",
        choices=DOLCH,
    ),
    Field(
        "phonics",
        str,
        "Phonics feature: " + ", ".join(PHONICS) + ".",
        "Phonics pattern",
        "phonics",
        "FEATURE",
        choices=PHONICS,
        choice_words=PHONICS_WORDS,
    ),
    Field(
        "vowel",
        str,
        "A vowel letter: its short sound (its long sound with magic-e, vowel-teams).",
        "Vowel sound",
        "phonics",
        "LETTER",
        choices=VOWELS,
    ),
    Field(
        "syllables",
        str,
        'Syllables: "2" or a range "1-2".',
        "Syllables",
        "phonics",
        "N|A-B",
        parse=_syllables,
    ),
    Field(
        "sound",
        str,
        "A sound (CMU ARPAbet: CH, SH, TH, AE...) however it is spelled.",
        "Sound",
        "phonics",
        "SOUND",
        choices=SOUNDS,
        choice_words=SOUND_WORDS,
    ),
    Field(
        "phase",
        str,
        "Decodable at a phonics phase: uk-2 ... uk-5 (Letters and Sounds), us-1 ... us-7 (US steps).",
        "Phonics phase",
        "phonics",
        "PHASE",
        choice_words=PHASE_WORDS,
        parse=_phase,
        show=lambda phase: phase.key,
        suggest=PHASES,
    ),
    Field(
        "grapheme",
        str,
        "Decoded with this spelling of a sound: ai, sh, igh, a_e.",
        "Spelling of a sound (ai, sh, a_e)",
        "phonics",
        "SPELLING",
        parse=_grapheme,
    ),
    Field(
        "spelling",
        str,
        "us or uk: leave out the other side's spellings.",
        "Spellings",
        "school",
        "[us|uk]",
        choices=SPELLINGS,
        choice_words={"us": "US (color)", "uk": "UK (colour)"},
    ),
    Field(
        "paper",
        str,
        "PDF paper: letter or a4.",
        "Paper",
        "sheet",
        "[letter|a4]",
        choices=tuple(PAPER_NAMES),
        choice_words={"letter": "Letter", "a4": "A4"},
    ),
    Field(
        "sheet",
        str,
        "Sheet for .pdf/.html/.md: " + ", ".join(SHEETS) + ".",
        "Sheet",
        "sheet",
        "SHEET",
        choices=SHEETS,
        choice_words=SHEET_WORDS,
    ),
    Field(
        "difficulty",
        str,
        "Word search: easy (→ ↓), medium (+ diagonals), hard (all 8 directions).",
        "Word search difficulty",
        "sheet",
        "[easy|medium|hard]",
        choices=BANDS,
    ),
    Field(
        "lowercase",
        bool,
        "Word-search grids, scrambles and flashcards in lower case too.",
        "Grids and cards in lower case",
        "sheet",
    ),
    Field(
        "font",
        str,
        "Sheet font: dejavu (the default), atkinson (Atkinson Hyperlegible, for low vision and dyslexia) or andika "
        "(Andika, for early readers: the default of handwriting sheets).",
        "Font",
        "sheet",
        "[dejavu|atkinson|andika]",
        choices=FONTS,
        choice_words={
            "dejavu": "DejaVu Sans",
            "atkinson": "Atkinson Hyperlegible (easier to read)",
            "andika": "Andika (for early readers)",
        },
    ),
)
BY_NAME = {f.name: f for f in FIELDS}
CHILDREN_FIELDS = ("children", "grade", "dolch", "phonics", "vowel", "phase")  # any makes a list a children's list


def field_named(name: str) -> Field:
    """The field `name`, or a one-line error."""
    if name not in BY_NAME:
        raise WordstatsError(f"unknown word-list option {name!r}")
    return BY_NAME[name]
