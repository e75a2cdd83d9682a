"""Selecting words: filter steps that combine, sampling, sorting."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from pipeline.core.config import Config
from pipeline.core.errors import NotFound, WordstatsError
from pipeline.core.store import MAX_ROWS, Store
from pipeline.wordlists.options import (
    LONG_PHONICS,
    PAPER_NAMES,
    flag,
    letters,
    merge,
    parse_grade,
    parse_length,
    parse_range,
    pattern_for_list,
)
from pipeline.wordlists.settings import Settings, exclusions, load_settings

SAFE = "offensive words and topics not for the classroom left out"
CHILDREN_GRADE = 4  # the children's pool: grade K to 4, the words familiar to fourth graders
CHILDREN_WORDS = "words a primary-school child knows (Dolch and Dale-Chall words, grade K to 4)"


@dataclass(frozen=True)
class Step:
    """One filter: the option that adds it, what it does in plain words, and the polars step."""

    option: str
    words: str
    apply: Callable[[pl.LazyFrame], pl.LazyFrame]
    loosen: bool = True  # may the empty-result hint suggest loosening it?


@dataclass
class WordList:
    """A finished list: its title, the filters in plain words, the words, and how to print it."""

    title: str
    lexicon: str
    filters: list[str]
    table: pl.DataFrame
    blanks: bool = False
    hangman: bool = False
    note: str | None = None
    paper: str = "A4"
    sheet: str = "list"
    seed: int = 0
    children: bool = False
    pool: int = 0  # words that matched, before any random pick
    difficulty: str = "medium"  # word search: which directions words run in, how big the grid is

    @property
    def words(self) -> list[str]:
        """The words, in order."""
        return self.table["word"].to_list()


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


def grade_words(lo: int, hi: int) -> str:
    """A grade range in plain words: "grade K", "grades 2 to 3"."""
    name = {0: "K", 6: "6+"}
    a, b = name.get(lo, str(lo)), name.get(hi, str(hi))
    return f"grade {a}" if lo == hi else f"grades {a} to {b}"


def phonics_steps(store: Store, options: dict[str, Any]) -> list[Step]:
    """The filters that read phonics.parquet: children's pool, grade, Dolch, phonics, vowel, syllables,
    sound, spelling."""
    keys = ("children", "grade", "dolch", "phonics", "vowel", "syllables", "sound", "spelling")
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
        lo, hi = parse_range(options["syllables"], "--syllables")
        words = f"{lo} syllable{'s' * (lo > 1)}" if lo == hi else f"{lo} to {hi} syllables"
        words += " (counted in the CMU Pronouncing Dictionary)"
        add("--syllables", words, pl.col("in_cmu") & pl.col("syllables").is_between(lo, hi))
    if "sound" in options:
        sound = options["sound"].upper()
        add("--sound", f"with the sound /{sound}/ however spelled", pl.col("phonemes").list.contains(sound))
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
    block list and the topics."""
    keep = exclusions(settings).keep()
    grades = need_table(store, "phonics", "--children").filter(pl.col("grade").is_between(0, CHILDREN_GRADE))
    grades = grades.select("word")
    return store.scan("words", ["word"]).join(grades, on="word", how="semi").filter(keep).collect()["word"].to_list()


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


def word_list(
    store: Store,
    config: Config,
    preset: str | None = None,
    given: dict[str, Any] | None = None,
    allow_all: bool = False,
    upper: bool = False,
) -> WordList:
    """Select a teacher's word list from the lexicon's tables."""
    settings = load_settings(config)
    options = merge(settings, preset, given or {})
    base = store.scan("words", COLUMNS["words"]).select("word", "length", "zipf")
    chosen = steps(store, settings, options, allow_all)
    sort = options.get("sort", "alpha")
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
    note = None
    pool = df.height
    if "count" in options:
        k, seed = options["count"], options.get("seed", 0)
        if k < df.height:
            picked = sorted(random.Random(seed).sample(range(df.height), k))
            df = df[picked]
        else:
            note = f"only {df.height:,} words match, fewer than --sample {k}: all are listed"
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
    if not upper:
        df = df.with_columns(pl.col("word").str.to_lowercase())
    lexicon_note = f"from the {store.lexicon} word list"
    return WordList(
        title=options.get("title") or "Word list",
        lexicon=store.lexicon,
        filters=[lexicon_note] + described,
        table=df,
        blanks=bool(options.get("blanks", False)),
        hangman="hangman" in options,
        note=note,
        paper=PAPER_NAMES[options["paper"].lower()] if "paper" in options else settings.paper,
        sheet=options.get("sheet", default_sheet(options)),
        seed=options.get("seed", 0),
        children=bool(options.get("children") or "grade" in options),
        pool=pool,
        difficulty=options.get("difficulty", "medium"),
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
