"""The example words Letters and Sounds (DfES 2007) publishes for phases 2 to 5 against our UK phases: each is
decodable at its phase or earlier, apart from the exceptions below, each with its reason (docs/phonics.md)."""

from __future__ import annotations

import polars as pl

from pipeline.phonics.stage import sound_rows
from pipeline.words.phases import load_phases
from tests.conftest import ROOT

EXAMPLES = ROOT / "tests" / "data" / "letters-and-sounds-examples.csv"
DOC = ROOT / "docs" / "phonics.md"

# Each example word our phases place later than Letters and Sounds does, or never, and why.
EXCEPTIONS = {
    "and": "ends in the cluster nd, taught in phase 4; Letters and Sounds lists it early as a common word",
    "of": "f says /v/, a correspondence no phase teaches",
    "fusspot": "not in the CMU dictionary (a compound of fuss and pot)",
    "taxi": "a final i saying /iː/, which no phase teaches",
    "beast": "ea is a phase 5 grapheme in Letters and Sounds itself",
    "cream": "ea is a phase 5 grapheme in Letters and Sounds itself",
    "helpdesk": "not in the CMU dictionary (a compound of help and desk)",
    "sandpit": "not in the CMU dictionary (a compound of sand and pit)",
    "pondweed": "not in the CMU dictionary (a compound of pond and weed)",
    "lunchbox": "not in the CMU dictionary (a compound of lunch and box)",
    "shelving": "its stem shelve ends in a silent e that is not a split digraph",
    "champion": "io said /iə/, which no phase teaches",
    "exit": "CMU's first pronunciation is /ɛgzɪt/, with x said gz (phase 3 reads x as ks)",
    "wind": "CMU's first pronunciation is the verb's /waɪnd/ (wind up), read with the i of phase 5",
    "vision": "si said /ʒ/ and the -sion ending, which no phase teaches",
}


# Example words our phases place before the phase that prints them: phase 5's words for graphemes taught before
# (the first word of its table of alternative pronunciations), and phase 4 words whose adjacent consonants fall in
# two syllables (sham-poo, shel-ter), as in phase 2's sun-set.
EARLIER = {
    5: {"but", "cat", "chin", "cow", "farmer", "fin", "got", "hat", "her", "hot", "like", "out", "what", "when"}
    | {"yes", "you"},
    4: {"fair", "shampoo", "shelter"},
}


def agreement() -> pl.DataFrame:
    """Each published example word with its phase and ours (null when our phases never decode it)."""
    examples = pl.read_csv(EXAMPLES).unique(["phase", "word"], keep="first", maintain_order=True)
    words = sorted({w.upper() for w in examples["word"]})
    ours = sound_rows(words, load_phases()).select(pl.col("word").str.to_lowercase(), "uk_phase")
    return examples.join(ours, on="word", how="left").with_columns(
        agrees=pl.col("uk_phase").is_not_null() & (pl.col("uk_phase") <= pl.col("phase"))
    )


def test_published_examples_are_decodable_at_their_phase_but_the_named_exceptions():
    """Every example word of phases 2 to 5 is decodable at its phase or earlier, except the listed ones."""
    table = agreement()
    assert table.height > 400 and set(table["phase"]) == {2, 3, 4, 5}
    disagree = sorted(table.filter(~pl.col("agrees"))["word"])
    assert disagree == sorted(EXCEPTIONS)
    earlier = table.filter(pl.col("uk_phase") < pl.col("phase"))
    assert {p: set(rows["word"]) for (p,), rows in earlier.group_by("phase")} == EARLIER


def test_docs_give_the_agreement_and_every_exception():
    """docs/phonics.md gives the figure per phase and names each exception with its reason."""
    table = agreement()
    doc = DOC.read_text()
    agreed, total = int(table["agrees"].sum()), table.height
    assert f"{agreed} of the {total} example words" in doc
    for phase, rows in table.group_by("phase"):
        assert f"| {phase[0]} | {rows.height} | {int(rows['agrees'].sum())} |" in doc, phase
    for word, why in EXCEPTIONS.items():
        assert f"| `{word}` | {why} |" in doc, word
    assert f"{sum(map(len, EARLIER.values()))} are decodable before their phase" in doc
    assert all(f"`{word}`" in doc for word in EARLIER[4])
