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
    flag,
    letters,
    merge,
    parse_length,
    pattern_for_list,
)
from pipeline.wordlists.settings import Settings, blocked_words, load_settings


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

    @property
    def words(self) -> list[str]:
        """The words, in order."""
        return self.table["word"].to_list()


COLUMNS = {
    "words": ["word", "length", "zipf"],
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
        blocked = sorted(blocked_words(settings))
        out.append(
            Step(
                "--allow-all",
                "offensive and adult words left out",
                lambda lf: lf.filter(~pl.col("word").is_in(blocked)),
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
    if "hangman" in options:
        band = options["hangman"]
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
        hang = need_table(store, "hangman", "--sort difficulty").select("word", "misses", "guesses")
        lf = lf.join(hang, on="word", how="left")
    df = lf.sort("word").collect()
    described = [s.words for s in chosen if s.option != "--allow-all"]
    described.append("offensive and adult words left out" if not allow_all else "no words left out (--allow-all)")
    if df.height == 0:
        raise NotFound(f"no words match: {'; '.join(described)}. To get some, {loosen_hint(base, chosen)}")
    note = None
    if "count" in options:
        k, seed = options["count"], options.get("seed", 0)
        if k < df.height:
            picked = sorted(random.Random(seed).sample(range(df.height), k))
            df = df[picked]
        else:
            note = f"only {df.height:,} words match, fewer than --count {k}: all are listed"
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
        paper=settings.paper,
    )


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
