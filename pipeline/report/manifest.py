"""The HTML report of every table that exists (last: it reads the other packages' tables)."""

from pipeline.core.manifest import Manifest, Stage

MANIFEST = Manifest(
    "report",
    sections=("report",),
    stages=(
        Stage(
            "report",
            "pipeline.report.stage",
            ("words",),
            ("report.html",),
            optional_inputs=("anagrams", "stems", "boggle_boards", "boggle_words", "hangman", "openings"),
            description="the HTML report of every table that exists",
            word_list=True,
        ),
    ),
)
