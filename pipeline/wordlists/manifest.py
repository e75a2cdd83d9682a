"""Teachers' word lists and sheets, and the teacher's page; the gallery stage makes the page's previews."""

from pipeline.core.manifest import Manifest, Stage, Table
from pipeline.core.settings import Setting

SETTINGS = (
    Setting("wordlists", "file", "text", None,
            "presets and the block list of `wordstats wordlist` (relative to this file; default "
            "configs/wordlists.toml)"),
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
