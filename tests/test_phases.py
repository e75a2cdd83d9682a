"""Decodable words by phonics phase: known words, and the stage's phase of sampled words against a slow
reference that tries each phase in turn with only what it teaches."""

from __future__ import annotations

import random
import tomllib

import pytest

from pipeline.phonics.sounds import all_pronunciations, british
from pipeline.phonics.stage import inflection_base, sound_rows
from pipeline.words.phases import load_phases
from tests.conftest import ROOT

PHASES = ROOT / "configs" / "phonics.toml"
VOWELS = "aeiou"
VOWEL_SOUNDS = {"AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"}


@pytest.mark.parametrize(
    "word, uk, us",
    [
        ("cat", 2, 1),
        ("hats", 2, 1),
        ("the", 2, 1),
        ("ship", 3, 2),
        ("fox", 3, 1),
        ("rain", 3, 6),
        ("night", 3, 6),
        ("car", 3, 5),
        ("fork", 3, 5),
        ("coin", 3, 7),
        ("frog", 4, 3),
        ("lamp", 4, 3),
        ("think", 4, 3),
        ("said", 4, 1),
        ("cake", 5, 4),
        ("day", 5, 6),
        ("bird", 5, 5),
        ("phone", 5, 7),
        ("rabbit", 2, 3),  # Letters and Sounds phase 2: two syllables, rab-bit
        ("pocket", 2, 3),  # pock-et: the unstressed e said as the schwa
        ("sunset", 2, 1),
        ("hospital", 4, 3),  # three syllables: Letters and Sounds reads them from phase 4
        ("a", 2, 1),
        ("carrot", 2, 3),  # car-rot: rr begins the second syllable
        ("parrot", 2, None),  # British par-rot has the short a of cat (CMU's only one is American P EH R)
        ("unlock", 2, 2),  # un-lock: n and l fall in two syllables
        ("between", 4, 6),  # be-tween: tw begins a syllable (ee: US step 6)
        ("squid", 4, 3),
        ("story", 5, 6),  # st-or-y (the test below: its graphemes)
        ("kitten", 2, 3),
        ("seven", 3, 3),
        ("jumping", 4, 3),  # never before its stem jump (mp is taught in phase 4)
        ("fine", 5, 4),  # f-i_n-e: never as CMU's second, Italian pronunciation (fin-ay)
        ("very", 5, 4),  # v-e-r-y: the r begins the second syllable
        ("school", 5, 7),  # ch said k is a phase 5 spelling, not the ch digraph
    ],
)
def test_known_words_are_decodable_at_their_phase(word, uk, us):
    """Words whose phase every Letters and Sounds guide agrees on, and their step of our US sequence; the later
    ones are Letters and Sounds' own examples or the cases a teacher corrected."""
    row = sound_rows([word.upper()], load_phases()).row(0, named=True)
    assert (row["uk_phase"], row["us_step"]) == (uk, us)


@pytest.mark.parametrize("word, graphemes", [("story", "s t or y"), ("very", "v e r y"), ("glory", "g l or y")])
def test_the_longest_graphemes_read_a_word(word, graphemes):
    """Of two decodings at the same phase, the one of fewer, longer graphemes (st-or-y, not s-t-o-r-y)."""
    row = sound_rows([word.upper()], load_phases()).row(0, named=True)
    assert " ".join(row["graphemes"]) == graphemes


@pytest.mark.parametrize("word", ["berry", "carrot", "arrow", "cherry", "sorry", "ferry"])
def test_a_vowel_before_a_doubled_r_is_short(word):
    """A vowel before rr says its short sound (ber-ry, car-rot): such words decode in both schemes, not never."""
    row = sound_rows([word.upper()], load_phases()).row(0, named=True)
    assert row["uk_phase"] is not None and row["us_step"] is not None, row


@pytest.mark.parametrize("word, uk", [("charity", 5), ("character", 5), ("marathon", 4), ("from", 4), ("mam", 2)])
def test_the_uk_phases_read_the_vowels_british_english_says(word, uk):
    """Britfone's British vowels where CMU's American ones differ (char-i-ty, mam: the a of cat; from: the o of
    hot): decodable in the UK phases; the US steps keep CMU's reading."""
    row = sound_rows([word.upper()], load_phases()).row(0, named=True)
    assert row["uk_phase"] == uk, row


@pytest.mark.parametrize(
    "word, said",
    [("VARY", "V EH1 R IY0"), ("AREA", "EH1 R IY0 AH0"), ("FATHER", "F AA1 DH ER0"), ("ZZZ", "Z IY1")],
)
def test_british_vowels_leave_a_word_as_cmu_says_it_unless_they_pair_and_differ(word, said):
    """The square vowel of vary, area's vowels that do not pair one to one (no r in British English), father's
    a and a word Britfone lacks: CMU's phones unchanged."""
    assert british(word, said.split()) == said.split()


@pytest.mark.parametrize("word", ["marry", "sparrow", "parrot", "marrow"])
def test_british_phases_read_a_before_rr_as_british_english_says_it(word):
    """British marry and sparrow have the short a of cat (CMU's American says the e of merry): decodable in the
    UK phases, and in the US sequence only as American English says them (never, the e of merry not being
    spelled a there)."""
    row = sound_rows([word.upper()], load_phases()).row(0, named=True)
    assert row["uk_phase"] is not None and row["graphemes"][1:3] in (["a", "rr"], ["p", "a"]), row
    assert row["us_step"] is None, row


@pytest.mark.parametrize(
    "word, graphemes",
    [("hurry", "h u rr y"), ("worry", "w o rr y"), ("arrest", "a rr e s t"), ("correct", "c o rr e c t")],
)
def test_a_vowel_and_rr_said_as_one_r_coloured_vowel_are_read_short_or_as_the_schwa(word, graphemes):
    """CMU's ER for a vowel and rr (American hurry): read as British English says it, the vowel short when
    stressed and the schwa when not, then rr."""
    row = sound_rows([word.upper()], load_phases()).row(0, named=True)
    assert " ".join(row["graphemes"]) == graphemes and row["uk_phase"] is not None, row


def test_an_ending_never_makes_a_word_earlier_than_its_stem():
    """jumping is no earlier than jump (a word is decodable only when all of it is), hats as early as hat."""
    rows = {r["word"]: r for r in sound_rows(["JUMP", "JUMPING", "HAT", "HATS"], load_phases()).to_dicts()}
    for scheme in ("uk_phase", "us_step"):
        assert rows["JUMPING"][scheme] == rows["JUMP"][scheme] and rows["HATS"][scheme] == rows["HAT"][scheme]


def test_a_word_with_an_r_coloured_base_is_not_read_short():
    """furry is fur + y, purring purr + ing (said with ur, never short u): not read by the short-vowel rule."""
    rows = {r["word"]: r for r in sound_rows(["FUR", "FURRY", "PURR", "PURRING", "HURRY"], load_phases()).to_dicts()}
    assert rows["FURRY"]["uk_phase"] is None and rows["PURRING"]["uk_phase"] is None
    assert rows["HURRY"]["uk_phase"] is not None


SHORT_SOUND = {"a": "AE", "e": "EH", "i": "IH", "o": "AA", "u": "AH"}


def reference_phase(word: str, phones: list[str], scheme: str, r_words: frozenset[str] = frozenset()) -> int | None:
    """The first phase of `scheme` whose taught correspondences (and those before it) spell the word, tried
    phase by phase with every alignment enumerated; a tricky word counts from its phase. A vowel and a doubled r
    said as one ER are the short vowel (stressed; not when the letters up to the r or rr are one of `r_words`) or
    the schwa (unstressed) and then rr as R."""
    phases = tomllib.loads(PHASES.read_text())
    numbers = sorted(int(k.split("-")[1]) for k in phases if k.startswith(scheme + "-"))
    sounds = [p.rstrip("012") for p in phones]
    unstressed = [p[-1] == "0" for p in phones]
    for n in numbers:
        upto = [phases[f"{scheme}-{m}"] for m in numbers if m <= n]
        if any(word in p.get("tricky", []) for p in upto):
            return n
        gpc = {(g, tuple(s.split())) for p in upto for g, sl in p.get("graphemes", {}).items() for s in sl}
        split = {v: s for p in upto for v, s in p.get("split", {}).items()}
        clusters = any(p.get("clusters") for p in upto)
        schwa = any(p.get("schwa") for p in upto)
        limited = any(phases[f"{scheme}-{m}"].get("polysyllables") for m in numbers)
        if limited and not any(p.get("polysyllables") for p in upto) and sum(p[-1].isdigit() for p in phones) >= 3:
            continue  # three syllables or more: not before the phase that reads them

        def parts(i: int, j: int, gpc=gpc, split=split, schwa=schwa):
            """Every alignment of word[i:] with sounds[j:] as a list of (grapheme, sounds)."""
            if i == len(word) and j == len(sounds):
                yield []
            closes = (
                i + 1 < len(word) and word[i + 1] == "r" and (i + 2 == len(word) or word[i + 2] not in VOWELS + "ry")
            )  # ber-ry, ve-ry: a doubled r, or an r before a vowel or y, begins the next syllable
            british = scheme == "uk" and word[i : i + 3] == "arr" and sounds[j : j + 1] == ["EH"]
            if british and ("a", ("AE",)) in gpc:  # British marry, carrot: the TRAP vowel, not American EH
                for rest in parts(i + 1, j + 1, gpc, split, schwa):
                    yield [("a", ("AE",)), *rest]
            for g, seq in gpc:
                if len(g) == 1 and g in VOWELS and closes:
                    continue  # a vowel before a syllable-closing r is read with it
                if word.startswith(g, i) and tuple(sounds[j : j + len(seq)]) == seq:
                    for rest in parts(i + len(g), j + len(seq), gpc, split, schwa):
                        yield [(g, seq), *rest]
            if schwa and i < len(word) and word[i] in VOWELS and j < len(sounds) and not closes:
                if sounds[j] in ("AH", "IH") and unstressed[j]:
                    for rest in parts(i + 1, j + 1, gpc, split, schwa):
                        yield [(word[i], (sounds[j],)), *rest]
            if word[i : i + 1] in SHORT_SOUND and word[i + 1 : i + 3] == "rr" and sounds[j : j + 1] == ["ER"]:
                said = "AH" if unstressed[j] else SHORT_SOUND[word[i]]
                base_word = word[: i + 2] in r_words or word[: i + 3] in r_words
                vowel_taught = schwa if unstressed[j] else (word[i], (said,)) in gpc and not base_word
                if vowel_taught and ("rr", ("R",)) in gpc:
                    for rest in parts(i + 3, j + 1, gpc, split, schwa):
                        yield [(word[i], (said,)), ("rr", ("R",)), *rest]
            if i + 3 == len(word) and word[i] in split and word[-1] == "e":
                for g, seq in gpc:
                    want = (split[word[i]], *seq)
                    if g == word[i + 1] and g not in VOWELS and tuple(sounds[j:]) == want:
                        yield [(word[i] + "_e", want)]

        for alignment in parts(0, 0):
            if clusters or not cluster(alignment):
                return n
    return None


def cluster(alignment) -> bool:
    """Two consonant graphemes at the start or the end (a final s after a consonant does not count), three in a
    row anywhere, or a consonant grapheme followed by r or l."""

    def consonant(part) -> bool:
        """No vowel letter (qu's u aside), consonant sounds only."""
        g, seq = part
        return bool(seq) and not set(g.replace("qu", "q")) & set(VOWELS) and not set(seq) & VOWEL_SOUNDS

    a = list(alignment)
    if len(a) >= 3 and a[-1][0] == "s" and consonant(a[-2]):
        a = a[:-1]
    if len(a) >= 2 and ((consonant(a[0]) and consonant(a[1])) or (consonant(a[-1]) and consonant(a[-2]))):
        return True
    runs, run = [], []  # the maximal runs of consonant graphemes
    for part in a + [("", ())]:
        if consonant(part):
            run.append(part[0])
        else:
            runs, run = runs + [run], []
    onsets = {"bl", "cl", "fl", "gl", "pl", "sl", "br", "cr", "dr", "fr", "gr", "pr", "tr", "thr", "shr", "tw", "sw"}
    onsets |= {"dw", "squ"}
    return any(len(r) >= 3 or any(a + b in onsets for a, b in zip(r, r[1:])) for r in runs)


@pytest.mark.slow
def test_phases_match_the_reference_on_sampled_words():
    """For 400 random CMU words of up to 7 letters (and every phase's tricky words), the stage's first
    decodable phase equals the reference's, in both schemes."""
    said = all_pronunciations()
    rng = random.Random(5)
    words = rng.sample(sorted(w for w in said if 2 <= len(w) <= 7), 400)
    table = sound_rows(words, load_phases())
    r_words = frozenset(w.lower() for w in words if said[w][0].split()[-1].startswith("ER"))
    checked = 0
    for row in table.iter_rows(named=True):
        root = inflection_base(row["word"], said)  # an inflected form: never before its stem
        for scheme, column in (("uk", "uk_phase"), ("us", "us_step")):
            word_said, root_said = said[row["word"]][0].split(), said[root][0].split() if root else []
            if scheme == "uk":  # the UK phases read British English's vowels (the source's data, not a rule)
                word_said, root_said = british(row["word"], word_said), british(root or "", root_said)
            want = reference_phase(row["word"].lower(), word_said, scheme, r_words)
            if root is not None:
                stem = reference_phase(root.lower(), root_said, scheme, r_words)
                want = None if want is None or stem is None else max(want, stem)
            assert row[column] == want, (row["word"], scheme)
            checked += 1
    assert checked == 2 * table.height > 600
