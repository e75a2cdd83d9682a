"""Grade levels: the Dolch sight words, the Dale–Chall familiar words, and a transparent grade estimate."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import polars as pl

from pipeline.core.errors import WordstatsError

DOLCH_LEVELS = ("pre-primer", "primer", "grade-1", "grade-2", "grade-3", "nouns")
DOLCH_GRADE = {"pre-primer": 0, "primer": 0, "grade-1": 1, "grade-2": 2, "grade-3": 3, "nouns": 1}
DALE_CHALL_PACKAGE = "textstat"
DALE_CHALL_RESOURCE = "resources/en/easy_words.txt"
RARE_ZIPF = 4.0  # a familiar word used less often than this in adult text is one grade later...
VERY_RARE_ZIPF = 3.0  # ...and less often than this, two grades later
UNSEEN_ZIPF = 2.5  # a familiar word rarer than this is beyond primary (6)
SCHOOL_ZIPF = 4.0  # an unfamiliar word at least this common, of at most 3 syllables, is grade 5
KNOWN_ZIPF = 3.0  # an unfamiliar word at least this common is grade 6+ ("beyond primary")


def dolch(path: Path) -> pl.DataFrame:
    """The Dolch lists (word, level), as bundled in data/raw/dolch.csv; one-line error when unreadable."""
    try:
        df = pl.read_csv(path, schema={"word": pl.String, "level": pl.String})
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise WordstatsError(f"{path}: cannot read the Dolch list ({str(exc).splitlines()[0]})") from None
    bad = df.filter(~pl.col("level").is_in(DOLCH_LEVELS))
    if bad.height:
        raise WordstatsError(f"{path}: unknown Dolch level {bad['level'][0]!r} (levels: {', '.join(DOLCH_LEVELS)})")
    return df


@functools.cache
def dale_chall() -> frozenset[str]:
    """The Dale–Chall list of words familiar to fourth graders (upper case), as textstat ships it."""
    text = resources.files(DALE_CHALL_PACKAGE).joinpath(DALE_CHALL_RESOURCE).read_text("utf-8")
    return frozenset(w.strip().upper() for w in text.split() if w.strip().isalpha())


def familiar(words: list[str]) -> list[str | None]:
    """Dale–Chall familiarity of each word (upper case): "listed" when on the list, "inflected" when an
    inflection of a word on it (Dale and Chall count regular plurals, -ed, -ing, -er, -est forms as
    familiar), else None."""
    import lemminflect

    listed = dale_chall()
    out: list[str | None] = []
    for w in words:
        if w in listed:
            out.append("listed")
            continue
        if not w:  # no word (a word with no other spelling)
            out.append(None)
            continue
        lemmas = lemminflect.getAllLemmas(w.lower())
        inflected = any(lemma.upper() in listed for forms in lemmas.values() for lemma in forms)
        out.append("inflected" if inflected else None)
    return out


def grade_expr() -> pl.Expr:
    """The grade estimate (0 = kindergarten ... 5, 6 = beyond primary, null = not a school word) from the
    columns dolch, dale_chall, zipf, syllables, cvc and regular; the rule of docs/phonics.md."""
    syl = pl.col("syllables")
    regular = pl.col("regular").fill_null(False)
    by_sound = (
        pl.when(syl <= 1)
        .then(pl.when(pl.col("cvc").fill_null(False)).then(0).when(regular).then(1).otherwise(2))
        .when(syl == 2)
        .then(pl.when(regular).then(2).otherwise(3))
        .when(syl == 3)
        .then(3)
        .otherwise(4)
    )
    later = (
        (pl.col("zipf") < RARE_ZIPF).cast(pl.Int32)
        + (pl.col("zipf") < VERY_RARE_ZIPF).cast(pl.Int32)
        + (pl.col("dale_chall") == "inflected").cast(pl.Int32)
    )
    familiar_grade = pl.min_horizontal(by_sound + later, pl.lit(4))
    dolch_grade = pl.col("dolch").replace_strict(DOLCH_GRADE, default=None, return_dtype=pl.Int32)
    return (
        pl.when(pl.col("dolch").is_not_null())
        .then(dolch_grade)
        .when(pl.col("dale_chall").is_not_null() & (pl.col("zipf") >= UNSEEN_ZIPF))
        .then(familiar_grade)
        .when((pl.col("zipf") >= SCHOOL_ZIPF) & (syl <= 3))
        .then(5)
        .when(pl.col("zipf") >= KNOWN_ZIPF)
        .then(6)
        .otherwise(None)
        .cast(pl.Int8)
    )
