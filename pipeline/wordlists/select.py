"""Selecting words: filter steps that combine, sampling, sorting."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from pipeline.core.config import Config
from pipeline.core.errors import NotFound, WordstatsError
from pipeline.core.fields import parse_length, parse_range
from pipeline.core.store import MAX_ROWS, Store
from pipeline.wordlists.fields import CHILDREN_FIELDS, LONG_PHONICS, PAPER_NAMES, letters, parse_grade, pattern_for_list
from pipeline.wordlists.options import flag, merge
from pipeline.wordlists.puzzles import NO_BANNED, Banned, misleading, other_answers, scramble
from pipeline.wordlists.settings import (
    Settings,
    classroom_vocabulary,
    exclusions,
    load_settings,
    offensive_words,
    puzzle_banned,
)

SAFE = "offensive words and topics not for the classroom left out"
REVIEWED = "only words reviewed for the classroom (docs/wordlists.md)"
CHILDREN_GRADE = 4  # the children's pool: grade K to 4, the words familiar to fourth graders
CHILDREN_WORDS = "words a primary-school child knows (Dolch and Dale-Chall words, grade K to 4)"
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
class Step:
    """One filter: the option that adds it, what it does in plain words, and the polars step."""

    option: str
    words: str
    apply: Callable[[pl.LazyFrame], pl.LazyFrame]
    loosen: bool = True  # may the empty-result hint suggest loosening it?


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
    review_excluded: int = 0  # words that matched but the review excludes (left out)
    answers: dict[str, list[str]] = field(default_factory=dict)  # scramble: a word's other answers (upper case)
    scrambled: list[str] = field(default_factory=list)  # scramble: each word's letters shuffled (upper case)
    banned: Banned = NO_BANNED  # strings no puzzle of the sheet may spell
    lowercase: bool = False  # grids, scrambles and cards in lower case too
    font: str = "dejavu"  # the sheet's font (wordlists.fonts)
    fill: dict[str, float] = field(default_factory=dict)  # word-search fill letters and weights (default English)

    @property
    def words(self) -> list[str]:
        """The words, in order."""
        return self.table["word"].to_list()

    @property
    def test_page(self) -> bool:
        """Whether the sheet ends its student part with a spelling test: numbered blank lines."""
        wanted = self.blanks if self.blanks is not None else self.sheet == "spelling-test"
        return wanted and self.sheet in ("list", "spelling-test")


COLUMNS = {
    "words": ["word", "length", "zipf"],
    "phonics": [
        "word",
        "syllables",
        "cvc",
        "pattern",
        "blends",
        "digraphs",
        "magic_e",
        "vowel_teams",
        "r_controlled",
        "short_vowels",
        "long_vowels",
        "double_letters",
        "regular",
        "in_cmu",
        "phonemes",
        "dolch",
        "grade",
        "spelling",
        "uk_phase",
        "us_step",
        "graphemes",
    ],
    "hangman": ["word", "band", "misses", "guesses"],
    "boggle_words": ["word", "find_rate"],
}  # what the filters read of each table


def need_table(store: Store, table: str, option: str) -> pl.LazyFrame:
    """Scan a table a filter needs, or a one-line error naming it and how to build it."""
    if not store.exists(table):
        from pipeline.core.stages import producer

        raise WordstatsError(
            f"{option} needs {table}.parquet, which is not built for lexicon {store.lexicon!r}: "
            f"run `wordstats run {producer(table).name} --lexicon {store.lexicon}` (or `make all`)"
        )
    return store.scan(table, COLUMNS.get(table, ()))


def _keep(expr: pl.Expr) -> Callable[[pl.LazyFrame], pl.LazyFrame]:
    """A filter step that keeps the rows where `expr` holds."""
    return lambda lf: lf.filter(expr)


def per_million(zipf: float) -> str:
    """A Zipf frequency in plain words: how often per million words of English."""
    n = 10 ** (zipf - 3)
    if round(n, 1) == 1:
        return "at least once per million words"
    times = f"{n:,.0f}" if n >= 10 else f"{n:.1f}".removesuffix(".0") if n >= 1 else f"{n:.2g}"
    return f"at least {times} times per million words"


def steps(store: Store, settings: Settings, options: dict[str, Any], allow_all: bool) -> list[Step]:
    """The filters of `options`, in the order they are applied."""
    out: list[Step] = []
    if not allow_all:
        keep = exclusions(settings).keep()
        out.append(
            Step(
                "--allow-all",
                SAFE,
                lambda lf: lf.filter(keep),
                loosen=False,
            )
        )
    if "top_frequent" in options:
        n = options["top_frequent"]
        top = (
            store.scan("words", COLUMNS["words"])
            .filter(pl.col("zipf") > 0)
            .sort(["zipf", "word"], descending=[True, False])
            .head(min(n, MAX_ROWS))
            .select("word")
            .collect()["word"]
            .to_list()
        )
        out.append(
            Step(
                "--top-frequent",
                f"among the {n:,} most frequent words of the word list",
                lambda lf: lf.filter(pl.col("word").is_in(top)),
            )
        )
    if "length" in options:
        lo, hi = parse_length(options["length"])
        words = f"{lo} letters" if lo == hi else f"{lo} to {hi} letters"
        out.append(Step("--length", words, lambda lf: lf.filter(pl.col("length").is_between(lo, hi))))
    if options.get("common") or "min_zipf" in options:
        z = options["min_zipf"] if "min_zipf" in options else settings.common_zipf
        option = "--min-zipf" if "min_zipf" in options else "--common"
        label = "common words: used" if option == "--common" else "used"
        out.append(
            Step(option, f"{label} {per_million(z)} (Zipf {z:g} or more)", lambda lf: lf.filter(pl.col("zipf") >= z))
        )
    for name, how, fn in (
        ("starts_with", "starting with", "starts_with"),
        ("ends_with", "ending with", "ends_with"),
        ("contains", "containing", "contains"),
    ):
        if name in options:
            part = letters(options[name], flag(name))
            expr = (
                getattr(pl.col("word").str, fn)(part, literal=True)
                if fn == "contains"
                else getattr(pl.col("word").str, fn)(part)
            )
            out.append(Step(flag(name), f"{how} {part.lower()}", _keep(expr)))
    if "pattern" in options:
        regex = pattern_for_list(options["pattern"])
        out.append(
            Step(
                "--pattern",
                f"matching the pattern {options['pattern'].strip().upper()} (? one letter, * any letters)",
                lambda lf: lf.filter(pl.col("word").str.contains(regex)),
            )
        )
    out += phonics_steps(store, options)
    if "hangman" in options:
        band = options["hangman"]
        if options.get("children"):
            table = children_hangman(store, settings).lazy()
        else:
            table = need_table(store, "hangman", "--hangman").select("word", "band", "misses", "guesses")
        out.append(
            Step(
                "--hangman",
                f"Hangman difficulty {band} (how a good guesser fares, within each length)",
                lambda lf: lf.join(table, on="word", how="inner").filter(pl.col("band") == band),
            )
        )
    if options.get("boggle_findable"):
        rate = options.get("min_find_rate", settings.min_find_rate)
        table = boggle_rates(need_table(store, "boggle_words", "--boggle-findable"), settings.boggle_dice)
        out.append(
            Step(
                "--boggle-findable",
                f"found on at least {rate:.2%} of random Boggle boards".replace(".00%", "%"),
                lambda lf: lf.join(table, on="word", how="inner").filter(pl.col("find_rate") >= rate),
            )
        )
    return out


PHONICS_TESTS: dict[str, tuple[str, Callable[[], pl.Expr]]] = {
    "cvc": ("CVC words (consonant, short vowel, consonant: cat, dog, sun)", lambda: pl.col("cvc")),
    "ccvc": ("CCVC words (a blend, a short vowel, a consonant: frog, stop)", lambda: pl.col("pattern") == "CCVC"),
    "cvcc": ("CVCC words (a consonant, a short vowel, a blend: lamp, jump)", lambda: pl.col("pattern") == "CVCC"),
    "blends": ("with a consonant blend (frog, lamp, string)", lambda: pl.col("blends").list.len() > 0),
    "digraphs": ("with a digraph (sh, ch, th, wh, ph, ck, ng)", lambda: pl.col("digraphs").list.len() > 0),
    "magic-e": ("magic e words (cake, bike, rope)", lambda: pl.col("magic_e")),
    "vowel-teams": (
        "with a vowel team (ai, ay, ee, ea, oa, ow, oo, ie, igh)",
        lambda: pl.col("vowel_teams").list.len() > 0,
    ),
    "r-controlled": ("with an r-controlled vowel (ar, er, ir, or, ur)", lambda: pl.col("r_controlled").list.len() > 0),
    "double-letters": ("with a doubled consonant (bell, kiss, puff)", lambda: pl.col("double_letters")),
    "short-vowels": ("with a short vowel sound", lambda: pl.col("short_vowels").list.len() > 0),
    "long-vowels": ("with a long vowel sound", lambda: pl.col("long_vowels").list.len() > 0),
    "regular": ("spelled as they sound (regular spelling)", lambda: pl.col("regular")),
    "irregular": ("tricky words: not spelled as they sound", lambda: pl.col("in_cmu") & ~pl.col("regular")),
}


def phase_step(key: str) -> tuple[str, pl.Expr]:
    """A --phase filter in plain words and its test: the words first decodable at that phase."""
    from pipeline.phonics.phases import check_phase, load_phases

    phase = check_phase(key, load_phases())
    column = "uk_phase" if phase.scheme == "uk" else "us_step"
    words = f"decodable at {phase.name} (its graphemes and tricky words, and those taught before; docs/phonics.md)"
    return words, pl.col(column) == phase.number


def grade_words(lo: int, hi: int) -> str:
    """A grade range in plain words: "grade K", "grades 2 to 3"."""
    name = {0: "K", 6: "6+"}
    a, b = name.get(lo, str(lo)), name.get(hi, str(hi))
    return f"grade {a}" if lo == hi else f"grades {a} to {b}"


def phonics_steps(store: Store, options: dict[str, Any]) -> list[Step]:
    """The filters that read phonics.parquet: children's pool, grade, Dolch, phonics, vowel, syllables,
    sound, spelling."""
    keys = ("children", "grade", "dolch", "phonics", "vowel", "syllables", "sound", "spelling", "phase", "grapheme")
    if not any(options.get(k) for k in keys):
        return []
    option = "--" + next(k for k in keys if options.get(k))
    table = need_table(store, "phonics", option)
    out: list[Step] = []

    def add(opt: str, words: str, expr: pl.Expr, loosen: bool = True) -> None:
        """A step keeping the words whose phonics row passes `expr`."""
        keep = table.filter(expr).select("word")

        def semi(lf: pl.LazyFrame, k: pl.LazyFrame = keep) -> pl.LazyFrame:
            """The words of `lf` that passed."""
            return lf.join(k, on="word", how="semi")

        out.append(Step(opt, words, semi, loosen))

    if options.get("children") and "grade" not in options:
        add("--children", CHILDREN_WORDS, pl.col("grade").is_between(0, CHILDREN_GRADE))
    if "grade" in options:
        lo, hi = parse_grade(options["grade"])
        add("--grade", f"{grade_words(lo, hi)} (estimated; see docs/phonics.md)", pl.col("grade").is_between(lo, hi))
    if "dolch" in options:
        level = options["dolch"]
        expr = pl.col("dolch").is_not_null() if level == "all" else pl.col("dolch") == level
        add("--dolch", f"Dolch sight words ({level.replace('-', ' ')})", expr)
    phonics = options.get("phonics")
    if phonics:
        words, expr = PHONICS_TESTS[phonics]
        add("--phonics", words, expr())
    if "vowel" in options:
        v = options["vowel"].lower()
        column = "long_vowels" if phonics in LONG_PHONICS else "short_vowels"
        kind = "long" if column == "long_vowels" else "short"
        add("--vowel", f"with a {kind} {v} sound", pl.col(column).list.contains(v))
    if "syllables" in options:
        lo, hi = parse_range(options["syllables"], "--syllables", what="syllables")
        words = f"{lo} syllable{'s' * (lo > 1)}" if lo == hi else f"{lo} to {hi} syllables"
        words += " (counted in the CMU Pronouncing Dictionary)"
        add("--syllables", words, pl.col("in_cmu") & pl.col("syllables").is_between(lo, hi))
    if "sound" in options:
        sound = options["sound"].upper()
        add("--sound", f"with the sound /{sound}/ however spelled", pl.col("phonemes").list.contains(sound))
    if "phase" in options:
        add("--phase", *phase_step(options["phase"]))
    if "grapheme" in options:
        g = options["grapheme"]
        add("--grapheme", f"decoded with the spelling {g}", pl.col("graphemes").list.contains(g))
    if "spelling" in options:
        other = "uk" if options["spelling"] == "us" else "us"
        add(
            "--spelling",
            f"{options['spelling'].upper()} spellings ({other.upper()}-only spellings left out)",
            pl.col("spelling").is_null() | (pl.col("spelling") != other),
            loosen=False,
        )
    return out


def children_pool(store: Store, settings: Settings) -> list[str]:
    """The children's word pool: words of grade K to 4 (Dolch and Dale-Chall familiar words) that pass the
    block list and the topics and that the classroom review keeps."""
    keep = exclusions(settings).keep()
    grades = need_table(store, "phonics", "--children").filter(pl.col("grade").is_between(0, CHILDREN_GRADE))
    grades = grades.select("word")
    kept = sorted(classroom_vocabulary(settings).kept)
    words = store.scan("words", ["word"]).join(grades, on="word", how="semi").filter(keep)
    return words.filter(pl.col("word").is_in(kept)).collect()["word"].to_list()


def scramble_pool(
    df: pl.DataFrame, store: Store, settings: Settings, banned: Banned, seed: int = 0
) -> tuple[pl.DataFrame, dict[str, list[str]], list[str]]:
    """The words that make a fair scramble, their other answers (the key gives every one) and, in the same
    order, their scrambled letters: a word whose letters also spell a word a child may know (any reviewed word,
    or a common word of the lexicon) that the review does not keep is left out, and so is a word whose letters
    cannot be shuffled into a non-word free of banned strings (each word shuffled by its own generator, seeded
    by the list's seed and the word, so that a word's letters do not depend on the other words)."""
    vocab = classroom_vocabulary(settings)
    lengths = sorted(set(df["length"].to_list()))
    lexicon = store.scan("words", ["word", "length", "zipf"]).filter(pl.col("length").is_in(lengths)).collect()
    common = lexicon.filter(pl.col("zipf") >= settings.common_zipf)["word"].to_list()
    known = frozenset(w for w in vocab.decisions if len(w) in lengths) | frozenset(common) | frozenset(df["word"])
    words = df["word"].to_list()
    alternatives = other_answers(words, known)
    everything = frozenset(lexicon["word"].to_list()) | known
    fair, letters = [], []
    for w in words:
        if not all(a in vocab.kept for a in alternatives[w]):
            continue
        try:
            letters.append(scramble(w, random.Random(f"{seed}:{w}"), everything, banned))
        except ValueError:
            continue
        fair.append(w)
    return df.filter(pl.col("word").is_in(fair)), {w: alternatives[w] for w in fair}, letters


def hangman_pool(df: pl.DataFrame, store: Store, settings: Settings) -> pl.DataFrame:
    """The words of `df` with no misleading Hangman reveal state (puzzles.misleading): the unsafe words are the
    offensive words a reader would recognise, the known words the reviewed ones and the lexicon's common words."""
    known = frozenset(classroom_vocabulary(settings).decisions) | frozenset(common_words(store, settings))
    lexicon = frozenset(store.scan("words", ["word"]).collect()["word"].to_list())
    bad = misleading(df["word"].to_list(), offensive_words(settings, lexicon | known), known)
    return df.filter(~pl.col("word").is_in(sorted(bad)))


def common_words(store: Store, settings: Settings) -> list[str]:
    """The lexicon's common words (Zipf at least the settings' common_zipf), upper case."""
    words = store.scan("words", ["word", "zipf"]).filter(pl.col("zipf") >= settings.common_zipf)
    return words.select("word").collect()["word"].to_list()


def children_hangman(store: Store, settings: Settings) -> pl.DataFrame:
    """Hangman difficulty against the children's pool: the solver guesses among the words a child knows;
    easy, medium and hard are the thirds of the pool's words by misses, then guesses."""
    from pipeline.hangman.solver import solve_lexicon

    pool = sorted(children_pool(store, settings))
    solved = solve_lexicon(pool).select("word", "misses", "guesses")
    ranked = solved.sort(["misses", "guesses", "word"]).with_row_index("rank")
    n = max(ranked.height, 1)
    band = (
        pl.when(pl.col("rank") * 3 < n)
        .then(pl.lit("easy"))
        .when(pl.col("rank") * 3 < 2 * n)
        .then(pl.lit("medium"))
        .otherwise(pl.lit("hard"))
    )
    return ranked.with_columns(band=band).select("word", "band", "misses", "guesses")


def boggle_rates(words: pl.LazyFrame, dice: str) -> pl.LazyFrame:
    """Each word's Boggle find rate (for `dice` when the table has a rate per dice set)."""
    names = words.collect_schema().names()
    if "dice" in names:
        has = words.filter(pl.col("dice") == dice).select(pl.len()).collect().item() > 0
        if has:
            words = words.filter(pl.col("dice") == dice)
        return words.group_by("word").agg(pl.col("find_rate").max())
    return words.select("word", "find_rate")


def apply(lf: pl.LazyFrame, chosen: list[Step]) -> pl.LazyFrame:
    """The words left after every step."""
    for step in chosen:
        lf = step.apply(lf)
    return lf


def loosen_hint(base: pl.LazyFrame, chosen: list[Step]) -> str:
    """Which single filter to loosen so that some words match, in one sentence."""
    best = None
    for i, step in enumerate(chosen):
        if not step.loosen:
            continue
        n = apply(base, chosen[:i] + chosen[i + 1 :]).select(pl.len()).collect().item()
        if n and (best is None or n > best[1]):
            best = (step, n)
    if best is None:
        loosenable = [s.option for s in chosen if s.loosen]
        if not loosenable:
            return "the word list has no words that pass the block list"
        return f"no single filter is to blame: loosen several of {', '.join(dict.fromkeys(loosenable))}"
    step, n = best
    return f"loosen {step.option} ({step.words}): without it {n:,} words match"


def for_children(options: dict[str, Any], printed: bool) -> bool:
    """Whether a list is for children: a children's filter or preset, or a sheet printed for a class."""
    return printed or any(options.get(k) for k in CHILDREN_FIELDS)


@dataclass(frozen=True)
class Review:
    """The words of a pool split by the classroom review: kept, excluded, never reviewed."""

    kept: pl.DataFrame
    excluded: int
    unreviewed: int


def review(df: pl.DataFrame, settings: Settings) -> Review:
    """The rows of `df` whose word has a keep decision, and how many others are excluded or unreviewed."""
    vocab = classroom_vocabulary(settings)
    decided = df["word"].is_in(sorted(vocab.decisions))
    kept = df["word"].is_in(sorted(vocab.kept))
    return Review(df.filter(kept), int((decided & ~kept).sum()), int((~decided).sum()))


def pick(df: pl.DataFrame, k: int, seed: int, swapped: frozenset[str] = frozenset()) -> pl.DataFrame:
    """k rows picked at random, reproducibly for the seed (in their order in `df`); each picked word in `swapped`
    is replaced by another word drawn by the same generator, the others staying as they were."""
    words = df["word"].str.to_uppercase().to_list()
    rng = random.Random(seed)
    chosen = sorted(rng.sample(range(df.height), k)) if k < df.height else list(range(df.height))
    out = [i for i in chosen if words[i] not in swapped]
    spare = [i for i in range(df.height) if i not in set(chosen) and words[i] not in swapped]
    while len(out) < len(chosen) and spare:
        out.append(spare.pop(rng.randrange(len(spare))))
    return df[sorted(out)]


def word_list(
    store: Store,
    config: Config,
    preset: str | None = None,
    given: dict[str, Any] | None = None,
    allow_all: bool = False,
    upper: bool = False,
    printed: bool = False,
) -> WordList:
    """Select a teacher's word list from the lexicon's tables; a children's list or a printed sheet holds only
    words the classroom review keeps, and its puzzles only words that play safely."""
    settings = load_settings(config)
    options = merge(settings, preset if preset is not None else None, given or {})
    base = store.scan("words", COLUMNS["words"]).select("word", "length", "zipf")
    chosen = steps(store, settings, options, allow_all)
    sort = options.get("sort", "alpha")
    sheet = options.get("sheet", default_sheet(options))
    lf = apply(base, chosen)
    if sort == "difficulty" and "hangman" not in options:
        if options.get("children"):
            hang = children_hangman(store, settings).lazy().select("word", "misses", "guesses")
        else:
            hang = need_table(store, "hangman", "--sort difficulty").select("word", "misses", "guesses")
        lf = lf.join(hang, on="word", how="left")
    df = lf.sort("word").collect()
    described = [s.words for s in chosen if s.option != "--allow-all"]
    described.append(SAFE if not allow_all else "no words left out (--allow-all)")
    if df.height == 0:
        raise NotFound(f"no words match: {'; '.join(described)}. To get some, {loosen_hint(base, chosen)}")
    reviewed = for_children(options, printed) and not allow_all
    excluded = unreviewed = 0
    if reviewed:
        r = review(df, settings)
        df, excluded, unreviewed = r.kept, r.excluded, r.unreviewed
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
    if df.height == 0:
        raise NotFound(f"no words of this list make a safe {sheet} puzzle: {'; '.join(described)}")
    swapped = frozenset(w.strip().upper() for w in options.get("swap", "").split(",") if w.strip())
    if swapped and "count" not in options:
        df = df.filter(~pl.col("word").is_in(sorted(swapped)))
    notes = []
    if unreviewed:
        notes.append(f"{unreviewed:,} matching words have no classroom review decision yet and are left out")
    pool = df.height
    if "count" in options:
        k, seed = options["count"], options.get("seed", 0)
        if k >= df.height:
            notes.append(f"only {df.height:,} words match, fewer than --sample {k}: all are listed")
        df = pick(df, k, seed, swapped)
        described.append(f"{min(k, df.height):,} words picked at random (seed {seed})")
    df = sort_words(df, sort)
    described.append(
        {
            "alpha": "in alphabetical order",
            "frequency": "most common first",
            "difficulty": "easiest Hangman words first",
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
        paper=PAPER_NAMES[options["paper"].lower()] if "paper" in options else settings.paper,
        sheet=sheet,
        seed=options.get("seed", 0),
        children=reviewed,
        pool=pool,
        difficulty=options.get("difficulty", "medium"),
        reviewed=reviewed,
        unreviewed=unreviewed,
        review_excluded=excluded,
        answers={w: answers[w] for w in picked if w in answers},
        scrambled=[letters[w] for w in picked] if letters else [],
        banned=banned,
        lowercase=bool(options.get("lowercase", False)),
        font=options.get("font", "dejavu"),
        fill=dict(settings.fill),
    )


def default_sheet(options: dict[str, Any]) -> str:
    """The sheet when none is named: Hangman puzzles for a Hangman list, a spelling test with --blanks."""
    if "hangman" in options:
        return "hangman"
    return "spelling-test" if options.get("blanks") else "list"


def sort_words(df: pl.DataFrame, sort: str) -> pl.DataFrame:
    """Words in the chosen order, ties by word."""
    if sort == "frequency":
        return df.sort(["zipf", "word"], descending=[True, False])
    if sort == "difficulty":
        return df.sort(["misses", "guesses", "word"], nulls_last=True)
    return df.sort("word")


def presets_table(config: Config) -> pl.DataFrame:
    """One row per preset: its name, title and filters as command-line options."""
    settings = load_settings(config)
    rows = []
    for name, fields in settings.presets.items():
        opts = []
        for key, value in fields.items():
            if key == "title":
                continue
            if isinstance(value, bool):
                if value:
                    opts.append(flag(key))
            else:
                opts.append(f"{flag(key)} {value}")
        rows.append({"preset": name, "title": fields.get("title", ""), "options": " ".join(opts)})
    return pl.DataFrame(rows, schema={"preset": pl.String, "title": pl.String, "options": pl.String})
