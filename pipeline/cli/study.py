"""Study commands: judge (is each word valid?) and study (flashcard decks for Anki, or CSV). Each parses its
request (pipeline/anagrams/api.py declares the options), calls the use case and renders the result."""

from dataclasses import replace

import typer

from pipeline.anagrams import api, render
from pipeline.cli.app import app
from pipeline.cli.options import Flags, check_out, command
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, FORCE, JSON_LIST, LEXICON, OUT

DECK = replace(OUT, help="The deck: FILE.apkg (Anki) or FILE.csv.", required=True)


@command(app, api.Judge, LEXICON, CONFIG, DATA_DIR, JSON_LIST, CSV)
def judge(q: api.Judge, flags: Flags):
    """Judge words as a club word judge does: each VALID or NOT VALID, then whether the play is acceptable
    (exit code 1 if any word is not valid)."""
    fmt = flags.format
    with flags.session() as s:
        result = api.judge(s, q)
    render.verdicts(result, fmt)
    if not result.acceptable:
        raise typer.Exit(1)


@command(app, api.Study, DECK, FORCE, LEXICON, CONFIG, DATA_DIR)
def study(q: api.Study, flags: Flags):
    """Flashcards of alphagrams by length and probability range (front: the alphagram and its probability
    order; back: the anagrams with their hooks), plus hook cards: an Anki deck (.apkg) or CSV."""
    assert flags.out is not None  # a required option
    with flags.session() as s:
        check_out(flags.out, flags.force, (".apkg", ".csv"), s.data_dir)
        deck = api.study(s, q)
    api.write_deck(deck, flags.out)
    render.deck_written(deck, flags.out)
