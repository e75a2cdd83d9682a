"""The HTML report of every table that exists (last: it reads the other packages' tables)."""

from pipeline.core.manifest import Manifest, Stage
from pipeline.core.settings import Setting

SETTINGS = (
    Setting("report", "dpi", "integer", 100, "resolution of the embedded plots", lo=50, hi=300),
    Setting("report", "top", "integer", 15, 'rows in "top N" tables and bar charts', lo=1, hi=100),
    Setting("report", "common_zipf", "number", 3.0,
            '"common word": wordfreq Zipf frequency at least this (about once per million words)', lo=0.0, hi=8.0),
    Setting("report", "bins", "integer", 40, "bins of the Boggle score histogram", lo=5, hi=200),
)  # fmt: skip

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
    settings=SETTINGS,
)
