"""A teacher's word list: its filters applied, the classroom review and the fair puzzles, a random pick and the
order; and the presets table."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import polars as pl

from pipeline.core.config import Config
from pipeline.core.errors import NotFound
from pipeline.core.results import Provenance
from pipeline.core.store import Store
from pipeline.wordlists.choices import NO_CHOICES, Choices, flag, merge
from pipeline.wordlists.fields import CHILDREN_FIELDS, PAPER_NAMES
from pipeline.wordlists.filters import SAFE, apply, loosen_hint, steps
from pipeline.wordlists.pools import (
    COLUMNS,
    children_hangman,
    hangman_pool,
    need_table,
    review,
    review_reasons,
    scramble_pool,
)
from pipeline.wordlists.puzzles import MIN_TARGET, NO_BANNED, Banned
from pipeline.wordlists.settings import load_settings, puzzle_banned
from pipeline.words.classroom import exclusions
from pipeline.words.playability import PLAYABILITY, by_playability, with_playability

REVIEWED = "only words reviewed for the classroom (docs/wordlists.md)"
HANDWRITING_FONT = "andika"  # a handwriting sheet's font unless one is given: letters as early readers write them
PUZZLE_SHEETS = ("word-search", "scramble", "hangman")  # sheets whose puzzles must not spell or suggest a word
# Each sheet kind's title when neither the preset nor --title gives one.
TITLES = {
    "list": "Word list",
    "spelling-test": "Spelling words",
    "word-search": "Word search",
    "scramble": "Unscramble the words",
    "hangman": "Hangman",
    "handwriting": "Handwriting practice",
    "flashcards": "Flashcards",
}


@dataclass(frozen=True)
class WordList:
    """A finished list: its title, the filters in plain words, the words, and how to print it (the result of the
    word-list use case, the same for the command line and the teacher's page)."""

    title: str
    lexicon: str
    filters: list[str]
    table: pl.DataFrame
    blanks: bool | None = None  # a page of numbered blank lines (None: only on a spelling test)
    hangman: bool = False
    note: str | None = None
    paper: str = "A4"
    sheet: str = "list"
    seed: int = 0
    children: bool = False
    pool: int = 0  # words that matched, before any random pick
    difficulty: str = "medium"  # word search: which directions words run in, how big the grid is
    reviewed: bool = False  # a children's list: only words with a keep decision of the classroom review
    unreviewed: int = 0  # words that matched but have no review decision yet (left out)
    left_out: str | None = None  # a list of one's own: the words that matched but are left out, each with why
    review_excluded: int = 0  # words that matched but the review excludes (left out)
    answers: dict[str, list[str]] = field(default_factory=dict)  # scramble: a word's other answers (upper case)
    scrambled: list[str] = field(default_factory=list)  # scramble: each word's letters shuffled (upper case)
    banned: Banned = NO_BANNED  # strings no puzzle of the sheet may spell
    lowercase: bool = False  # grids, scrambles and cards in lower case too
    font: str = "dejavu"  # the sheet's font (wordlists.fonts)
    fill: dict[str, float] = field(default_factory=dict)  # word-search fill letters and weights (default English)
    provenance: Provenance | None = None  # what asked for it and the tables it read (set by the use case)

    @property
    def words(self) -> list[str]:
        """The words, in order."""
        return self.table["word"].to_list()

    @property
    def test_page(self) -> bool:
        """Whether the sheet ends its student part with a spelling test: numbered blank lines."""
        wanted = self.blanks if self.blanks is not None else self.sheet == "spelling-test"
        return wanted and self.sheet in ("list", "spelling-test")


def for_children(options: Choices, printed: bool) -> bool:
    """Whether a list is for children: a children's filter or preset, or a sheet printed for a class."""
    return printed or any(options.get(k) for k in CHILDREN_FIELDS)


def pick(df: pl.DataFrame, k: int, seed: int, swapped: frozenset[str] = frozenset()) -> pl.DataFrame:
    """k rows picked at random, reproducibly for the seed (in their order in `df`); each picked word in `swapped`
    is replaced by another word drawn by the same generator, the others staying as they were."""
    words = df["word"].str.to_uppercase().to_list()
    rng = random.Random(seed)
    chosen = sorted(rng.sample(range(df.height), k)) if k < df.height else list(range(df.height))
    out = [i for i in chosen if words[i] not in swapped]
    if len(out) == len(chosen):
        return df[out]
    taken = set(chosen)
    spare = [i for i in range(df.height) if i not in taken and words[i] not in swapped]
    while len(out) < len(chosen) and spare:
        out.append(spare.pop(rng.randrange(len(spare))))
    return df[sorted(out)]


def word_list(
    store: Store,
    config: Config,
    preset: str | None = None,
    given: Choices = NO_CHOICES,
    allow_all: bool = False,
    upper: bool = False,
    printed: bool = False,
) -> WordList:
    """Select a teacher's word list from the lexicon's tables; a children's list or a printed sheet holds only
    words the classroom review keeps, and its puzzles only words that play safely."""
    settings = load_settings(config)
    options = merge(settings.presets, preset, given)
    base = store.scan("words", COLUMNS["words"]).select("word", "length", "zipf")
    chosen = steps(store, settings, options, allow_all)
    sort = options.get("sort", "alpha")
    sheet = options.get("sheet", default_sheet(options))
    own = store.lexicon not in config.lexicons  # a list of the teacher's own (not a lexicon the config declares)
    # on a list of one's own the block list's step comes last, so that the words it takes out can be named
    safe = [s for s in chosen if s.option == "--allow-all"] if own else []
    lf = apply(base, [s for s in chosen if s not in safe])
    if sort == "difficulty" and "hangman" not in options:
        if options.get("children"):
            hang = children_hangman(store).lazy().select("word", *HANGMAN_COLUMNS)
        else:
            hang = need_table(store, "hangman", "--sort difficulty").select("word", *HANGMAN_COLUMNS)
        lf = lf.join(hang, on="word", how="left")
    matched = lf.sort("word").collect()
    df = apply(matched.lazy(), safe).collect() if safe else matched
    left_out = blocked(matched, df, settings) if safe else {}
    if sort == PLAYABILITY:
        df = with_playability(store, df, "--sort playability")
    described = [s.words for s in chosen if s.option != "--allow-all"]
    described.append(SAFE if not allow_all else "no words left out (--allow-all)")
    if df.height == 0:
        raise NotFound(f"no words match: {'; '.join(described)}. To get some, {loosen_hint(base, chosen)}")
    reviewed = for_children(options, printed) and not allow_all
    excluded = unreviewed = 0
    if reviewed and options.get("keep_mine"):
        reviewed = False  # the teacher's own words, every one the block list lets through
        described.append("your own words kept, read by the classroom review or not (Keep my words)")
    if reviewed:
        r = review(df, settings)
        df, excluded, unreviewed = r.kept, r.excluded, r.unreviewed
        if own:
            left_out.update(review_reasons(r.dropped["word"].to_list(), settings))
        described.append(REVIEWED)
        if df.height == 0:
            raise NotFound(
                f"no reviewed words match: {'; '.join(described)} ({unreviewed:,} words match but have no review "
                f"decision yet, {excluded:,} are excluded by the review; docs/wordlists.md says how to add decisions)"
            )
    banned = puzzle_banned(settings) if reviewed and sheet in PUZZLE_SHEETS else NO_BANNED
    answers: dict[str, list[str]] = {}
    letters: dict[str, str] = {}
    if reviewed and sheet == "scramble":
        df, answers, shuffled = scramble_pool(df, store, settings, banned, options.get("seed", 0))
        letters = dict(zip(df["word"].to_list(), shuffled))
    if reviewed and sheet == "hangman":
        df = hangman_pool(df, store, settings)
    short = df.filter(pl.col("length") < MIN_TARGET).height if sheet == "word-search" else 0
    if short:
        df = df.filter(pl.col("length") >= MIN_TARGET)
    if df.height == 0:
        raise NotFound(f"no words of this list make a safe {sheet} puzzle: {'; '.join(described)}")
    swapped = frozenset(options.get("swap", ()))
    if swapped and "count" not in options:
        df = df.filter(~pl.col("word").is_in(sorted(swapped)))
    left_note = left_out_words(left_out, upper) if left_out else None
    notes = [left_note] if left_note else []
    if unreviewed and not own:
        notes.append(f"{unreviewed:,} matching words have no classroom review decision yet and are left out")
    if short:
        notes.append(f"{short:,} words under {MIN_TARGET} letters left out: a word search hides longer words")
    pool = df.height
    if "count" in options:
        k, seed = options["count"], options.get("seed", 0)
        if k >= df.height:
            notes.append(f"only {df.height:,} words match, fewer than --sample {k}: all are listed")
        df = pick(df, k, seed, swapped)
        described.append(f"{min(k, df.height):,} words picked at random (set {seed})")
    df = sort_words(df, sort)
    described.append(
        {
            "alpha": "in alphabetical order",
            "frequency": "most common first",
            "difficulty": "easiest Hangman words first",
            PLAYABILITY: "most playable Scrabble words first (points lost without them over self-play games)",
        }[sort]
    )
    df = df.with_columns(pl.col("zipf").round(2))
    picked = df["word"].to_list()  # upper case
    if not upper:
        df = df.with_columns(pl.col("word").str.to_lowercase())
    lexicon_note = f"from the {store.lexicon} word list"
    return WordList(
        title=options.get("title") or TITLES[sheet],
        lexicon=store.lexicon,
        filters=[lexicon_note] + described,
        table=df,
        blanks=options.get("blanks"),
        hangman="hangman" in options,
        note="; ".join(notes) or None,
        paper=PAPER_NAMES[options["paper"]] if "paper" in options else settings.paper,
        sheet=sheet,
        seed=options.get("seed", 0),
        children=reviewed,
        pool=pool,
        difficulty=options.get("difficulty", "medium"),
        reviewed=reviewed,
        unreviewed=unreviewed,
        left_out=left_note,
        review_excluded=excluded,
        answers={w: answers[w] for w in picked if w in answers},
        scrambled=[letters[w] for w in picked] if letters else [],
        banned=banned,
        lowercase=bool(options.get("lowercase", False)),
        font=options.get("font", HANDWRITING_FONT if sheet == "handwriting" else "dejavu"),
        fill=dict(settings.fill),
    )


LEFT_OUT_NAMED = 40  # words a list's note names among those left out (the review worksheet lists every one)


def blocked(matched: pl.DataFrame, kept: pl.DataFrame, settings) -> dict[str, str]:
    """The words the block list took out of those that matched (upper case), and why."""
    gone = matched.join(kept, on="word", how="anti")["word"].to_list()
    if not gone:
        return {}
    excl = exclusions(settings.classroom)
    reasons = {w: excl.reason(w) for w in gone}
    return {w: "offensive" if why == "offensive" else f"not for the classroom ({why})" for w, why in reasons.items()}


def left_out_words(left_out: dict[str, str], upper: bool) -> str:
    """The note naming the words left out and why (LEFT_OUT_NAMED at most, then how many more)."""
    named = sorted(left_out)[:LEFT_OUT_NAMED]
    shown = ", ".join(f"{w if upper else w.lower()} ({left_out[w]})" for w in named)
    more = len(left_out) - len(named)
    tail = f", and {more:,} more (python -m pipeline.wordlists.review lists them all)" if more else ""
    n = len(left_out)
    return f"{n:,} matching word{'s' if n != 1 else ''} left out: {shown}{tail}"


def default_sheet(options: Choices) -> str:
    """The sheet when none is named: Hangman puzzles for a Hangman list, a spelling test with --blanks."""
    if "hangman" in options:
        return "hangman"
    return "spelling-test" if options.get("blanks") else "list"


HANGMAN_COLUMNS = ("expected_misses", "misses", "guesses")  # a word's Hangman difficulty, as lists show it


def sort_words(df: pl.DataFrame, sort: str) -> pl.DataFrame:
    """Words in the chosen order, ties by word."""
    if sort == "frequency":
        return df.sort(["zipf", "word"], descending=[True, False])
    if sort == "difficulty":  # fewest expected misses over fair tie-breaks first
        return df.sort([*HANGMAN_COLUMNS, "word"], nulls_last=True)
    if sort == PLAYABILITY:
        return by_playability(df)
    return df.sort("word")


def presets_table(config: Config) -> pl.DataFrame:
    """One row per preset: its name, title and filters as command-line options."""
    settings = load_settings(config)
    rows = []
    for name, fields in settings.presets.items():
        opts = []
        for key, value in fields.texts().items():
            if key == "title":
                continue
            if isinstance(value, bool):
                if value:
                    opts.append(flag(key))
            else:
                opts.append(f"{flag(key)} {value}")
        rows.append({"preset": name, "title": fields.get("title", ""), "options": " ".join(opts)})
    return pl.DataFrame(rows, schema={"preset": pl.String, "title": pl.String, "options": pl.String})
