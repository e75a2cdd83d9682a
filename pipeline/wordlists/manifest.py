"""Teachers' word lists and sheets, and the teacher's page; the gallery stage makes the page's previews."""

from pipeline.core.manifest import Manifest, Stage, Table
from pipeline.core.settings import Setting

SETTINGS = (
    Setting("wordlists", "file", "text", None,
            "presets and the block list of `wordstats wordlist` (relative to this file; default "
            "configs/wordlists.toml)"),
)  # fmt: skip

# The word-list settings file's own settings (its top table; "" stands for it), declared as the config's are.
FILE_SETTINGS = (
    Setting("", "common_zipf", "number", 3.0,
            "a common word (the common field) has a Zipf frequency at least this (about once per million words)",
            lo=0.0, hi=8.0),
    Setting("", "min_find_rate", "number", 0.01,
            "a Boggle-findable word (the boggle_findable field) is found on at least this share of random boards",
            lo=0.0, hi=1.0),
    Setting("", "boggle_dice", "text", "new", "which dice set's find rates to use when the Boggle table has several"),
    Setting("", "paper", "text", "A4", 'PDF paper size: "A4" or "Letter"', choices=("A4", "Letter")),
    Setting("", "presets", "table", None, "[presets.NAME]: a preset's fields, as the command line's options"),
    Setting("", "blocklist", "table", None, "the block list: its file, sha256 and the words it adds or allows"),
    Setting("", "classroom", "table", None, "the classroom topics: words not for the classroom, by topic"),
    Setting("", "review", "table", None, "the classroom review: its file, sha256 and the teacher's own decisions"),
    Setting("", "puzzles", "table", None, "letter strings no puzzle may spell, and word-search fill letters"),
    Setting("", "gallery", "table", None, "the teacher's page: each group's title and its presets"),
)  # fmt: skip

MANIFEST = Manifest(
    "wordlists",
    sections=("wordlists",),
    stages=(
        Stage(
            "gallery",
            "pipeline.wordlists.gallery",
            ("words", "phonics"),
            ("gallery.parquet",),
            optional_inputs=("hangman", "hangman_children", "boggle_words", "playability"),
            description="each preset's words as the teacher's page previews them (the teacher lexicon)",
        ),
    ),
    tables=(
        Table(
            "gallery",
            {
                "preset": ("str", "the preset (configs/wordlists.toml)"),
                "words": ("list[str]", "the words its sheet prints, in order"),
                "note": ("str", "why the preset gives no words (null when it gives some)"),
            },
        ),
    ),
    commands={"pipeline.cli.wordlists": ("wordlist",), "pipeline.cli.serve": ("serve",)},
    settings=SETTINGS,
)
