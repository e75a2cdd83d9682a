"""The `wordstats` command line: parse arguments, call the library, print. No logic lives here."""

import contextlib
import functools
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer._click.exceptions import UsageError
from typer.core import TyperGroup

from pipeline.errors import NotFound, WordstatsError


@contextlib.contextmanager
def _usage_errors_on_one_line():
    """Print a usage error (bad option value, unknown option or command, missing argument) as one line, exit 2."""
    try:
        yield
    except UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare `wordstats` or `wordstats scrabble`: the help
            raise
        hint = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx is not None else ""
        typer.echo(f"error: {' '.join(exc.format_message().split())}{hint}", err=True)
        raise typer.Exit(exc.exit_code) from None


class _Group(TyperGroup):
    """Typer's command group, with usage errors told on one line like every other error."""

    def make_context(self, *args, **kwargs):
        """Parse the command line; a usage error is one line."""
        with _usage_errors_on_one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        """Run the command; a usage error is one line."""
        with _usage_errors_on_one_line():
            return super().invoke(ctx)


class App(typer.Typer):
    """A Typer app whose commands turn a WordstatsError into one line on stderr and its exit code."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, cls=_Group, **kwargs)

    def command(self, *args, **kwargs):
        """Register a command whose user errors print as one line with their exit code."""
        register = super().command(*args, **kwargs)

        def decorator(fn):
            """Register `fn` wrapped so that its errors print as one line."""

            @functools.wraps(fn)
            def wrapper(*a, **k):
                """Call the command; user errors, a closed pipe and OS errors end it cleanly."""
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
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", help="Config file (default: configs/default.toml).",
                                                   envvar="WORDSTATS_CONFIG", show_default=False)]
DataDirOpt = Annotated[Optional[Path], typer.Option("--data-dir", help="Where outputs live (default: data/out).",
                                                    envvar="WORDSTATS_DATA", show_default=False)]
LexiconOpt = Annotated[Optional[str], typer.Option("--lexicon", "-l", help="Lexicon name (default: the config's).",
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
        self.lexicon = lexicon if lexicon is not None else self.config.default_lexicon
        self.store = Store(self.data_dir, self.lexicon)
        if self.lexicon not in self.config.lexicons and not self.store.root.is_dir():
            self.config.lexicon(self.lexicon)  # raises: unknown lexicon


def _emit(df, as_json: bool, as_csv: bool) -> None:
    """Print a table in the format the --json / --csv flags choose."""
    from pipeline.display import choose_format, emit

    emit(df, choose_format(as_json, as_csv))


@app.command()
def run(
    stages: Annotated[Optional[list[str]], typer.Argument(help="Stages to build (default: all).",
                                                          show_default=False)] = None,
    lexicon: Annotated[Optional[list[str]], typer.Option("--lexicon", "-l", help="Lexicon(s) (default: all in config).",
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

    s = Session(config, data_dir, lexicon)
    _emit(tables_overview(s.config, s.data_dir, [s.lexicon] if lexicon is not None else None), as_json, as_csv)


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
    from pipeline.tiles import parse_rack

    parse_rack(rack)
    s = Session(config, data_dir, lexicon)
    index = queries.open_index(s.store, s.config)
    if plus or through is not None:
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
    from pipeline.tiles import parse_rack

    parse_rack(hand, "hand")
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
    word = queries.parse_letters(text, "word")
    s = Session(config, data_dir, lexicon)
    facts = queries.word_facts(s.store, word)
    if fmt == "json":
        emit_json({"word": word, "tables": {name: rows.to_dicts() for name, rows in facts.items()}})
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

boggle_app = App(name="boggle", help="Boggle: solve and score boards, roll random ones, search for the best.",
                 no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]})
app.add_typer(boggle_app, name="boggle")

SizeOpt = Annotated[Optional[str], typer.Option("--size", help="Board size RxC (needed when not square).",
                                                show_default=False)]
MinLengthOpt = Annotated[Optional[int], typer.Option("--min-length", help="Shortest word (default: the variant's).",
                                                     show_default=False)]
BoggleVariantOpt = Annotated[Optional[str], typer.Option("--variant", help="Rules: standard (3+ letters) or big (4+).",
                                                   show_default=False)]


def _boggle_rules(s: Session, variant: Optional[str], min_length: Optional[int]):
    """The Boggle rules of --variant (default standard), with --min-length applied."""
    from pipeline import boggle as bg

    return bg.boggle_config(s.config).rules(variant or "standard", min_length)


@boggle_app.command("solve")
def boggle_solve(
    board: Annotated[str, typer.Argument(help="Cells in row order (PERSLATGSINETERS; Q or Qu) or a board file.")],
    paths: Annotated[bool, typer.Option("--paths", help="Show a path of cubes (row,col from 0) for each word.")] = False,
    size: SizeOpt = None,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
):
    """Every word on a board with its points, and the total score."""
    from pipeline import boggle as bg

    s = Session(config, data_dir, lexicon)
    grid = bg.load_board(board, size)
    result = bg.solution(grid, bg.store_dictionary(s.store, _boggle_rules(s, variant, min_length)), paths)
    if as_json:
        from pipeline.display import emit_json

        emit_json(result)
        return
    import polars as pl

    typer.echo("\n".join(grid.grid()))
    typer.echo(f"{result['score']:,} points, {len(result['words']):,} words ({s.lexicon})")
    if result["words"]:
        rows = [{**w, "path": " ".join(f"{r},{c}" for r, c in w["path"])} if paths else w for w in result["words"]]
        _emit(pl.DataFrame(rows), False, False)


@boggle_app.command("score")
def boggle_score(
    boards: Annotated[list[str], typer.Argument(help="Boards: cells in row order, or Princeton-format files.")],
    size: SizeOpt = None,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
):
    """One line per board with its score."""
    from pipeline import boggle as bg

    s = Session(config, data_dir, lexicon)
    grids = [bg.load_board(b, size) for b in boards]
    dictionary = bg.store_dictionary(s.store, _boggle_rules(s, variant, min_length))
    results = [{"source": b, "board": g.letters, "score": bg.score(g, dictionary)} for b, g in zip(boards, grids)]
    if as_json:
        from pipeline.display import emit_json

        emit_json(results)
        return
    for r in results:
        typer.echo(f"{r['source']}: {r['score']}")


@boggle_app.command("random")
def boggle_random(
    dice: Annotated[str, typer.Option("--dice", help="Dice set from the config (classic, new, big).")] = "new",
    count: Annotated[int, typer.Option("--count", "-n", help="How many boards.", min=1)] = 10,
    seed: Annotated[Optional[int], typer.Option("--seed", help="Seed (default: the stage's seed for these dice).",
                                                min=0, show_default=False)] = None,
    summary: Annotated[bool, typer.Option("--summary", help="Only score statistics and boards per second.")] = False,
    min_length: MinLengthOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
):
    """Roll random boards from a dice set and score them."""
    from pipeline import boggle as bg

    s = Session(config, data_dir, lexicon)
    bc = bg.boggle_config(s.config)
    dice_set = bc.dice_set(dice)
    seed = bg.dice_seed(bc.seed, dice) if seed is None else seed
    dictionary = bg.store_dictionary(s.store, bc.rules(dice_set.variant, min_length))
    if summary:
        from pipeline.progress import Progress

        with Progress(quiet).task(f"rolling {count:,} boards", total=count) as task:
            stats = bg.random_summary(dice_set, dictionary, seed, count, bc.percentiles, task.advance)
        if as_json:
            from pipeline.display import emit_json

            emit_json(stats)
            return
        pct = "  ".join(f"{k} {v:g}" for k, v in stats["percentiles"].items())
        typer.echo(f"{stats['boards']:,} boards from the {dice} dice (seed {seed}), {s.lexicon}, "
                   f"words of {stats['min_length']}+ letters")
        typer.echo(f"mean {stats['mean']:.2f}  sd {stats['std']:.2f}  min {stats['min']}  "
                   f"max {stats['max']} ({stats['max_board']})")
        typer.echo(pct)
        typer.echo(f"{stats['boards_per_second']:,} boards/s (rolling and scoring, {stats['seconds']:.2f} s)")
        return
    import polars as pl

    boards = bg.roll(dice_set, seed, count)
    scores = bg.score_boards(boards, dice_set.rows, dice_set.cols, dictionary).scores
    _emit(pl.DataFrame({"board": bg.board_texts(boards), "score": scores.astype("int64")}), as_json, False)


@boggle_app.command("best")
def boggle_best(
    size: Annotated[Optional[str], typer.Option("--size", help="Board size RxC (default 4x4, or the dice's).",
                                                show_default=False)] = None,
    minutes: Annotated[float, typer.Option("--minutes", help="Search time budget.", min=0)] = 1.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search (run k uses stream k).", min=0)] = 1,
    dice: Annotated[Optional[str], typer.Option("--dice", help="Only boards this dice set can roll.",
                                                show_default=False)] = None,
    target: Annotated[Optional[int], typer.Option("--target", help="Stop once a board scores this much.",
                                                  show_default=False)] = None,
    steps: Annotated[int, typer.Option("--steps", help="Annealing steps per run.", min=1)] = 100_000,
    min_length: MinLengthOpt = None,
    variant: BoggleVariantOpt = None,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
):
    """Search for the highest-scoring board by simulated annealing from random starts, on all cores."""
    from pipeline import boggle as bg

    s = Session(config, data_dir, lexicon)
    bc = bg.boggle_config(s.config)
    dice_set = bc.dice_set(dice) if dice else None
    if dice_set is not None:
        rows, cols = bg.parse_size(size) if size else (dice_set.rows, dice_set.cols)
        if (rows, cols) != (dice_set.rows, dice_set.cols):
            raise WordstatsError(f"the {dice} dice roll {dice_set.size} boards, not {rows}x{cols}")
    else:
        rows, cols = bg.parse_size(size or "4x4")
    rules = bc.rules(variant or (dice_set.variant if dice_set else "standard"), min_length)
    dictionary = bg.store_dictionary(s.store, rules)
    params = bg.SearchParams(steps, bc.best.params.t_start, bc.best.params.t_end)

    def report(rounds: int, best, elapsed: float) -> None:
        """Print the search's progress after each round, unless quiet."""
        if not quiet:
            typer.echo(f"round {rounds}: best {best.score} ({best.board.letters}, run {best.run}) "
                       f"at {elapsed:.1f} s", err=True)

    result = bg.search(dictionary, rows, cols, seed, minutes, params, dice_set, target, on_round=report)
    best = result.pop("best")
    facts = {"board": best.board.letters, "size": best.board.size, "score": best.score,
             "words": len(bg.solve(best.board, dictionary)), "lexicon": s.lexicon, "dice": dice,
             "seed": seed, "run": best.run, **result}
    if as_json:
        from pipeline.display import emit_json

        emit_json(facts)
        return
    typer.echo("\n".join(best.board.grid()))
    typer.echo(f"{best.score:,} points, {facts['words']:,} words: {best.board.letters} "
               f"(seed {seed}, run {best.run}, found after {facts['seconds_to_best']:.1f} s; "
               f"{facts['runs']} runs of {steps:,} steps in {facts['seconds']:.1f} s)")


# ---- hangman (issue 6) --------------------------------------------------------------------------


@app.command()
def hangman(
    word: Annotated[Optional[str], typer.Argument(help="Trace the solver's game against WORD.",
                                                  show_default=False)] = None,
    length: Annotated[Optional[int], typer.Option("--length", help="Only words of this length.",
                                                  show_default=False)] = None,
    hardest: Annotated[Optional[int], typer.Option("--hardest", help="The N hardest words.",
                                                   show_default=False)] = None,
    easiest: Annotated[Optional[int], typer.Option("--easiest", help="The N easiest words.",
                                                   show_default=False)] = None,
    band: Annotated[Optional[str], typer.Option("--band", help="Only this band: easy, medium or hard.",
                                                show_default=False)] = None,
    common: Annotated[bool, typer.Option(
        "--common", help="Only common words: zipf at least the config's hangman.common_zipf (3.0).")] = False,
    weighted: Annotated[bool, typer.Option("--weighted", help="Trace the frequency-weighted solver.")] = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Hangman difficulty: trace the solver on WORD, or list words hardest (or easiest) first."""
    from pipeline import hangman as hm
    from pipeline.display import choose_format

    choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    if word is None:
        if weighted:
            raise WordstatsError("--weighted applies to a traced WORD")
        _emit(hm.select(s.store, s.config, length, hardest, easiest, band, common), as_json, as_csv)
        return
    if any(v is not None for v in (length, hardest, easiest, band)) or common:
        raise WordstatsError("give a WORD to trace, or --length/--hardest/--easiest/--band/--common to list")
    steps, facts = hm.trace_word(s.store, s.config, word, weighted)
    if as_json:
        from pipeline.display import emit_json

        emit_json({**facts, "steps": steps.to_dicts()})
        return
    if not as_csv:
        solver = "frequency-weighted solver" if facts["weighted"] else "reference solver"
        typer.echo(f"{facts['word']}: {facts['length']} letters, {facts['candidates']:,} candidates "
                   f"in {s.store.lexicon} ({solver}), start {' '.join('_' * facts['length'])}")
    _emit(steps, False, as_csv)
    if not as_csv:
        by = " by the reference solver" if facts["weighted"] else ""
        rank = (f"; rank {facts['rank_in_length']:,} of the {facts['length']}-letter words{by} (1 = hardest), "
                f"band {facts['band']}" if "rank_in_length" in facts else "")
        misses, guesses = facts["misses"], facts["guesses"]
        typer.echo(f"solved: {misses} miss{'' if misses == 1 else 'es'} in {guesses} "
                   f"guess{'' if guesses == 1 else 'es'} ({facts['sequence'] or 'no guess needed'}){rank}")


# ---- word lists for teachers, report (issue 7) --------------------------------------------------


@app.command()
def wordlist(
    preset: Annotated[Optional[str], typer.Option("--preset", "-p", show_default=False,
                                                  help="A named filter set (spelling-k2, spelling-35, hangman-easy, "
                                                       "hangman-hard; see --presets).")] = None,
    length: Annotated[Optional[str], typer.Option(help='Letters: "5" or a range "4-6".', show_default=False)] = None,
    common: Annotated[bool, typer.Option("--common", help="Only common words (Zipf frequency >= 3.0).")] = False,
    min_zipf: Annotated[Optional[float], typer.Option(help="Only words at least this frequent (Zipf scale).",
                                                      show_default=False)] = None,
    top_frequent: Annotated[Optional[int], typer.Option(help="Only words among the N most frequent of the lexicon.",
                                                        show_default=False)] = None,
    contains: Annotated[Optional[str], typer.Option(help="Letters the word contains, in order.",
                                                    show_default=False)] = None,
    starts_with: Annotated[Optional[str], typer.Option(help="Letters the word starts with.", show_default=False)] = None,
    ends_with: Annotated[Optional[str], typer.Option(help="Letters the word ends with.", show_default=False)] = None,
    pattern: Annotated[Optional[str], typer.Option(help="A pattern with at least one letter: *IGHT, ?A?E, [BC]AT.",
                                                   show_default=False)] = None,
    hangman: Annotated[Optional[str], typer.Option(help="Hangman difficulty: easy, medium or hard.",
                                                   show_default=False)] = None,
    boggle_findable: Annotated[bool, typer.Option("--boggle-findable",
                                                  help="Only words often found on random Boggle boards.")] = False,
    min_find_rate: Annotated[Optional[float], typer.Option(help="Find rate for --boggle-findable (default 0.01).",
                                                           show_default=False)] = None,
    count: Annotated[Optional[int], typer.Option(help="Pick N words at random (reproducible with --seed).",
                                                 show_default=False)] = None,
    seed: Annotated[Optional[int], typer.Option(help="Which random pick (default 0).", show_default=False)] = None,
    sort: Annotated[Optional[str], typer.Option(help="alpha (default), frequency or difficulty.",
                                                show_default=False)] = None,
    allow_all: Annotated[bool, typer.Option("--allow-all", help="Do not leave out offensive and adult words.")] = False,
    title: Annotated[Optional[str], typer.Option(help="Title of the sheet.", show_default=False)] = None,
    blanks: Annotated[Optional[bool], typer.Option("--blanks/--no-blanks", show_default=False,
                                                   help="Add numbered blank lines for a spelling test.")] = None,
    upper: Annotated[bool, typer.Option("--upper", help="Words in capitals (default: lower case).")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write list.csv, list.md, list.html or list.pdf.",
                                                show_default=False)] = None,
    presets: Annotated[bool, typer.Option("--presets", help="List the presets and their filters.")] = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Word lists for teachers: filters that combine, presets, no offensive words; print, CSV, Markdown, PDF."""
    from pipeline import wordlists

    s = Session(config, data_dir, lexicon)
    if presets:
        _emit(wordlists.presets_table(s.config), as_json, as_csv)
        return
    given = dict(length=length, common=common, min_zipf=min_zipf, top_frequent=top_frequent, contains=contains,
                 starts_with=starts_with, ends_with=ends_with, pattern=pattern, hangman=hangman,
                 boggle_findable=boggle_findable, min_find_rate=min_find_rate, count=count, seed=seed, sort=sort,
                 title=title, blanks=blanks)
    wl = wordlists.word_list(s.store, s.config, preset, given, allow_all=allow_all, upper=upper)
    if wl.note:
        typer.echo(f"note: {wl.note}", err=True)
    if out:
        wordlists.save(wl, out)
        typer.echo(f"wrote {wl.table.height:,} words to {out}", err=True)
        return
    if not (as_json or as_csv):
        typer.echo(f"{wl.title}: {wl.table.height:,} words, " + "; ".join(wl.filters), err=True)
    _emit(wl.table, as_json, as_csv)



# ---- scrabble (issue 8) -------------------------------------------------------------------------

scrabble_app = App(name="scrabble", help="Scrabble and Words With Friends: best plays and play scores.",
                   no_args_is_help=True)
app.add_typer(scrabble_app, name="scrabble")

BoardOpt = Annotated[Optional[Path], typer.Option("--board", help="Board file: 15 lines of 15 characters "
                                                  "(. empty, A-Z tiles, a-z blanks).", show_default=False)]
ScrabbleVariantOpt = Annotated[str, typer.Option("--variant", help="Game variant: scrabble or wwf (from the config).")]
EmptyOpt = Annotated[bool, typer.Option("--empty", help="Start from an empty board (an opening move).")]


def _scrabble_board(board: Optional[Path], empty: bool):
    """The board of --board FILE, or the empty board of --empty (exactly one of them)."""
    from pipeline.scrabble import read_board

    if board is None and not empty:
        raise WordstatsError("give --board FILE, or --empty for an opening move")
    if board is not None and empty:
        raise WordstatsError("give either --board FILE or --empty, not both")
    return read_board(board)


@scrabble_app.command("best")
def scrabble_best(
    rack: Annotated[str, typer.Option("--rack", help="Tiles in hand: letters and ? for a blank (at most 7).",
                                      show_default=False)],
    board: BoardOpt = None,
    empty: EmptyOpt = False,
    variant: ScrabbleVariantOpt = "scrabble",
    top: Annotated[int, typer.Option("--top", help="How many plays to show.", min=1)] = 10,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """The highest-scoring plays for a board and rack (position, word, score, cross-words, leave)."""
    from pipeline import scrabble as sc

    s = Session(config, data_dir, lexicon)
    game = sc.variant(s.config, variant)
    tiles = sc.parse_rack(rack, game.rack_size)
    position = _scrabble_board(board, empty)
    plays = sc.best_plays(position, tiles, game, sc.load_lexicon(s.store), top)
    if not plays:
        raise NotFound(f"no legal play for rack {tiles} on this board")
    _emit(sc.plays_table(plays, tiles), as_json, as_csv)


@scrabble_app.command("score")
def scrabble_score(
    play: Annotated[str, typer.Option("--play", help='The play in notation: "8H WORD" across, "H8 WORD" down; '
                                      "lower case = blank, board tiles may be in parentheses.",
                                      show_default=False)],
    board: BoardOpt = None,
    empty: EmptyOpt = False,
    rack: Annotated[Optional[str], typer.Option("--rack", help="Also check the tiles come from this rack.",
                                                show_default=False)] = None,
    variant: ScrabbleVariantOpt = "scrabble",
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Check one play and show its score word by word, or say why it is illegal (exit code 1)."""
    from pipeline import scrabble as sc
    from pipeline.display import choose_format

    choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon)
    game = sc.variant(s.config, variant)
    tiles = sc.parse_rack(rack, game.rack_size) if rack is not None else None
    position = _scrabble_board(board, empty)
    try:
        result = sc.score_play(position, play, game, sc.load_lexicon(s.store), tiles)
    except sc.IllegalPlay as exc:
        if as_json or as_csv:
            import polars as pl

            _emit(pl.DataFrame({"play": [play], "legal": [False], "reason": [str(exc)]}), as_json, as_csv)
        else:
            typer.echo(f"illegal: {play}: {exc}")
        raise typer.Exit(exc.exit_code) from None
    _emit(sc.breakdown(result), as_json, as_csv)



def main() -> None:
    """Entry point of the `wordstats` console script."""
    app()


if __name__ == "__main__":
    main()
