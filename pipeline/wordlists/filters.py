"""The filters of a word list: each option a step in plain words and a polars step, applied in order, and the
hint that says which one to loosen when nothing matches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from pipeline.core.store import MAX_ROWS, Store
from pipeline.wordlists.choices import Choices, flag
from pipeline.wordlists.fields import LONG_PHONICS
from pipeline.wordlists.pools import CHILDREN_GRADE, COLUMNS, children_hangman, need_table
from pipeline.wordlists.settings import Settings
from pipeline.words.classroom import exclusions

if TYPE_CHECKING:
    from pipeline.words.phases import Phase

SAFE = "offensive words and topics not for the classroom left out"
CHILDREN_WORDS = "words a primary-school child knows (Dolch and Dale-Chall words, grade K to 4)"


@dataclass(frozen=True)
class Step:
    """One filter: the option that adds it, what it does in plain words, and the polars step."""

    option: str
    words: str
    apply: Callable[[pl.LazyFrame], pl.LazyFrame]
    loosen: bool = True  # may the empty-result hint suggest loosening it?


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


def steps(store: Store, settings: Settings, options: Choices, allow_all: bool) -> list[Step]:
    """The filters of the choices in force, in the order they are applied."""
    out: list[Step] = []
    if not allow_all:
        keep = exclusions(settings.classroom).keep()
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
        lo, hi = options["length"]
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
            part = options[name]
            expr = (
                getattr(pl.col("word").str, fn)(part, literal=True)
                if fn == "contains"
                else getattr(pl.col("word").str, fn)(part)
            )
            out.append(Step(flag(name), f"{how} {part.lower()}", _keep(expr)))
    if "pattern" in options:
        pattern = options["pattern"]
        out.append(
            Step(
                "--pattern",
                f"matching the pattern {pattern.text} (? one letter, * any letters)",
                lambda lf: lf.filter(pl.col("word").str.contains(pattern.regex)),
            )
        )
    out += phonics_steps(store, options)
    if "hangman" in options:
        band = options["hangman"]
        if options.get("children"):
            table = children_hangman(store).lazy()
        else:
            table = need_table(store, "hangman", "--hangman").select(
                "word", "band", "expected_misses", "misses", "guesses"
            )
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


def phase_step(phase: Phase) -> tuple[str, pl.Expr]:
    """A --phase filter in plain words and its test: the words first decodable at that phase."""
    column = "uk_phase" if phase.scheme == "uk" else "us_step"
    words = f"decodable at {phase.name} (its graphemes and tricky words, and those taught before; docs/phonics.md)"
    return words, pl.col(column) == phase.number


def grade_words(lo: int, hi: int) -> str:
    """A grade range in plain words: "grade K", "grades 2 to 3"."""
    name = {0: "K", 6: "6+"}
    a, b = name.get(lo, str(lo)), name.get(hi, str(hi))
    return f"grade {a}" if lo == hi else f"grades {a} to {b}"


def phonics_steps(store: Store, options: Choices) -> list[Step]:
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
        lo, hi = options["grade"]
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
        v = options["vowel"]
        column = "long_vowels" if phonics in LONG_PHONICS else "short_vowels"
        kind = "long" if column == "long_vowels" else "short"
        add("--vowel", f"with a {kind} {v} sound", pl.col(column).list.contains(v))
    if "syllables" in options:
        lo, hi = options["syllables"]
        words = f"{lo} syllable{'s' * (lo > 1)}" if lo == hi else f"{lo} to {hi} syllables"
        words += " (counted in the CMU Pronouncing Dictionary)"
        add("--syllables", words, pl.col("in_cmu") & pl.col("syllables").is_between(lo, hi))
    if "sound" in options:
        sound = options["sound"]
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
