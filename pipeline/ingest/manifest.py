"""Word facts: every word list read and normalised into words.parquet, which every other stage reads."""

from pipeline.core.manifest import Manifest, Stage, Table

MANIFEST = Manifest(
    "ingest",
    stages=(
        Stage(
            "ingest",
            "pipeline.ingest.stage",
            (),
            ("words.parquet", "ingest_report.json"),
            description="read and normalise the word list",
            word_list=True,
            reads_sources=True,
        ),
    ),
    tables=(
        Table(
            "words",
            {
                "word": ("str", "the word, upper-case A-Z"),
                "length": ("i32", "number of letters"),
                "alphagram": ("str", "the word's letters in alphabetical order"),
                "letter_mask": ("i64", "bit k set when the word uses letter k (A = bit 0)"),
                "vowels": ("i32", "number of vowels (A, E, I, O, U)"),
                "distinct_letters": ("i32", "number of different letters"),
                "scrabble_value": ("i32", "sum of the word's Scrabble tile values"),
                "zipf": ("f64", "English Zipf frequency from wordfreq (0 when unknown)"),
                "playability": ("f64", "points lost without it over the reference's games (null: no reference)"),
                "playability_rank": ("i32", "1 = most playable; equal playability, equal rank (null: no reference)"),
            },
            sorted_by=("word",),
        ),
    ),
)
