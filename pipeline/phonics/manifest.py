"""Phonics: pronunciations, syllables, phonics features, phases and grade levels for teachers' lists."""

from pipeline.core.manifest import Manifest, Stage, Table
from pipeline.core.settings import Setting

SETTINGS = (
    Setting("phonics", "dolch", "text", None,
            "the Dolch list file (relative to this file; default data/raw/dolch.csv)"),
    Setting("phonics", "phases", "text", None,
            "the phonics phases file (relative to this file; default configs/phonics.toml)"),
)  # fmt: skip

MANIFEST = Manifest(
    "phonics",
    sections=("phonics",),
    stages=(
        Stage(
            "phonics",
            "pipeline.phonics.stage",
            ("words",),
            ("phonics.parquet",),
            description="pronunciations (CMU), syllables, phonics features, Dolch and grade levels",
            word_list=True,
        ),
    ),
    tables=(
        Table(
            "phonics",
            {
                "word": ("str", "the word"),
                "in_cmu": ("bool", "whether the CMU dictionary has the word"),
                "pronunciations": ("list[str]", "every CMU pronunciation, most common first"),
                "phonemes": ("list[str]", "the sounds of the first pronunciation, stress removed"),
                "syllables": ("i32", "vowel sounds of the first pronunciation (else pyphen's count)"),
                "syllables_source": ("str", "cmu or pyphen"),
                "stress": ("str", "one digit per syllable: 1 primary, 2 secondary, 0 none"),
                "cvc": ("bool", "consonant, short vowel, consonant"),
                "pattern": ("str", "CVC, CCVC, CVCC...: one syllable, a letter per sound, one short vowel"),
                "blends": ("list[str]", "consonant blends at the start or end"),
                "digraphs": ("list[str]", "digraphs spelling their sound"),
                "magic_e": ("bool", "vowel + consonant + silent e, the vowel long"),
                "vowel_teams": ("list[str]", "vowel teams"),
                "r_controlled": ("list[str]", "r-controlled vowels"),
                "short_vowels": ("list[str]", "vowel letters making their short sound"),
                "long_vowels": ("list[str]", "vowel letters making their long sound"),
                "double_letters": ("bool", "a doubled consonant letter"),
                "regular": ("bool", "every letter group spells its sound by a regular correspondence"),
                "base": ("str", "the base word of a form with an inflectional ending, whose features it takes"),
                "uk_phase": ("i32", "the first Letters and Sounds phase (2 to 5) at which the word is decodable"),
                "us_step": (
                    "i32",
                    "the first step (1 to 7) of the US scope and sequence at which the word is decodable",
                ),
                "graphemes": (
                    "list[str]",
                    "the graphemes of that decoding (a_e for a split digraph; empty for a tricky word)",
                ),
                "dolch": ("str", "Dolch level, or null"),
                "dale_chall": ("str", "listed, inflected, or null"),
                "grade": ("i32", "grade estimate: 0 = kindergarten ... 6 = beyond primary, null = not a school word"),
                "spelling": ("str", "uk, us, or null"),
                "other_spelling": ("str", "the other side's spelling, or null"),
            },
        ),
    ),
    settings=SETTINGS,
)
