"""The `wordstats` command line: parse arguments, call the library, print. No logic lives here.

One module per command group; each registers its commands on the app of `pipeline.cli.app`, in this order."""

# isort: off
from pipeline.cli import build, anagrams, boggle, hangman, wordlists, scrabble, study, serve  # noqa: F401  (registers the commands)

# isort: on
from pipeline.cli.app import app, main

__all__ = ["app", "main"]
