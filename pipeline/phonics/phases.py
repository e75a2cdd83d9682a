"""Decodable words by phonics phase: the first phase of a scheme (UK Letters and Sounds, a US scope and
sequence) whose taught grapheme-phoneme correspondences spell a word's pronunciation, letter by letter. The phases
themselves are configs/phonics.toml's, read by pipeline.words.phases."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pipeline.letters.alphabet import VOWEL_LETTERS
from pipeline.phonics.rules import VOWEL_SOUNDS, base
from pipeline.words.phases import Phase, scheme_phases

SCHWA = ("AH", "IH")  # what an unstressed single vowel may say once the schwa is taught
SHORT = {"a": "AE", "e": "EH", "i": "IH", "o": "AA", "u": "AH"}  # each vowel letter's short sound (CMU's)
NEVER = 1 << 10  # the phase of what a scheme never teaches
BRITISH = ("uk",)  # schemes taught in British English, which reads some of CMU's American vowels otherwise
# Where British English says a vowel otherwise than CMU's American English, as (the letters from the vowel on,
# CMU's sound, the British one): marry, carrot, sparrow and arrow have the TRAP vowel in British English, where
# most American speakers say the DRESS vowel of merry (the Mary-marry-merry merger; Wells, Accents of English, 1982).
BRITISH_READINGS = (("arr", "EH", "AE"),)


@dataclass(frozen=True)
class Taught:
    """What is taught by the end of a phase: every grapheme's sounds with the phase that taught each, split
    digraphs likewise, and from which phase clusters and the schwa are taught."""

    sounds: dict[str, dict[tuple[str, ...], int]]
    split: dict[str, int]
    split_sound: dict[str, str]
    clusters_from: int
    schwa_from: int
    tricky: dict[str, int]
    r_words: frozenset[str] = frozenset()  # words said with a final r-coloured vowel (fur, stir): lower case
    polysyllables_from: int = 0  # the phase from which words of three or more syllables are read (0: always)
    british: bool = False  # read as British English says it where CMU's American differs (BRITISH_READINGS)


def taught(phases: tuple[Phase, ...], scheme: str) -> Taught:
    """Everything a scheme teaches, each item with the number of the phase that first teaches it."""
    sounds: dict[str, dict[tuple[str, ...], int]] = {}
    split: dict[str, int] = {}
    split_sound: dict[str, str] = {}
    tricky: dict[str, int] = {}
    clusters_from = schwa_from = NEVER
    polysyllables_from = 0 if not any(p.polysyllables for p in scheme_phases(phases, scheme)) else NEVER
    for p in scheme_phases(phases, scheme):
        for g, seqs in p.graphemes.items():
            for seq in seqs:
                sounds.setdefault(g, {}).setdefault(seq, p.number)
        for v, sound in p.split.items():
            split.setdefault(v, p.number)
            split_sound.setdefault(v, sound)
        for w in p.tricky:
            tricky.setdefault(w, p.number)
        if p.clusters:
            clusters_from = min(clusters_from, p.number)
        if p.schwa:
            schwa_from = min(schwa_from, p.number)
        if p.polysyllables:
            polysyllables_from = min(polysyllables_from, p.number)
    return Taught(
        sounds,
        split,
        split_sound,
        clusters_from,
        schwa_from,
        tricky,
        british=scheme in BRITISH,
        polysyllables_from=polysyllables_from,
    )


@dataclass(frozen=True)
class Decoding:
    """A word's decoding in one scheme: the first phase it is decodable at and the graphemes it uses."""

    phase: int
    graphemes: tuple[str, ...]  # empty for a tricky word


def decode(word: str, phones: list[str], t: Taught) -> Decoding | None:
    """The first phase at which `word` (lower case) pronounced `phones` (ARPAbet with stress) is decodable
    with what `t` teaches, and the graphemes of that decoding; a tricky word counts from its phase; None when no
    phase decodes it. Before clusters are taught, a word may not start or end with two consonant graphemes."""
    if word.upper() in t.tricky:
        return Decoding(t.tricky[word.upper()], ())
    sounds = [base(p) for p in phones]
    stressed = [p[-1] in "12" if p[-1].isdigit() else None for p in phones]
    floor = t.polysyllables_from if sum(s is not None for s in stressed) >= 3 else 0  # hos-pi-tal: phase 4
    found: list[tuple[int, tuple[str, ...]]] = []
    for step, parts in _alignments(word, sounds, stressed, t, 0, 0):
        parts = tuple(part for move in parts for part in move)
        phase = max(step, t.clusters_from) if has_cluster(list(parts)) else step
        phase = max(phase, floor)
        if phase < NEVER:
            found.append((phase, tuple(g for g, _ in parts)))
    return Decoding(*min(found, key=lambda f: (f[0], len(f[1]), f[1]))) if found else None  # st-or-y, not o + r


MAX_ALIGNMENTS = 512  # alignments tried per word (a word has a handful; this only bounds pathological ones)


def _alignments(word: str, sounds: list[str], stressed, t: Taught, i: int, j: int):
    """Every taught alignment of word[i:] with sounds[j:]: (the latest phase it needs, its parts)."""
    if i == len(word) and j == len(sounds):
        yield 0, ()
        return
    count = 0
    for step, ni, nj, parts in _moves(word, sounds, stressed, i, j, t):
        for rest_step, rest in _alignments(word, sounds, stressed, t, ni, nj):
            yield max(step, rest_step), (parts, *rest)
            count += 1
            if count >= MAX_ALIGNMENTS:
                return


def _moves(word: str, sounds: list[str], stressed, i: int, j: int, t: Taught):
    """Every taught step from letter i and sound j: (phase, next letter, next sound, its graphemes with their
    sounds)."""
    n = len(word)
    for k in range(1, min(4, n - i) + 1):
        g = word[i : i + k]
        if k == 1 and before_r(word, i):
            continue  # a vowel before an r that ends its syllable is read with the r (or, ar...), never alone
        for seq, phase in t.sounds.get(g, {}).items():
            if tuple(sounds[j : j + len(seq)]) == seq:
                yield phase, i + k, j + len(seq), ((g, seq),)
        if k == 1 and t.british and j < len(sounds):
            for spelling, american, said in BRITISH_READINGS:
                if word.startswith(spelling, i) and sounds[j] == american and (said,) in t.sounds.get(g, {}):
                    yield t.sounds[g][(said,)], i + 1, j + 1, ((g, (said,)),)
        if k == 1 and g in VOWEL_LETTERS and j < len(sounds) and sounds[j] in SCHWA and stressed[j] is False:
            yield t.schwa_from, i + 1, j + 1, ((g, (sounds[j],)),)
    yield from _vowel_before_rr(word, sounds, stressed, i, j, t)
    v = word[i] if i < n else ""
    if v in t.split and i + 3 == n and word[i + 2] == "e":
        consonant = word[i + 1]
        for seq, phase in t.sounds.get(consonant, {}).items():
            want = (t.split_sound[v], *seq)
            if consonant not in VOWEL_LETTERS and tuple(sounds[j : j + len(want)]) == want:
                yield max(phase, t.split[v]), n, j + len(want), ((f"{v}_e", want),)


def _vowel_before_rr(word: str, sounds: list[str], stressed, i: int, j: int, t: Taught):
    """A vowel letter and a doubled r that CMU says as one r-coloured vowel (ER: arrange, hurry): the vowel read
    short when stressed (British hurry is h-u-rr-y) or as the schwa when not (a-rr-ange), the rr as r; not when
    the letters up to the r are a word said with an r-coloured vowel (furry is fur + y, said with ur; so, to be
    safe, is curry)."""
    v = word[i] if i < len(word) else ""
    if v not in SHORT or word[i + 1 : i + 3] != "rr" or j >= len(sounds) or sounds[j] != "ER":
        return
    if stressed[j] is not False and (word[: i + 2] in t.r_words or word[: i + 3] in t.r_words):
        return  # purring: purr + ing
    said = SHORT[v] if stressed[j] is not False else "AH"
    vowel = t.schwa_from if stressed[j] is False else t.sounds.get(v, {}).get((said,), NEVER)
    rr = t.sounds.get("rr", {}).get(("R",), NEVER)
    yield max(vowel, rr), i + 3, j + 1, ((v, (said,)), ("rr", ("R",)))


def before_r(word: str, i: int) -> bool:
    """Whether the letter at i is a vowel followed by an r that closes the syllable (fork, car; not very, where
    the r begins the next syllable before a vowel or a y said as one: ve-ry, nor berry: ber-ry, car-rot)."""
    n = len(word)
    return (
        word[i] in VOWEL_LETTERS
        and i + 1 < n
        and word[i + 1] == "r"
        and (i + 2 == n or word[i + 2] not in VOWEL_LETTERS + "ry")
    )


@functools.cache  # a few hundred distinct parts, read millions of times
def consonant(part: tuple[str, tuple[str, ...]]) -> bool:
    """Whether an aligned grapheme is a consonant: no vowel letter (the u of qu aside), consonant sounds only."""
    g, seq = part
    letters = "q" if g == "qu" else g
    return bool(seq) and not any(ch in VOWEL_LETTERS for ch in letters) and all(s not in VOWEL_SOUNDS for s in seq)


# Two consonant graphemes that begin an English syllable together (a-cross, be-tween, hun-dred): inside a word,
# such a pair is a cluster; any other pair falls between two syllables (sun-set, un-lock, bath-room).
ONSETS = frozenset(
    tuple(pair.split())
    for pair in "b l,c l,f l,g l,p l,s l,b r,c r,d r,f r,g r,p r,t r,th r,sh r,t w,s w,d w,s qu".split(",")
)


def has_cluster(parts: list[tuple[str, tuple[str, ...]]]) -> bool:
    """Whether a decoding holds adjacent consonants within a syllable: two consonant graphemes at the start or the
    end (a final s after a consonant aside: hats), three in a row (hun-dred, pump-kin), or two that begin a
    syllable together (ONSETS: a-cross, be-tween); two others between vowels belong to two syllables (sun-set,
    un-lock, bath-room)."""
    if len(parts) >= 3 and parts[-1][0] == "s" and consonant(parts[-2]):
        parts = parts[:-1]
    if len(parts) < 2:
        return False
    if (consonant(parts[0]) and consonant(parts[1])) or (consonant(parts[-1]) and consonant(parts[-2])):
        return True
    onset = any(consonant(a) and consonant(b) and (a[0], b[0]) in ONSETS for a, b in zip(parts, parts[1:]))
    return onset or any(consonant(a) and consonant(b) and consonant(c) for a, b, c in zip(parts, parts[1:], parts[2:]))
