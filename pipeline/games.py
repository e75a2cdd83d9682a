"""The packages built on the shared core, one line each, in dependency order (a package's stages read only
tables of the packages above it). Each one's `manifest.py` declares its config sections, stages, tables,
engine and commands; adding a game is writing its package and adding its line here (docs/development.md)."""

GAMES = (
    "pipeline.ingest",
    "pipeline.anagrams",
    "pipeline.boggle",
    "pipeline.phonics",
    "pipeline.hangman",
    "pipeline.scrabble",
    "pipeline.wordlists",
    "pipeline.report",
)
