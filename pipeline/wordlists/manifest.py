"""Teachers' word lists and sheets, and the teacher's page (they read the tables; no stage of their own)."""

from pipeline.core.manifest import Manifest

MANIFEST = Manifest(
    "wordlists",
    sections=("wordlists",),
    commands={"pipeline.cli.wordlists": ("wordlist",), "pipeline.cli.serve": ("serve",)},
)
