"""The word-finding and study use cases: a typed request (a frozen dataclass whose fields declare their options,
pipeline/core/fields.py) on a session → a frozen result with its provenance. The command line (pipeline/cli/
anagrams.py, study.py) only parses, calls these and renders (pipeline/anagrams/render.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.core.errors import FieldError, WordstatsError, escaped
from pipeline.core.fields import LENGTH, Field, option, parse_range
from pipeline.core.results import Listing, Provenance, provenance
from pipeline.words.playability import ORDER, PLAYABILITY, ordered

if TYPE_CHECKING:
    import polars as pl

    from pipeline.core.session import Session

WORD_HELP = "A word (letters A-Z, any case)."
HOOKS = Field("hooks", bool, "Show front and back hooks, inner hooks (·) and probability order.")
STEM_ORDERS = ("letters", "bingos", "usefulness")
DECK_LENGTHS = (2, 15)  # alphagrams a study deck may hold
MAX_ORDER = 10**8


# ---- checks of what was typed (before any table is read) ----------------------------------------------------


def racks(values: tuple[str, ...]) -> tuple[str, ...]:
    """Racks as typed, each checked (letters, ? for a blank, at most 20 tiles and 4 blanks)."""
    from pipeline.letters.racks import rack_text

    for rack in values:
        rack_text(rack)
    return values


def hand(text: str) -> str:
    """A hand as typed, checked as a rack."""
    from pipeline.letters.racks import rack_text

    rack_text(text, "hand")
    return text


def letters_of(what: str, field: str | None = None):
    """A check that a value is letters A-Z (any case), naming the value as `what` (after the request's `field`,
    when given: "{through} letters")."""

    def check(text: str) -> str:
        """The letters as typed, checked."""
        from pipeline.letters.alphabet import parse_letters

        try:
            parse_letters(text, what)
        except WordstatsError as exc:
            if field is None:
                raise
            told = escaped(str(exc))
            raise FieldError(told.replace(escaped(what), "{" + field + "} " + escaped(what), 1)) from None
        return text

    return check


def patterns(values: tuple[str, ...]) -> tuple[str, ...]:
    """Patterns as typed (a regex is checked when it runs)."""
    return values


def stem_length(text: str) -> int | None:
    """--length of stems: 6, 7, or 6-7 (both: None)."""
    lo, hi = parse_range(text, "length", 6, 7, "stem lengths")
    return lo if lo == hi else None


def deck_length(text: str) -> int:
    """--length of a study deck: one length from 2 to 15."""
    lo, hi = parse_range(text, "length", *DECK_LENGTHS, "lengths")
    if lo != hi:
        raise FieldError(
            "{length} {text!r}: give one length from {lo} to {hi}", text=text, lo=DECK_LENGTHS[0], hi=DECK_LENGTHS[1]
        )
    return lo


# ---- requests ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Anagram:
    """Words that use every tile of a rack; with `plus`, every tile and one board letter."""

    racks: tuple[str, ...] = option(
        kind=str,
        argument=True,
        metavar="RACK",
        batch="racks",
        parse=racks,
        help="Tiles: letters, ? for a blank (any case, at most 20 tiles, 4 blanks).",
    )
    plus: bool = option(
        kind=bool,
        default=False,
        help="Also use one board letter: for each A-Z, the words of the rack plus that letter.",
    )
    through: str | None = option(
        kind=str,
        metavar="LETTERS",
        parse=letters_of("letters", "through"),
        help="With --plus, only these board letters (implies --plus).",
    )
    hooks: bool = option(HOOKS, default=False)
    order: str | None = option(ORDER)


@dataclass(frozen=True)
class Words:
    """Words made from some of the tiles of a hand (subanagrams)."""

    hand: str = option(kind=str, argument=True, parse=hand, help="Tiles in hand: letters, ? for a blank.")
    length: tuple[int, int] | None = option(LENGTH)
    order: str | None = option(ORDER)


@dataclass(frozen=True)
class Hunt:
    """Words spelled only with some letters, each usable any number of times."""

    letters: str = option(
        kind=str,
        argument=True,
        parse=letters_of("letters"),
        help="The letters; each may be used any number of times.",
    )
    center: str | None = option(
        kind=str, metavar="LETTER", help="A letter every word must use (the Spelling Bee form)."
    )
    length: tuple[int, int] | None = option(LENGTH)


@dataclass(frozen=True)
class Pattern:
    """Words matching patterns (or regular expressions)."""

    patterns: tuple[str, ...] = option(
        kind=str,
        argument=True,
        metavar="PATTERN",
        batch="patterns",
        parse=patterns,
        help="? one letter, * any run, [ABC] one of, [^ABC] none of; or a regex with --regex.",
    )
    regex: bool = option(
        kind=bool, default=False, help="PATTERN is a regular expression matched against the whole word, ignoring case."
    )
    hooks: bool = option(HOOKS, default=False)


@dataclass(frozen=True)
class Hooks:
    """A word's hooks."""

    word: str = option(kind=str, argument=True, parse=letters_of("word"), help=WORD_HELP)


@dataclass(frozen=True)
class Word:
    """Everything the lexicon's tables know about a word."""

    word: str = option(kind=str, argument=True, metavar="WORD", parse=letters_of("word"), help=WORD_HELP)


MAX_LOOK_UP = 15  # the longest word a look-up takes: the board's width


def look_up_word(text: str) -> str:
    """A word to look up, as typed: letters A-Z (any case), at most MAX_LOOK_UP of them, in capitals."""
    from pipeline.letters.alphabet import parse_letters

    letters = parse_letters(text, "word")
    if len(letters) > MAX_LOOK_UP:
        raise WordstatsError(f"bad word {text[:40]!r}: a word of at most {MAX_LOOK_UP} letters")
    return letters


@dataclass(frozen=True)
class LookUp:
    """A word looked up for the classroom."""

    word: str = option(
        kind=str, argument=True, metavar="WORD", parse=look_up_word, help="A word (letters A-Z, at most 15)."
    )
    every: bool = option(
        kind=bool,
        default=False,
        help="Show offensive words and topics not for the classroom too (left out, as on every word list).",
    )


@dataclass(frozen=True)
class Stems:
    """The best bingo stems."""

    length: int | None = option(
        kind=str, metavar="6|7|6-7", parse=stem_length, help="Only stems of 6 or 7 letters (6-7: both)."
    )
    order: str = option(
        kind=str, default="usefulness", metavar="ORDER", help="Rank by: letters, bingos or usefulness (any case)."
    )
    min_letters: int = option(
        kind=int, default=1, lo=1, hi=26, metavar="K", help="Only stems with at least K combining letters."
    )


@dataclass(frozen=True)
class Stem:
    """For each letter that makes a stem a bingo, the bingos."""

    stems: tuple[str, ...] = option(
        kind=str, argument=True, metavar="STEM", batch="stems", help="6 or 7 letters, in any order."
    )
    hooks: bool = option(HOOKS, default=False)


@dataclass(frozen=True)
class Judge:
    """Whether each word is valid in the lexicon."""

    words: tuple[str, ...] = option(
        kind=str, argument=True, many=True, batch="words", help="Words to judge; - reads them from standard input."
    )


@dataclass(frozen=True)
class Study:
    """Flashcards of alphagrams by length and probability range, with hook cards."""

    length: int = option(
        kind=str, default="7", metavar="N", parse=deck_length, help="Alphagrams of this many letters (2 to 15)."
    )
    first: int = option(
        kind=int, default=1, lo=1, hi=MAX_ORDER, option="--from", help="First probability order (1 = likeliest)."
    )
    last: int = option(kind=int, default=100, lo=1, hi=MAX_ORDER, option="--to", help="Last probability order.")
    order: str = option(
        ORDER,
        default="probability",
        choices=("probability", PLAYABILITY),
        metavar="[probability|playability]",
        help="--from/--to by probability order, or by playability (their words' summed, highest first).",
    )
    hook_cards: bool = option(kind=bool, default=True, negatable=True, help="Also a hook card for each answer word.")


# ---- results -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WordFacts:
    """Every row about a word in every table of the lexicon that has one, by table (words first)."""

    word: str
    tables: dict[str, pl.DataFrame]
    provenance: Provenance


@dataclass(frozen=True)
class WordLookUp:
    """What the classroom's look-up says of a word: is it a word, its anagrams and hooks (offensive words and topics
    not for the classroom left out unless every word was asked for), its Hangman row and its phonics row (None
    where the table is not built); or, for a word left out itself, why (`withheld`) and nothing else."""

    word: str
    valid: bool
    withheld: str | None
    anagrams: tuple[str, ...]
    hidden: int  # anagrams left out
    front_hooks: tuple[str, ...] | None  # None: not a word, or no hooks table
    back_hooks: tuple[str, ...] | None
    hangman: dict[str, Any] | None
    phonics: dict[str, Any] | None
    provenance: Provenance


@dataclass(frozen=True)
class Verdicts:
    """Each word judged valid or not, and whether the play is acceptable (every word valid)."""

    table: pl.DataFrame
    provenance: Provenance

    @property
    def acceptable(self) -> bool:
        """Whether every word is valid."""
        return bool(self.table["valid"].all())


@dataclass(frozen=True)
class Deck:
    """A study deck: its alphagram cards and hook cards, and its title."""

    alphagrams: pl.DataFrame
    hooks: pl.DataFrame
    title: str
    provenance: Provenance


# ---- use cases -----------------------------------------------------------------------------------------------


def batch(queries: tuple[str, ...], column: str, run) -> pl.DataFrame:
    """One query's table, or several queries' tables stacked with the query in `column` first."""
    import polars as pl

    if len(queries) == 1:
        return run(queries[0])
    return pl.concat([run(q).select(pl.lit(q).alias(column), pl.all()) for q in queries], how="vertical_relaxed")


def hooked(s: Session, table: pl.DataFrame, wanted: bool) -> pl.DataFrame:
    """The table with each word's hooks beside it, when wanted."""
    from pipeline.anagrams.study import with_hooks

    return with_hooks(s.store, table) if wanted else table


HOOK_TABLES = ("hooks", "anagrams")


KEYED_RACKS = 16  # up to this many racks are looked up by alphagram; more load the anagram index once


def anagram(s: Session, q: Anagram) -> Listing:
    """Words that use every tile of each rack (blank-played letters in lower case), or with `plus` (or
    `through`) every tile and one board letter."""
    if q.plus or q.through is not None:
        from pipeline.anagrams import queries

        index = queries.open_index(s.store, s.config)
        found = batch(q.racks, "rack", lambda r: queries.anagram_plus(index, r, q.through))
    elif len(q.racks) <= KEYED_RACKS:  # no index to load (nor numpy to import): a few racks start fast
        from pipeline.anagrams.lookups import anagrams
        from pipeline.anagrams.settings import index_tiles

        values = index_tiles(s.config)[1].values
        found = batch(q.racks, "rack", lambda r: anagrams(s.store, values, r))
    else:
        from pipeline.anagrams import queries

        index = queries.open_index(s.store, s.config)
        found = batch(q.racks, "rack", lambda r: queries.anagram(index, r))
    tables = ("anagrams",) + (HOOK_TABLES if q.hooks else ()) + (("playability",) if q.order else ())
    return Listing(ordered(s.store, hooked(s, found, q.hooks), q.order), provenance(s, "anagram", q, tables))


def words(s: Session, q: Words) -> Listing:
    """Words made from some of the hand's tiles, longest then highest-scoring first."""
    from pipeline.anagrams import queries

    lo, hi = q.length or (1, None)
    found = queries.subanagrams(queries.open_index(s.store, s.config), q.hand, lo, hi)
    tables = ("anagrams", "playability") if q.order else ("anagrams",)
    return Listing(ordered(s.store, found, q.order), provenance(s, "words", q, tables))


def hunt(s: Session, q: Hunt) -> Listing:
    """Words spelled only with the letters, reusing them; pangrams first."""
    from pipeline.anagrams import queries

    lo, hi = q.length or (1, None)
    found = queries.hunt(queries.open_index(s.store, s.config), q.letters, q.center, lo)
    if hi is not None and "length" in found.columns:
        found = found.filter(found["length"] <= hi)
    return Listing(found, provenance(s, "hunt", q, ("anagrams",)))


def pattern(s: Session, q: Pattern) -> Listing:
    """Words matching each pattern (or regular expression)."""
    from pipeline.anagrams import queries
    from pipeline.letters.patterns import pattern_regex

    if not q.regex:
        for one in q.patterns:
            pattern_regex(one)
    index = queries.open_index(s.store, s.config)
    found = batch(q.patterns, "pattern", lambda p: queries.pattern(index, p, q.regex))
    tables = ("anagrams",) + (HOOK_TABLES if q.hooks else ())
    return Listing(hooked(s, found, q.hooks), provenance(s, "pattern", q, tables))


def hooks(s: Session, q: Hooks) -> Listing:
    """The letters that make a word in front of and behind the word, and its inner hooks."""
    from pipeline.anagrams.lookups import hooks as word_hooks

    return Listing(word_hooks(s.store, q.word), provenance(s, "hooks", q, ("hooks",)))


def word(s: Session, q: Word) -> WordFacts:
    """Every row about the word in every table of the lexicon."""
    from pipeline.anagrams.lookups import word_facts
    from pipeline.letters.alphabet import parse_letters

    facts = word_facts(s.store, q.word)
    return WordFacts(parse_letters(q.word, "word"), facts, provenance(s, "word", q, tuple(facts)))


def look_up(s: Session, q: LookUp) -> WordLookUp:
    """A word looked up for the classroom (the teacher's page and `wordstats lookup`)."""
    from pipeline.anagrams.lookups import family, row_of
    from pipeline.words.classroom import exclusions, load_classroom

    word, store = q.word, s.store
    excl = exclusions(load_classroom(s.config))
    valid = row_of(store, "words", word, ("word",)) is not None
    read: tuple[str, ...] = ("words",)
    if not q.every and excl.excluded(word):  # as on any list: the entry only when every word is asked for
        topic = excl.reason(word) or "offensive"
        why = "offensive" if topic == "offensive" else f"{topic}: a topic classroom lists leave out"
        return WordLookUp(word, valid, why, (), 0, None, None, None, None, provenance(s, "lookup", q, read))
    others = [w for w in family(store, word) if w != word]
    shown = tuple(w for w in others if q.every or not excl.excluded(w))
    front = back = hangman = phonics = None
    read += ("anagrams",)
    if valid:
        row = row_of(store, "hooks", word, ("word", "front_hooks", "back_hooks"))
        if row is not None:
            front, back = (
                tuple(c for c in row[side] if q.every or not (excl.excluded(c + word) or excl.excluded(word + c)))
                for side in ("front_hooks", "back_hooks")
            )
        hangman = row_of(store, "hangman", word, HANGMAN_FACTS)
        phonics = row_of(store, "phonics", word, PHONICS_FACTS)
        read += tuple(t for t in ("hooks", "hangman", "phonics") if store.exists(t))
    made = provenance(s, "lookup", q, read)
    return WordLookUp(word, valid, None, shown, len(others) - len(shown), front, back, hangman, phonics, made)


HANGMAN_FACTS = ("word", "misses", "guesses", "band", "expected_misses")  # what a look-up shows of hangman.parquet
PHONICS_FACTS = (
    "word",
    "phonemes",
    "syllables",
    "blends",
    "digraphs",
    "vowel_teams",
    "magic_e",
    "grade",
    "uk_phase",
    "us_step",
)


def stems(s: Session, q: Stems, top: int | None) -> Listing:
    """The `top` best stems by the order asked (all when None), numbered from 1, with their bingos."""
    from pipeline.anagrams.lookups import top_stems

    found = top_stems(s.store, q.length, q.order, top, q.min_letters)
    return Listing(found, provenance(s, "stems", q, ("stems",)))


def check_study_file(path: Path) -> Path:
    """A study-list file a client asked for, when it is of a kind we write (.csv or .md)."""
    from pipeline.anagrams.lookups import check_export

    return check_export(path)


def stem(s: Session, q: Stem) -> Listing:
    """For each stem, the letters that make it a bingo and their bingos (with hooks: one bingo a row)."""
    from pipeline.anagrams.lookups import stem as stem_bingos
    from pipeline.anagrams.study import with_hooks

    found = batch(q.stems, "stem", lambda one: stem_bingos(s.store, one))
    if q.hooks:
        found = with_hooks(s.store, found.explode("words").rename({"words": "word"}).drop("n_words"))
    tables = ("stems",) + (HOOK_TABLES if q.hooks else ())
    return Listing(found, provenance(s, "stem", q, tables))


def judge(s: Session, q: Judge) -> Verdicts:
    """Each word VALID or NOT VALID in the lexicon."""
    from pipeline.anagrams.study import judge as judged

    if any(not w.strip() for w in q.words):
        raise WordstatsError("empty word: give words of letters A-Z to judge")
    return Verdicts(judged(s.store, list(q.words)), provenance(s, "judge", q, ("words",)))


def study(s: Session, q: Study) -> Deck:
    """The deck's cards: the alphagrams of the length in the probability range, and their words' hook cards."""
    from pipeline.anagrams.study import alphagram_cards, hook_cards

    if q.last < q.first:
        raise FieldError("{last} {to} is before {first} {start}", to=q.last, start=q.first)
    order = q.order.lower()
    alphas = alphagram_cards(s.store, q.length, q.first, q.last, order)
    if alphas.is_empty():
        raise WordstatsError(f"no {q.length}-letter alphagrams with {order} order {q.first}-{q.last} in {s.lexicon}")
    hooks = hook_cards(s.store, alphas["words"].explode().to_list() if q.hook_cards else [])
    title = f"wordstats {s.lexicon} {q.length}s {q.first}-{q.last}" + (f" by {order}" if order != "probability" else "")
    tables = ("anagrams", "hooks", "playability") if order == "playability" else ("anagrams", "hooks")
    return Deck(alphas, hooks, title, provenance(s, "study", q, tables))


def write_deck(deck: Deck, out: Path) -> None:
    """Write the deck: an Anki package (.apkg) or CSV (.csv), atomically."""
    from pipeline.anagrams.study import anki_package, cards_csv
    from pipeline.core.files import write_text

    if out.suffix.lower() == ".csv":
        write_text(out, cards_csv(deck.alphagrams, deck.hooks))
    else:
        anki_package(deck.alphagrams, deck.hooks, deck.title, out)
