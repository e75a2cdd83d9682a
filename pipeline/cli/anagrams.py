"""Word-finding commands: anagram, words, hunt, pattern, hooks, word, lookup, stems, stem. Each parses its request
(pipeline/anagrams/api.py declares the options), calls the use case and renders the result."""

from dataclasses import replace

from pipeline.anagrams import api, render
from pipeline.cli.app import app
from pipeline.cli.options import Flags, command
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, FORCE, JSON_LIST, JSON_OBJECT, LEXICON, LIMIT, OUT

WHERE = (LEXICON, CONFIG, DATA_DIR)
LISTING = (LIMIT, *WHERE, JSON_LIST, CSV)
STUDY_LIST = replace(
    OUT,
    help="Write a study list (stem, letters, bingos) to FILE.csv or FILE.md (refuses to overwrite without --force).",
)


def show(use_case, q, flags: Flags) -> None:
    """Run a listing's use case in a session on the flags' lexicon and print its rows as the flags ask."""
    fmt, rows = flags.format, flags.rows
    with flags.session() as s:
        result = use_case(s, q)
    render.listing(result, fmt, rows)


@command(app, api.Anagram, *LISTING)
def anagram(q: api.Anagram, flags: Flags):
    """Words that use every tile of RACK (- reads racks from standard input); letters played by a blank print
    in lower case (SULTaNA)."""
    show(api.anagram, q, flags)


@command(app, api.Words, *LISTING)
def words(q: api.Words, flags: Flags):
    """Words made from some of the tiles of HAND (subanagrams), longest then highest-scoring first."""
    show(api.words, q, flags)


@command(app, api.Hunt, *LISTING)
def hunt(q: api.Hunt, flags: Flags):
    """Word hunt: words spelled only with LETTERS, reusing them; pangrams (all letters used) first."""
    show(api.hunt, q, flags)


@command(app, api.Pattern, *LISTING)
def pattern(q: api.Pattern, flags: Flags):
    """Words matching a pattern such as ?A?E[^S] or QU*Z (- reads patterns from standard input)."""
    show(api.pattern, q, flags)


@command(app, api.Hooks, *LISTING)
def hooks(q: api.Hooks, flags: Flags):
    """The letters that make a word in front of / behind WORD, and whether it stays a word minus an end."""
    show(api.hooks, q, flags)


@command(app, api.Word, *WHERE, JSON_OBJECT, CSV)
def word(q: api.Word, flags: Flags):
    """Everything the lexicon's tables know about WORD: a small table per table that has rows about it
    (--json: one object; --csv: one line per table, row and column)."""
    fmt = flags.format
    with flags.session() as s:
        result = api.word(s, q)
    render.word_facts(result, fmt)


@command(app, api.LookUp, *WHERE, JSON_OBJECT)
def lookup(q: api.LookUp, flags: Flags):
    """WORD as the teacher's page looks it up: is it a word, its anagrams and hooks (offensive words and topics
    not for the classroom left out unless --every), its Hangman difficulty and its sounds."""
    with flags.session() as s:
        result = api.look_up(s, q)
    render.look_up(result, flags.format)


@command(app, api.Stems, LIMIT, STUDY_LIST, FORCE, *WHERE, JSON_LIST, CSV)
def stems(q: api.Stems, flags: Flags):
    """Bingo stems: 6 or 7 tiles that combine with many letters to make 7- or 8-letter words."""
    from pipeline.cli.options import check_out, limit_for

    if flags.out is not None:
        api.check_study_file(flags.out)
    with flags.session() as s:
        check_out(flags.out, flags.force, (".csv", ".md"), s.data_dir)
        result = api.stems(s, q, limit_for(flags.limit, "file" if flags.out is not None else flags.format))
    render.stems_list(result, flags.format, flags.out)


@command(app, api.Stem, *LISTING)
def stem(q: api.Stem, flags: Flags):
    """For each letter that makes STEM a bingo, the bingos (- reads stems from standard input; --hooks: one
    bingo a row with its hooks)."""
    show(api.stem, q, flags)
