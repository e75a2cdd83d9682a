"""Word-finding commands: anagram, words, hunt, pattern, hooks, word, stems, stem."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.cli.app import (
    ConfigOpt,
    CsvOpt,
    DataDirOpt,
    JsonOpt,
    LexiconOpt,
    Session,
    _emit,
    app,
)
from pipeline.cli.options import (
    ForceOpt,
    JsonObjectOpt,
    LengthOpt,
    LimitOpt,
    check_out,
    choose_format,
    limit_for,
    parse_length,
    plural,
)
from pipeline.core.errors import WordstatsError

RackArg = Annotated[
    str,
    typer.Argument(help="Tiles: letters, ? for a blank (any case, at most 20 tiles, 4 blanks).", show_default=False),
]
WordArg = Annotated[str, typer.Argument(help="A word (letters A-Z, any case).", show_default=False)]
HooksOpt = Annotated[
    bool, typer.Option("--hooks", help="Show front and back hooks, inner hooks (·) and probability order.")
]


def _items(text: str, what: str) -> list[str]:
    """The one query of TEXT, or with '-' every query given on standard input (batch)."""
    if text != "-":
        return [text]
    import sys

    from pipeline.anagrams.study import read_batch

    return read_batch(sys.stdin.read(), what)


def _batch(queries: list[str], column: str, run):
    """One query's table, or several queries' tables stacked with the query in `column` first."""
    import polars as pl

    if len(queries) == 1:
        return run(queries[0])
    return pl.concat([run(q).select(pl.lit(q).alias(column), pl.all()) for q in queries], how="vertical_relaxed")


@app.command()
def anagram(
    rack: RackArg,
    plus: Annotated[
        bool,
        typer.Option("--plus", help="Also use one board letter: for each A-Z, the words of the rack plus that letter."),
    ] = False,
    through: Annotated[
        Optional[str],
        typer.Option(
            "--through",
            metavar="LETTERS",
            help="With --plus, only these board letters (implies --plus).",
            show_default=False,
        ),
    ] = None,
    show_hooks: HooksOpt = False,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Words that use every tile of RACK (- reads racks from standard input); letters played by a blank print
    in lower case (SULTaNA)."""
    from pipeline.anagrams.queries import anagram as queries_anagram
    from pipeline.anagrams.queries import (
        anagram_plus,
        open_index,
    )
    from pipeline.letters.tiles import parse_rack

    racks = _items(rack, "racks")
    for one in racks:
        parse_rack(one)
    s = Session(config, data_dir, lexicon)
    index = open_index(s.store, s.config)
    if plus or through is not None:
        found = _batch(racks, "rack", lambda r: anagram_plus(index, r, through))
    else:
        found = _batch(racks, "rack", lambda r: queries_anagram(index, r))
    if show_hooks:
        from pipeline.anagrams.study import with_hooks

        found = with_hooks(s.store, found)
    _emit(found, as_json, as_csv, _rows(limit, as_json, as_csv))


@app.command()
def words(
    hand: Annotated[str, typer.Argument(help="Tiles in hand: letters, ? for a blank.", show_default=False)],
    length: LengthOpt = None,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Words made from some of the tiles of HAND (subanagrams), longest then highest-scoring first."""
    from pipeline.anagrams.queries import (
        open_index,
        subanagrams,
    )
    from pipeline.letters.tiles import parse_rack

    parse_rack(hand, "hand")
    lo, hi = parse_length(length) or (1, None)
    s = Session(config, data_dir, lexicon)
    index = open_index(s.store, s.config)
    _emit(subanagrams(index, hand, lo, hi), as_json, as_csv, _rows(limit, as_json, as_csv))


@app.command()
def hunt(
    letters: Annotated[
        str, typer.Argument(help="The letters; each may be used any number of times.", show_default=False)
    ],
    center: Annotated[
        Optional[str],
        typer.Option(
            "--center",
            metavar="LETTER",
            help="A letter every word must use (the Spelling Bee form).",
            show_default=False,
        ),
    ] = None,
    length: LengthOpt = None,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Word hunt: words spelled only with LETTERS, reusing them; pangrams (all letters used) first."""
    from pipeline.anagrams.queries import hunt as queries_hunt
    from pipeline.anagrams.queries import (
        open_index,
        parse_letters,
    )

    parse_letters(letters, "letters")
    lo, hi = parse_length(length) or (1, None)
    s = Session(config, data_dir, lexicon)
    index = open_index(s.store, s.config)
    found = queries_hunt(index, letters, center, lo)
    if hi is not None:
        found = found.filter(found["length"] <= hi) if "length" in found.columns else found
    _emit(found, as_json, as_csv, _rows(limit, as_json, as_csv))


@app.command()
def pattern(
    text: Annotated[
        str,
        typer.Argument(
            metavar="PATTERN",
            help="? one letter, * any run, [ABC] one of, [^ABC] none of; or a regex with --regex.",
            show_default=False,
        ),
    ],
    regex: Annotated[
        bool,
        typer.Option("--regex", help="PATTERN is a regular expression matched against the whole word, ignoring case."),
    ] = False,
    show_hooks: HooksOpt = False,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Words matching a pattern such as ?A?E[^S] or QU*Z (- reads patterns from standard input)."""
    from pipeline.anagrams.queries import (
        open_index,
        pattern_regex,
    )
    from pipeline.anagrams.queries import pattern as queries_pattern

    patterns = _items(text, "patterns")
    if not regex:
        for one in patterns:
            pattern_regex(one)
    s = Session(config, data_dir, lexicon)
    index = open_index(s.store, s.config)
    found = _batch(patterns, "pattern", lambda p: queries_pattern(index, p, regex))
    if show_hooks:
        from pipeline.anagrams.study import with_hooks

        found = with_hooks(s.store, found)
    _emit(found, as_json, as_csv, _rows(limit, as_json, as_csv))


@app.command()
def hooks(
    word: WordArg,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """The letters that make a word in front of / behind WORD, and whether it stays a word minus an end."""
    from pipeline.anagrams.lookups import hooks as queries_hooks
    from pipeline.anagrams.lookups import parse_letters

    parse_letters(word, "word")
    s = Session(config, data_dir, lexicon)
    _emit(queries_hooks(s.store, word), as_json, as_csv, _rows(limit, as_json, as_csv))


@app.command()
def word(
    text: Annotated[str, typer.Argument(metavar="WORD", help="A word (letters A-Z, any case).", show_default=False)],
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonObjectOpt = False,
    as_csv: CsvOpt = False,
):
    """Everything the lexicon's tables know about WORD: a small table per table that has rows about it
    (--json: one object; --csv: one line per table, row and column)."""
    from pipeline.anagrams.lookups import facts_table, parse_letters, word_facts
    from pipeline.core.display import choose_format, emit, emit_json

    fmt = choose_format(as_json, as_csv)
    word = parse_letters(text, "word")
    s = Session(config, data_dir, lexicon)
    facts = word_facts(s.store, word)
    if fmt == "json":
        emit_json({"word": word, "tables": {name: rows.to_dicts() for name, rows in facts.items()}})
    elif fmt == "csv":
        emit(facts_table(facts), fmt)
    else:
        _print_facts(facts)


FACT_CHARS = 100  # a value longer than this is cut in the table form of `word`


def _print_facts(facts: dict) -> None:
    """Each table's rows about a word: one row read top to bottom (column, value), several rows as a table."""
    from pipeline.core.display import print_table, record

    for i, (name, rows) in enumerate(facts.items()):
        if i:
            typer.echo("")
        if rows.height == 1:
            print_table(record(rows.row(0, named=True)), title=name, max_chars=FACT_CHARS)
        else:
            print_table(rows, title=f"{name}: {plural(rows.height, 'row')}", max_chars=FACT_CHARS)


# ---- stems --------------------------------------------------------------------------------------


@app.command()
def stems(
    length: Annotated[
        Optional[str],
        typer.Option(
            "--length", metavar="6|7|6-7", help="Only stems of 6 or 7 letters (6-7: both).", show_default=False
        ),
    ] = None,
    order: Annotated[
        str, typer.Option("--order", help="Rank by: letters, bingos or usefulness (any case).", metavar="ORDER")
    ] = "usefulness",
    limit: LimitOpt = None,
    min_letters: Annotated[
        int,
        typer.Option("--min-letters", help="Only stems with at least K combining letters.", min=1, max=26, metavar="K"),
    ] = 1,
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out",
            help="Write a study list (stem, letters, bingos) to FILE.csv or FILE.md (refuses to overwrite without "
            "--force).",
            show_default=False,
            metavar="FILE",
        ),
    ] = None,
    force: ForceOpt = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Bingo stems: 6 or 7 tiles that combine with many letters to make 7- or 8-letter words."""
    from pipeline.anagrams.lookups import check_export, study_list, top_stems

    span = parse_length(length)
    if span is not None and not (span[0] in (6, 7) and span[1] in (6, 7)):
        raise WordstatsError(f"--length {length!r}: stems have 6 or 7 letters")
    size = span[0] if span is not None and span[0] == span[1] else None
    if out is not None:
        check_export(out)
    s = Session(config, data_dir, lexicon)
    check_out(out, force, (".csv", ".md"), s.data_dir)
    rows = limit_for(limit, "file" if out is not None else _format(as_json, as_csv))
    found = top_stems(s.store, size, order, rows, min_letters)
    if out is not None:
        from pipeline.core.display import save

        save(study_list(found), out)
        typer.echo(f"wrote {plural(found.height, 'stem')} to {out}", err=True)
    else:
        _emit(found.drop("bingos"), as_json, as_csv)


@app.command()
def stem(
    text: Annotated[str, typer.Argument(metavar="STEM", help="6 or 7 letters, in any order.", show_default=False)],
    show_hooks: HooksOpt = False,
    limit: LimitOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """For each letter that makes STEM a bingo, the bingos (- reads stems from standard input; --hooks: one
    bingo a row with its hooks)."""
    from pipeline.anagrams.lookups import stem as queries_stem

    stems_given = _items(text, "stems")
    s = Session(config, data_dir, lexicon)
    found = _batch(stems_given, "stem", lambda one: queries_stem(s.store, one))
    if show_hooks:
        from pipeline.anagrams.study import with_hooks

        found = with_hooks(s.store, found.explode("words").rename({"words": "word"}).drop("n_words"))
    _emit(found, as_json, as_csv, _rows(limit, as_json, as_csv))


def _format(as_json: bool, as_csv: bool) -> str:
    """The output format the flags choose."""
    return choose_format(as_json, as_csv)


def _rows(limit, as_json: bool, as_csv: bool):
    """How many rows a listing prints (--limit, or the terminal default)."""
    return limit_for(limit, _format(as_json, as_csv))
