"""The wordlist command: word lists and sheets for teachers."""

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
    LimitOpt,
    SampleOpt,
    SeedOpt,
    check_out,
    choose_format,
    limit_for,
    plural,
)


@app.command()
def wordlist(
    preset: Annotated[
        Optional[str],
        typer.Option(
            "--preset",
            "-p",
            show_default=False,
            metavar="NAME",
            help="A named filter set (spelling-k2, spelling-35, hangman-easy, hangman-hard; see --presets).",
        ),
    ] = None,
    length: Annotated[
        Optional[str], typer.Option(metavar="N|A-B", help='Letters: "5" or a range "4-6".', show_default=False)
    ] = None,
    common: Annotated[bool, typer.Option("--common", help="Only common words (Zipf frequency >= 3.0).")] = False,
    min_zipf: Annotated[
        Optional[float], typer.Option(help="Only words at least this frequent (Zipf scale).", show_default=False)
    ] = None,
    top_frequent: Annotated[
        Optional[int],
        typer.Option(
            help="Only words among the N most frequent of the lexicon.", min=1, max=10_000_000, show_default=False
        ),
    ] = None,
    contains: Annotated[
        Optional[str], typer.Option(metavar="LETTERS", help="Letters the word contains, in order.", show_default=False)
    ] = None,
    starts_with: Annotated[
        Optional[str], typer.Option(metavar="LETTERS", help="Letters the word starts with.", show_default=False)
    ] = None,
    ends_with: Annotated[
        Optional[str], typer.Option(metavar="LETTERS", help="Letters the word ends with.", show_default=False)
    ] = None,
    pattern: Annotated[
        Optional[str],
        typer.Option(
            metavar="PATTERN", help="A pattern with at least one letter: *IGHT, ?A?E, [BC]AT.", show_default=False
        ),
    ] = None,
    hangman: Annotated[
        Optional[str],
        typer.Option(
            metavar="[easy|medium|hard]", help="Hangman difficulty: easy, medium or hard.", show_default=False
        ),
    ] = None,
    boggle_findable: Annotated[
        bool, typer.Option("--boggle-findable", help="Only words often found on random Boggle boards.")
    ] = False,
    min_find_rate: Annotated[
        Optional[float], typer.Option(help="Find rate for --boggle-findable (default 0.01).", show_default=False)
    ] = None,
    count: SampleOpt = None,
    seed: SeedOpt = None,
    sort: Annotated[
        Optional[str],
        typer.Option(
            metavar="[alpha|frequency|difficulty]",
            help="alpha (default), frequency or difficulty (any case).",
            show_default=False,
        ),
    ] = None,
    children: Annotated[
        bool,
        typer.Option("--children", help="Only words a primary-school child knows (Dolch, Dale-Chall; grade K-4)."),
    ] = False,
    grade: Annotated[
        Optional[str],
        typer.Option(metavar="GRADE", help="Grade level: K, 1 ... 5, or a range (K-2, 2-3).", show_default=False),
    ] = None,
    dolch: Annotated[
        Optional[str],
        typer.Option(
            metavar="LIST",
            help="Dolch sight words: pre-primer, primer, grade-1, grade-2, grade-3, nouns, all.",
            show_default=False,
        ),
    ] = None,
    phonics: Annotated[
        Optional[str],
        typer.Option(
            metavar="FEATURE",
            help="Phonics feature: cvc, ccvc, cvcc, blends, digraphs, magic-e, vowel-teams, r-controlled, "
            "double-letters, short-vowels, long-vowels, regular, irregular.",
            show_default=False,
        ),
    ] = None,
    vowel: Annotated[
        Optional[str],
        typer.Option(
            metavar="LETTER",
            help="A vowel letter: its short sound (its long sound with magic-e, vowel-teams).",
            show_default=False,
        ),
    ] = None,
    syllables: Annotated[
        Optional[str], typer.Option(metavar="N|A-B", help='Syllables: "2" or a range "1-2".', show_default=False)
    ] = None,
    sound: Annotated[
        Optional[str],
        typer.Option(
            metavar="SOUND", help="A sound (CMU ARPAbet: CH, SH, TH, AE...) however it is spelled.", show_default=False
        ),
    ] = None,
    phase: Annotated[
        Optional[str],
        typer.Option(
            metavar="PHASE",
            help="Decodable at a phonics phase: uk-2 ... uk-5 (Letters and Sounds), us-1 ... us-7 (US steps).",
            show_default=False,
        ),
    ] = None,
    grapheme: Annotated[
        Optional[str],
        typer.Option(
            metavar="SPELLING", help="Decoded with this spelling of a sound: ai, sh, igh, a_e.", show_default=False
        ),
    ] = None,
    spelling: Annotated[
        Optional[str],
        typer.Option(metavar="[us|uk]", help="us or uk: leave out the other side's spellings.", show_default=False),
    ] = None,
    paper: Annotated[
        Optional[str], typer.Option(metavar="[letter|a4]", help="PDF paper: letter or a4.", show_default=False)
    ] = None,
    sheet: Annotated[
        Optional[str],
        typer.Option(
            metavar="SHEET",
            help="Sheet for .pdf/.html/.md: list, spelling-test, word-search, scramble, hangman, handwriting, "
            "flashcards.",
            show_default=False,
        ),
    ] = None,
    difficulty: Annotated[
        Optional[str],
        typer.Option(
            metavar="[easy|medium|hard]",
            help="Word search: easy (→ ↓), medium (+ diagonals), hard (all 8 directions).",
            show_default=False,
        ),
    ] = None,
    limit: LimitOpt = None,
    allow_all: Annotated[
        bool, typer.Option("--allow-all", help="Do not leave out offensive words and topics not for the classroom.")
    ] = False,
    title: Annotated[
        Optional[str], typer.Option(metavar="TEXT", help="Title of the sheet.", show_default=False)
    ] = None,
    blanks: Annotated[
        Optional[bool],
        typer.Option("--blanks/--no-blanks", show_default=False, help="Add numbered blank lines for a spelling test."),
    ] = None,
    upper: Annotated[bool, typer.Option("--upper", help="Words in capitals (default: lower case).")] = False,
    lowercase: Annotated[
        bool, typer.Option("--lowercase", help="Word-search grids, scrambles and flashcards in lower case too.")
    ] = False,
    font: Annotated[
        Optional[str],
        typer.Option(
            metavar="[dejavu|atkinson]",
            help="Sheet font: dejavu (default) or atkinson (Atkinson Hyperlegible, for low vision and dyslexia).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out",
            help="Write list.csv, list.md, list.html or list.pdf (refuses to overwrite without --force).",
            show_default=False,
        ),
    ] = None,
    force: ForceOpt = False,
    presets: Annotated[bool, typer.Option("--presets", help="List the presets and their filters.")] = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Word lists for teachers: filters that combine, presets, no offensive words; print, CSV, Markdown, PDF."""
    from pipeline.wordlists.select import presets_table, word_list
    from pipeline.wordlists.sheets import save

    fmt = choose_format(as_json, as_csv)
    s = Session(config, data_dir, lexicon, teacher=True)
    check_out(out, force, (".csv", ".md", ".html", ".pdf"), s.data_dir)
    if presets:
        _emit(presets_table(s.config), as_json, as_csv)
        return
    given = dict(
        length=length,
        common=common,
        min_zipf=min_zipf,
        top_frequent=top_frequent,
        contains=contains,
        starts_with=starts_with,
        ends_with=ends_with,
        pattern=pattern,
        hangman=hangman,
        boggle_findable=boggle_findable,
        min_find_rate=min_find_rate,
        count=count,
        seed=seed,
        sort=sort,
        title=title,
        blanks=blanks,
        children=children,
        grade=grade,
        dolch=dolch,
        phonics=phonics,
        vowel=vowel,
        syllables=syllables,
        sound=sound,
        phase=phase,
        grapheme=grapheme,
        spelling=spelling,
        paper=paper,
        sheet=sheet,
        difficulty=difficulty,
        lowercase=lowercase,
        font=font,
    )
    printed = out is not None and out.suffix.lower() in (".pdf", ".html", ".htm", ".md")
    wl = word_list(s.store, s.config, preset, given, allow_all=allow_all, upper=upper, printed=printed)
    if wl.note:
        typer.echo(f"note: {wl.note}", err=True)
    if out:
        save(wl, out)
        typer.echo(f"wrote {plural(wl.table.height, 'word')} to {out}", err=True)
        return
    if not (as_json or as_csv):
        typer.echo(f"{wl.title}: {plural(wl.table.height, 'word')}, " + "; ".join(wl.filters), err=True)
    _emit(wl.table, as_json, as_csv, limit_for(limit, fmt))
