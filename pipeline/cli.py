"""The `wordstats` command line: parse arguments, call the library, print. No logic lives here."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.errors import WordstatsError


class App(typer.Typer):
    """A Typer app whose commands turn a WordstatsError into one line on stderr and its exit code."""

    def command(self, *args, **kwargs):
        register = super().command(*args, **kwargs)

        def decorator(fn):
            @functools.wraps(fn)
            def wrapper(*a, **k):
                try:
                    return fn(*a, **k)
                except WordstatsError as exc:
                    typer.echo(f"error: {exc}", err=True)
                    raise typer.Exit(exc.exit_code) from None
                except BrokenPipeError:
                    sys.stderr.close()  # output piped into `head`: stop quietly
                    raise typer.Exit(0) from None
                except OSError as exc:
                    where = f"{exc.filename}: " if exc.filename else ""
                    typer.echo(f"error: {where}{exc.strerror or exc}", err=True)
                    raise typer.Exit(2) from None

            register(wrapper)
            return fn

        return decorator


app = App(
    name="wordstats",
    help="Datasets about word games from word lists: build them (run), then query them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# Options shared by many commands.
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", help="Config file [default: configs/default.toml].",
                                                   envvar="WORDSTATS_CONFIG", show_default=False)]
DataDirOpt = Annotated[Optional[Path], typer.Option("--data-dir", help="Where outputs live [default: data/out].",
                                                    envvar="WORDSTATS_DATA", show_default=False)]
LexiconOpt = Annotated[Optional[str], typer.Option("--lexicon", "-l", help="Lexicon name [default: the config's].",
                                                   show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a JSON array of objects.")]
CsvOpt = Annotated[bool, typer.Option("--csv", help="Print CSV.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.", envvar="WORDSTATS_QUIET")]


class Session:
    """The config, data folder and lexicon a command works on."""

    def __init__(self, config: Optional[Path], data_dir: Optional[Path], lexicon: Optional[str]):
        from pipeline.config import load_config
        from pipeline.tables import Store, default_data_dir

        self.config = load_config(config)
        self.data_dir = data_dir or default_data_dir()
        self.lexicon = lexicon or self.config.default_lexicon
        self.store = Store(self.data_dir, self.lexicon)
        if self.lexicon not in self.config.lexicons and not self.store.root.is_dir():
            self.config.lexicon(self.lexicon)  # raises: unknown lexicon


def _emit(df, as_json: bool, as_csv: bool) -> None:
    from pipeline.display import choose_format, emit

    emit(df, choose_format(as_json, as_csv))


@app.command()
def run(
    stages: Annotated[Optional[list[str]], typer.Argument(help="Stages to build [default: all].",
                                                          show_default=False)] = None,
    lexicon: Annotated[Optional[list[str]], typer.Option("--lexicon", "-l", help="Lexicon(s) [default: all in config].",
                                                         show_default=False)] = None,
    source: Annotated[Optional[list[Path]], typer.Option("--source", help="Ad hoc word list file(s) for --lexicon.",
                                                         show_default=False)] = None,
    min_length: Annotated[Optional[int], typer.Option(help="Ad hoc list: shortest word kept.", min=1)] = None,
    max_length: Annotated[Optional[int], typer.Option(help="Ad hoc list: longest word kept.", min=1)] = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    quiet: QuietOpt = False,
):
    """Build stages (ingest, indexes, ...) for lexicons; only the named stages and missing inputs run."""
    from pipeline import stages as st
    from pipeline.config import adhoc_lexicon, load_config
    from pipeline.progress import Progress
    from pipeline.tables import default_data_dir

    cfg = load_config(config)
    out = data_dir or default_data_dir()
    for name in stages or []:
        st.stage(name)
    spec = None
    if source:
        if not lexicon or len(lexicon) != 1:
            raise WordstatsError("--source needs exactly one --lexicon NAME for the ad hoc list")
        spec = adhoc_lexicon(lexicon[0], source, min_length, max_length)
    elif min_length is not None or max_length is not None:
        raise WordstatsError("--min-length / --max-length apply to an ad hoc list given with --source")
    progress = Progress(quiet)
    for name in lexicon or list(cfg.lexicons):
        results = st.run(cfg, out, name, list(stages or []), spec=spec, progress=progress)
        if not quiet:
            for r in results:
                files = ", ".join(f"{f} ({e['rows']:,} rows)" if e["rows"] is not None else f
                                  for f, e in r["outputs"].items())
                typer.echo(f"{name}: {r['stage']} in {r['seconds']:.2f} s → {files}", err=True)


@app.command()
def info(
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """List lexicons and their tables: rows, size, when built."""
    from pipeline.info import tables_overview

    s = Session(config, data_dir, None)
    _emit(tables_overview(s.config, s.data_dir, [lexicon] if lexicon else None), as_json, as_csv)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help='SQL over the lexicon\'s tables, e.g. "SELECT * FROM words LIMIT 5".')],
    lexicon: LexiconOpt = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the result to FILE (.parquet/.csv/.json/.md).")] = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Run a polars SQL query; each table is registered under its file's stem (words, anagrams, ...)."""
    from pipeline.info import run_sql

    s = Session(config, data_dir, lexicon)
    result = run_sql(s.store, query)
    if out:
        from pipeline.display import save

        save(result, out)
        typer.echo(f"wrote {result.height:,} rows to {out}", err=True)
    else:
        _emit(result, as_json, as_csv)


# ---- indexes and queries (issue 3) -------------------------------------------------------------

RackArg = Annotated[str, typer.Argument(help="Tiles: letters, ? for a blank (any case, at most 20 tiles, 4 blanks).",
                                        show_default=False)]
WordArg = Annotated[str, typer.Argument(help="A word (letters A-Z, any case).", show_default=False)]


@app.command()
def anagram(
    rack: RackArg,
    plus: Annotated[bool, typer.Option("--plus", help="Also use one board letter: for each A-Z, the words "
                                                      "of the rack plus that letter.")] = False,
    through: Annotated[Optional[str], typer.Option("--through", help="With --plus, only these board letters "
                                                   "(implies --plus).", show_default=False)] = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Words that use every tile of RACK; letters played by a blank print in lower case (SULTaNA)."""
    from pipeline import queries

    queries.parse_rack(rack)
    s = Session(config, data_dir, lexicon)
    index = queries.open_index(s.store, s.config)
    if plus or through:
        _emit(queries.anagram_plus(index, rack, through), as_json, as_csv)
    else:
        _emit(queries.anagram(index, rack), as_json, as_csv)


@app.command()
def words(
    hand: Annotated[str, typer.Argument(help="Tiles in hand: letters, ? for a blank.", show_default=False)],
    min_length: Annotated[int, typer.Option("--min-length", help="Shortest word shown.", min=1)] = 1,
    max_length: Annotated[Optional[int], typer.Option("--max-length", help="Longest word shown.", min=1,
                                                      show_default=False)] = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Words made from some of the tiles of HAND (subanagrams), longest then highest-scoring first."""
    from pipeline import queries

    queries.parse_rack(hand, "hand")
    s = Session(config, data_dir, lexicon)
    index = queries.open_index(s.store, s.config)
    _emit(queries.subanagrams(index, hand, min_length, max_length), as_json, as_csv)


@app.command()
def hunt(
    letters: Annotated[str, typer.Argument(help="The letters; each may be used any number of times.",
                                           show_default=False)],
    center: Annotated[Optional[str], typer.Option("--center", help="A letter every word must use "
                                                  "(the Spelling Bee form).", show_default=False)] = None,
    min_length: Annotated[int, typer.Option("--min-length", help="Shortest word shown.", min=1)] = 1,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Word hunt: words spelled only with LETTERS, reusing them; pangrams (all letters used) first."""
    from pipeline import queries

    queries.parse_letters(letters, "letters")
    s = Session(config, data_dir, lexicon)
    index = queries.open_index(s.store, s.config)
    _emit(queries.hunt(index, letters, center, min_length), as_json, as_csv)


@app.command()
def pattern(
    text: Annotated[str, typer.Argument(metavar="PATTERN", help="? one letter, * any run, [ABC] one of, "
                                        "[^ABC] none of; or a regex with --regex.", show_default=False)],
    regex: Annotated[bool, typer.Option("--regex", help="PATTERN is a regular expression matched against "
                                                        "the whole word, ignoring case.")] = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Words matching a pattern such as ?A?E[^S] or QU*Z."""
    from pipeline import queries

    if not regex:
        queries.pattern_regex(text)
    s = Session(config, data_dir, lexicon)
    index = queries.open_index(s.store, s.config)
    _emit(queries.pattern(index, text, regex), as_json, as_csv)


@app.command()
def hooks(
    word: WordArg,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """The letters that make a word in front of / behind WORD, and whether it stays a word minus an end."""
    from pipeline import queries

    queries.parse_letters(word, "word")
    s = Session(config, data_dir, lexicon)
    _emit(queries.hooks(s.store, word), as_json, as_csv)


@app.command()
def word(
    text: Annotated[str, typer.Argument(metavar="WORD", help="A word (letters A-Z, any case).",
                                        show_default=False)],
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Everything the lexicon's tables know about WORD: one line per table, row and column."""
    from pipeline import queries
    from pipeline.display import choose_format, emit, emit_json

    fmt = choose_format(as_json, as_csv)
    queries.parse_letters(text, "word")
    s = Session(config, data_dir, lexicon)
    facts = queries.word_facts(s.store, text)
    if fmt == "json":
        emit_json({"word": text.strip().upper(), "tables": {name: rows.to_dicts() for name, rows in facts.items()}})
    else:
        emit(queries.facts_table(facts, max_chars=100 if fmt == "table" else None), fmt)


# ---- stems (issue 4) ----------------------------------------------------------------------------


@app.command()
def stems(
    length: Annotated[Optional[int], typer.Option("--length", help="Only stems of 6 or 7 letters.",
                                                  show_default=False)] = None,
    order: Annotated[str, typer.Option("--order", help="Rank by: letters, bingos or usefulness.")] = "usefulness",
    top: Annotated[int, typer.Option("--top", help="How many stems (0 = all).", min=0)] = 50,
    min_letters: Annotated[int, typer.Option("--min-letters", help="Only stems with at least K combining "
                                             "letters.", min=1, metavar="K")] = 1,
    export: Annotated[Optional[Path], typer.Option("--export", help="Write a study list (stem, letters, "
                                                   "bingos) to FILE.csv or FILE.md.", show_default=False,
                                                   metavar="FILE")] = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Bingo stems: 6 or 7 tiles that combine with many letters to make 7- or 8-letter words."""
    from pipeline import queries

    if export is not None:
        queries.check_export(export)
    s = Session(config, data_dir, lexicon)
    found = queries.top_stems(s.store, length, order, top, min_letters)
    if export is not None:
        from pipeline.display import save

        save(queries.study_list(found), export)
        typer.echo(f"wrote {found.height:,} stems to {export}", err=True)
    else:
        _emit(found.drop("bingos"), as_json, as_csv)


@app.command()
def stem(
    text: Annotated[str, typer.Argument(metavar="STEM", help="6 or 7 letters, in any order.", show_default=False)],
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """For each letter that makes STEM a bingo, the bingos."""
    from pipeline import queries

    s = Session(config, data_dir, lexicon)
    _emit(queries.stem(s.store, text), as_json, as_csv)


# ---- boggle (issue 5) ---------------------------------------------------------------------------


# ---- hangman (issue 6) --------------------------------------------------------------------------


# ---- word lists for teachers, report (issue 7) --------------------------------------------------


# ---- scrabble (issue 8) -------------------------------------------------------------------------


def main() -> None:
    """Entry point of the `wordstats` console script."""
    app()


if __name__ == "__main__":
    main()
