"""Phonics rules: align a word's letters with its sounds, and the features teachers sort words by."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from pipeline.letters.alphabet import VOWEL_LETTERS

# Sounds (ARPAbet, stress removed) each vowel letter makes when short and when long.
SHORT = {"a": ("AE",), "e": ("EH",), "i": ("IH",), "o": ("AA", "AO"), "u": ("AH",)}
LONG = {"a": ("EY",), "e": ("IY",), "i": ("AY",), "o": ("OW",), "u": ("UW", "Y UW")}
VOWEL_SOUNDS = {"AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"}
DIGRAPHS = ("sh", "ch", "th", "wh", "ph", "ck", "ng")
# The sounds a digraph is taught with: ch said k (school, echo) or sh (chef) is a later, alternative spelling.
DIGRAPH_SOUNDS = {
    "sh": ("SH",),
    "ch": ("CH",),
    "th": ("TH", "DH"),
    "wh": ("W",),
    "ph": ("F",),
    "ck": ("K",),
    "ng": ("NG",),
}
VOWEL_TEAMS = ("ai", "ay", "ee", "ea", "oa", "ow", "oo", "ie", "igh")
R_CONTROLLED = ("ar", "er", "ir", "or", "ur")
# Each team's long vowel letter (ai says long a): for `long_vowels`.
TEAM_LONG = {"ai": "a", "ay": "a", "ee": "e", "ea": "e", "oa": "o", "ow": "o", "igh": "i", "ie": "i"}

# Regular spellings of sounds: grapheme → the sound sequences it regularly spells (space-separated
# ARPAbet, stress removed; "" is silent). The aligner prefers these; anything else is irregular.
GRAPHEMES: dict[str, tuple[str, ...]] = {
    # consonants
    "b": ("B",), "bb": ("B",), "c": ("K", "S"), "cc": ("K", "K S"), "ck": ("K",), "ch": ("CH", "K", "SH"),
    "d": ("D",), "dd": ("D",), "dge": ("JH",), "f": ("F",), "ff": ("F",), "g": ("G", "JH"), "gg": ("G",),
    "h": ("HH",), "j": ("JH",), "k": ("K",), "kn": ("N",), "l": ("L",), "ll": ("L",), "m": ("M",),
    "mm": ("M",), "mb": ("M",), "n": ("N", "NG"), "nn": ("N",), "ng": ("NG",), "p": ("P",), "pp": ("P",),
    "ph": ("F",), "qu": ("K W",), "q": ("K",), "r": ("R",), "rr": ("R",), "s": ("S", "Z"), "ss": ("S",),
    "sh": ("SH",), "t": ("T",), "tt": ("T",), "th": ("TH", "DH"), "tch": ("CH",), "v": ("V",), "w": ("W",),
    "wh": ("W", "HH"), "wr": ("R",), "x": ("K S", "G Z"), "y": ("Y", "IY", "AY", "IH"), "z": ("Z",),
    "zz": ("Z",), "tion": ("SH AH N",), "sion": ("ZH AH N", "SH AH N"), "ed": ("D", "T"), "le": ("AH L",),
    # single vowels: short, long, schwa, and the common neighbours
    "a": ("AE", "EY", "AH", "AA", "AO"), "e": ("EH", "IY", "AH", "IH"), "i": ("IH", "AY", "AH", "IY"),
    "o": ("AA", "OW", "AH", "AO"), "u": ("AH", "UW", "Y UW", "UH"),
    # vowel teams
    "ai": ("EY",), "ay": ("EY",), "ee": ("IY",), "ea": ("IY", "EH", "EY"), "oa": ("OW",), "ow": ("OW", "AW"),
    "oo": ("UW", "UH"), "ie": ("IY", "AY"), "igh": ("AY",), "oi": ("OY",), "oy": ("OY",),
    "ou": ("AW", "UW", "AH"), "au": ("AO", "AA"), "aw": ("AO", "AA"), "ew": ("UW", "Y UW"),
    "ue": ("UW", "Y UW"), "ey": ("IY", "EY"), "ei": ("EY", "IY"), "eigh": ("EY",), "ui": ("UW",),
    # r-controlled vowels
    "ar": ("AA R",), "er": ("ER",), "ir": ("ER",), "ur": ("ER",), "or": ("AO R", "ER"), "ear": ("IH R", "ER"),
    "air": ("EH R",), "are": ("EH R",), "ore": ("AO R",), "eer": ("IH R",), "ere": ("IH R",),
    "our": ("AW ER", "AW R", "AO R", "ER"),
}  # fmt: skip
LONGEST = max(len(g) for g in GRAPHEMES)
GRAPHEME_SOUNDS = {g: tuple(tuple(s.split()) for s in sounds) for g, sounds in GRAPHEMES.items()}


def base(phoneme: str) -> str:
    """An ARPAbet phoneme without its stress digit (AE1 → AE)."""
    return phoneme.rstrip("012")


@dataclass(frozen=True)
class Part:
    """One grapheme of the word and the sounds it spells ("" silent), and whether the spelling is regular."""

    letters: str
    sounds: tuple[str, ...]
    regular: bool = True


def silent_e(word: str, i: int) -> bool:
    """Whether the e at position i may be silent: the final e, or before a final s or d (cakes, baked)."""
    return word[i] == "e" and i > 0 and (i == len(word) - 1 or (i == len(word) - 2 and word[-1] in "sd"))


def align(word: str, phones: list[str]) -> tuple[int, list[Part]]:
    """The cheapest alignment of letters and sounds: (irregular steps, parts). Regular spellings cost 0;
    one letter for any one or two sounds, a silent letter or a sound with no letter cost 1 each."""
    sounds = tuple(base(p) for p in phones)
    n, m = len(word), len(sounds)
    best: dict[tuple[int, int], int] = {(0, 0): 0}
    back: dict[tuple[int, int], tuple[tuple[int, int], tuple[str, tuple[str, ...], bool]]] = {}
    queue: deque[tuple[int, int]] = deque([(0, 0)])
    while queue:
        state = queue.popleft()
        i, j = state
        cost = best[state]
        if state == (n, m):
            break
        moves: list[tuple[int, int, int, tuple[str, tuple[str, ...], bool]]] = []  # a part as (letters, sounds,
        for k in range(min(LONGEST, n - i), 0, -1):  # regular), made a Part only on the path taken
            g = word[i : i + k]
            for seq in GRAPHEME_SOUNDS.get(g, ()):
                if sounds[j : j + len(seq)] == seq:
                    moves.append((i + k, j + len(seq), 0, (g, seq, True)))
        if i < n and silent_e(word, i):
            moves.append((i + 1, j, 0, ("e", (), True)))
        if i < n:
            moves.append((i + 1, j, 1, (word[i], (), False)))
            for length in (1, 2):
                if j + length <= m:
                    moves.append((i + 1, j + length, 1, (word[i], sounds[j : j + length], False)))
        if j < m:
            moves.append((i, j + 1, 1, ("", sounds[j : j + 1], False)))
        for ni, nj, step, part in moves:
            new = cost + step
            if new < best.get((ni, nj), 1 << 30):
                best[(ni, nj)] = new
                back[(ni, nj)] = (state, part)
                if step == 0:
                    queue.appendleft((ni, nj))
                else:
                    queue.append((ni, nj))
    parts: list[Part] = []
    state = (n, m)
    while state != (0, 0):
        state, (letters, said, regular) = back[state]
        parts.append(Part(letters, said, regular))
    return best[(n, m)], parts[::-1]


@dataclass
class Features:
    """The phonics features of one word under one pronunciation."""

    cvc: bool = False
    pattern: str | None = None  # CVC, CCVC, CVCC, CCVCC...: one syllable, a letter per sound, short vowel
    blends: list[str] = field(default_factory=list)
    digraphs: list[str] = field(default_factory=list)
    magic_e: bool = False
    vowel_teams: list[str] = field(default_factory=list)
    r_controlled: list[str] = field(default_factory=list)
    short_vowels: str = ""
    long_vowels: str = ""
    double_letters: bool = False
    regular: bool = False


def is_consonant_part(p: Part) -> bool:
    """A single consonant letter spelling one consonant sound."""
    return (
        len(p.letters) == 1
        and p.letters not in VOWEL_LETTERS
        and len(p.sounds) == 1
        and p.sounds[0] not in VOWEL_SOUNDS
        and p.regular
    )


def vowel_quality(p: Part) -> str | None:
    """'short' or 'long' when a single vowel letter makes its short or long sound, else None."""
    if len(p.letters) != 1 or p.letters not in VOWEL_LETTERS or not p.sounds:
        return None
    said = " ".join(p.sounds)
    if said in SHORT[p.letters]:
        return "short"
    if said in LONG[p.letters]:
        return "long"
    return None


def features(word: str, phones: list[str]) -> Features:
    """The phonics features of `word` (lower case a-z) pronounced `phones` (ARPAbet with stress)."""
    cost, parts = align(word, phones)
    f = Features(regular=cost == 0)
    f.double_letters = any(a == b and a not in VOWEL_LETTERS for a, b in zip(word, word[1:]))
    syllables = sum(1 for p in phones if p[-1].isdigit())
    short, long_ = set(), set()
    for i, p in enumerate(parts):
        quality = vowel_quality(p)
        if quality == "short" and not (p.letters == "u" and phones_stress(parts, phones, i) == "0"):
            short.add(p.letters)
        elif quality == "long":
            long_.add(p.letters)
        if p.letters in DIGRAPHS and p.regular and p.sounds and p.sounds[0] in DIGRAPH_SOUNDS[p.letters]:
            f.digraphs.append(p.letters)
        elif p.letters == "tch" and p.regular:
            f.digraphs.append("ch")  # the ch digraph after a short vowel (catch, pitch)
        if p.letters in VOWEL_TEAMS and p.regular:
            f.vowel_teams.append(p.letters)
            if p.letters in TEAM_LONG and p.sounds and p.sounds[0] == LONG[TEAM_LONG[p.letters]][0]:
                long_.add(TEAM_LONG[p.letters])
        if p.letters in R_CONTROLLED and p.regular:
            f.r_controlled.append(p.letters)
    f.short_vowels = "".join(sorted(short))
    f.long_vowels = "".join(sorted(long_))
    # magic e: vowel letter (long) + one consonant letter + silent final e; before r it is r-controlled (fire)
    if len(parts) >= 3 and parts[-1] == Part("e", ()) and is_consonant_part(parts[-2]) and parts[-2].letters != "r":
        f.magic_e = vowel_quality(parts[-3]) == "long"
    # blends: two or more consonant letters in a row at the start or end, each its own sound
    lead = 0
    while lead < len(parts) and is_consonant_part(parts[lead]):
        lead += 1
    if lead >= 2:
        f.blends.append("".join(p.letters for p in parts[:lead]))
    tail = 0
    while tail < len(parts) - lead and is_consonant_part(parts[-1 - tail]):
        tail += 1
    group = parts[len(parts) - tail :]
    if len(group) >= 2 and group[-1].letters == "s":
        group = group[:-1]  # a plural, possessive or verb ending: hats, its, yours (hat + s, not a ts blend)
    before = parts[len(parts) - tail - 1].letters if tail < len(parts) else ""
    if group and group[0].letters == "r" and before and set(before) <= set(VOWEL_LETTERS):
        group = group[1:]  # the r of a vowel said with it (warm, yours): part of the vowel, not of a blend
    if len(group) >= 2:
        f.blends.append("".join(p.letters for p in group))
    # CVC family: one syllable, every letter one regular sound, the vowel short
    if syllables == 1 and all(len(p.letters) == 1 and p.regular and len(p.sounds) == 1 for p in parts):
        shape = "".join("V" if vowel_quality(p) == "short" else "C" if is_consonant_part(p) else "?" for p in parts)
        if shape.count("V") == 1 and "?" not in shape and shape.startswith(("C", "CC", "CCC")):
            f.pattern = shape
            f.cvc = shape == "CVC"
    return f


def phones_stress(parts: list[Part], phones: list[str], index: int) -> str:
    """The stress digit of the first sound of parts[index] ("" for a consonant or a silent part)."""
    position = sum(len(p.sounds) for p in parts[:index])
    if position >= len(phones) or not parts[index].sounds:
        return ""
    last = phones[position][-1]
    return last if last.isdigit() else ""
