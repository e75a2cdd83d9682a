"""The phonics schemes' phases (UK Letters and Sounds, a US scope and sequence) as configs/phonics.toml declares
them: what each phase teaches. Every package may read them: the phonics stage decodes words by them, word lists
choose words by them (`--phase`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.core.config import PROJECT_ROOT
from pipeline.core.sections import Section, parse_toml, read_regular_file
from pipeline.letters.alphabet import VOWEL_LETTERS

PHASES_FILE = PROJECT_ROOT / "configs" / "phonics.toml"
MAX_PHASES_BYTES = 1 << 20
SCHEMES = {"uk": "UK Letters and Sounds", "us": "US scope and sequence"}


@dataclass(frozen=True)
class Phase:
    """One phase: its key (uk-3), name, number within its scheme, and what it adds."""

    key: str
    name: str
    number: int
    graphemes: dict[str, tuple[tuple[str, ...], ...]]
    split: dict[str, str]  # split digraphs: vowel letter → its long sound (a_e → EY)
    tricky: tuple[str, ...]
    clusters: bool
    schwa: bool
    polysyllables: bool = False

    @property
    def scheme(self) -> str:
        """uk or us."""
        return self.key.split("-")[0]


def load_phases(path: Path = PHASES_FILE) -> tuple[Phase, ...]:
    """The phases of configs/phonics.toml, in order within each scheme; a one-line error naming the field."""
    data = read_regular_file(path, "phonics phases file", MAX_PHASES_BYTES)
    top = Section(parse_toml(data, path, "phonics phases file"), "", path)
    out = []
    for key in top.keys():
        scheme, _, number = key.partition("-")
        if scheme not in SCHEMES or not number.isdigit():
            top.fail(key, "a phase is named uk-N or us-N")
        sec = top.section(key)
        sec.allow("name", "graphemes", "split", "tricky", "clusters", "schwa", "polysyllables")
        table = sec.section("graphemes", {})
        graphemes = {}
        for spelling in table.keys():
            if not spelling.isalpha() or not spelling.islower():
                table.fail(spelling, "a grapheme is lower-case letters")
            graphemes[spelling] = tuple(tuple(sound.split()) for sound in table.sequence(spelling))
        split_sec = sec.section("split", {})
        split = {v: split_sec.text(v) for v in split_sec.keys()}
        for v in split:
            if v not in VOWEL_LETTERS:
                split_sec.fail(v, "a split digraph is a vowel letter")
        out.append(
            Phase(
                key,
                sec.text("name"),
                int(number),
                graphemes,
                split,
                tuple(w.upper() for w in sec.sequence("tricky", [])),
                sec.flag("clusters", False),
                sec.flag("schwa", False),
                sec.flag("polysyllables", False),
            )
        )
    return tuple(sorted(out, key=lambda p: (p.scheme, p.number)))


def scheme_phases(phases: tuple[Phase, ...], scheme: str) -> list[Phase]:
    """The phases of one scheme, in teaching order."""
    return [p for p in phases if p.scheme == scheme]
