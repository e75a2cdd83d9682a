"""Anagram indexes, hooks and bingo stems, and the word-finding and study commands."""

from pipeline.core.manifest import Manifest, Stage, Table
from pipeline.core.settings import Setting

SETTINGS = (
    Setting("indexes", "tiles", "text", "scrabble",
            "the tile set ([tiles.NAME]) whose bag gives draw probabilities and whose values give query scores"),
    Setting("stems", "tiles", "text", None, "the tile set of the stems' draw probabilities (default: [indexes] tiles)"),
)  # fmt: skip

MANIFEST = Manifest(
    "anagrams",
    sections=("indexes", "stems"),
    stages=(
        Stage(
            "indexes",
            "pipeline.anagrams.indexes",
            ("words",),
            ("anagrams.parquet", "prefixes.parquet", "hooks.parquet"),
            description="anagram families with probabilities, prefixes, hooks",
            word_list=True,
        ),
        Stage(
            "stems",
            "pipeline.anagrams.stems",
            ("anagrams",),
            ("stems.parquet",),
            description="6- and 7-letter bingo stems",
        ),
    ),
    tables=(
        Table(
            "anagrams",
            {
                "alphagram": ("str", "letters in alphabetical order"),
                "length": ("i32", "number of letters"),
                "words": ("list[str]", "the words made of exactly these letters, sorted"),
                "n_words": ("i32", "number of words"),
                "combinations": ("i64", "ways to draw these tiles from a full bag"),
                "probability": ("f64", "chance that a rack of this size is these tiles"),
                "probability_order": ("i32", "rank by probability among alphagrams of this length (1 = likeliest)"),
            },
            sorted_by=("alphagram",),
        ),
        Table(
            "prefixes",
            {
                "prefix": ("str", "a prefix of at least one word"),
                "length": ("i32", "number of letters"),
                "is_word": ("bool", "whether the prefix is itself a word"),
                "n_words": ("i32", "number of words that start with it"),
                "next_letters": ("list[str]", "letters that can follow it, sorted (empty for a whole word only)"),
            },
            sorted_by=("prefix",),
        ),
        Table(
            "hooks",
            {
                "word": ("str", "the word"),
                "front_hooks": ("list[str]", "letters that make a word in front of it, sorted"),
                "back_hooks": ("list[str]", "letters that make a word behind it, sorted"),
                "front_inner": ("bool", "whether the word minus its first letter is a word"),
                "back_inner": ("bool", "whether the word minus its last letter is a word"),
            },
            sorted_by=("word",),
        ),
        Table(
            "stems",
            {
                "stem": ("str", "the stem's letters in alphabetical order"),
                "stem_length": ("i32", "6 or 7"),
                "letters": ("list[str]", "letters that make the stem a bingo, sorted"),
                "n_letters": ("i32", "number of such letters"),
                "n_bingos": ("i32", "number of bingos over all those letters"),
                "bingos": ("list[struct{letter: str, words: list[str]}]", "for each letter, the bingos it makes"),
                "has_s": ("bool", "whether the stem holds an S"),
                "stem_probability": ("f64", "chance of drawing the stem's tiles"),
                "draw_chance": ("f64", "chance of drawing one of the combining letters next"),
                "usefulness": ("f64", "stem probability times draw chance"),
                "rank_letters": ("i32", "rank by number of letters (1 = most)"),
                "rank_bingos": ("i32", "rank by number of bingos"),
                "rank_usefulness": ("i32", "rank by usefulness"),
            },
        ),
    ),
    commands={
        "pipeline.cli.anagrams": ("anagram", "words", "hunt", "pattern", "hooks", "word", "lookup", "stems", "stem"),
        "pipeline.cli.study": ("judge", "study"),
    },
    settings=SETTINGS,
)
