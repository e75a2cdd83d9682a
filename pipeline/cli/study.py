"""Study commands: judge (is each word valid?) and study (flashcard decks for Anki, or CSV)."""

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.app import ConfigOpt, CsvOpt, DataDirOpt, JsonOpt, LexiconOpt, Session, _emit, app
from pipeline.cli.options import ForceOpt, check_out, parse_length, plural
from pipeline.core.errors import WordstatsError


@app.command()
def judge(
    words: Annotated[list[str], typer.Argument(help="Words to judge; - reads them from standard input.")],
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    as_csv: CsvOpt = False,
):
    """Judge words as a club word judge does: each VALID or NOT VALID, then whether the play is acceptable
    (exit code 1 if any word is not valid)."""
    import sys

    from pipeline.anagrams.study import judge as study_judge
    from pipeline.anagrams.study import read_batch
    from pipeline.core.display import choose_format

    fmt = choose_format(as_json, as_csv)
    given = [w for item in words for w in (read_batch(sys.stdin.read(), "words") if item == "-" else [item])]
    if any(not w.strip() for w in given):
        raise WordstatsError("empty word: give words of letters A-Z to judge")
    s = Session(config, data_dir, lexicon)
    table = study_judge(s.store, given)
    ok = bool(table["valid"].all())
    if fmt == "table":
        width = max(len(w) for w in table["word"])
        for word, valid in table.iter_rows():
            typer.echo(f"{word.ljust(width)}  {'VALID' if valid else 'NOT VALID'}")
        typer.echo(f"\nthe play is {'ACCEPTABLE' if ok else 'NOT ACCEPTABLE'} in {s.lexicon}")
    else:
        _emit(table, as_json, as_csv)
    if not ok:
        raise typer.Exit(1)


@app.command()
def study(
    out: Annotated[Path, typer.Option("--out", help="The deck: FILE.apkg (Anki) or FILE.csv.", metavar="FILE")],
    length: Annotated[
        str, typer.Option("--length", help="Alphagrams of this many letters (2 to 15).", metavar="N")
    ] = "7",
    first: Annotated[
        int, typer.Option("--from", help="First probability order (1 = likeliest).", min=1, max=10**8)
    ] = 1,
    last: Annotated[int, typer.Option("--to", help="Last probability order.", min=1, max=10**8)] = 100,
    hook_cards: Annotated[
        bool, typer.Option("--hook-cards/--no-hook-cards", help="Also a hook card for each answer word.")
    ] = True,
    force: ForceOpt = False,
    lexicon: LexiconOpt = None,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
):
    """Flashcards of alphagrams by length and probability range (front: the alphagram and its probability
    order; back: the anagrams with their hooks), plus hook cards: an Anki deck (.apkg) or CSV."""
    from pipeline.anagrams.study import alphagram_cards, anki_package, cards_csv
    from pipeline.anagrams.study import hook_cards as make_hook_cards
    from pipeline.core.store import write_text

    suffix = out.suffix.lower()
    span = parse_length(length)
    assert span is not None
    if span[0] != span[1] or not 2 <= span[0] <= 15:
        raise WordstatsError(f"--length {length!r}: give one length from 2 to 15")
    size = span[0]
    if last < first:
        raise WordstatsError(f"--to {last} is before --from {first}")
    s = Session(config, data_dir, lexicon)
    check_out(out, force, (".apkg", ".csv"), s.data_dir)
    alphas = alphagram_cards(s.store, size, first, last)
    if alphas.is_empty():
        raise WordstatsError(f"no {size}-letter alphagrams with probability order {first}-{last} in {s.lexicon}")
    hooks = make_hook_cards(s.store, alphas["words"].explode().to_list() if hook_cards else [])
    title = f"wordstats {s.lexicon} {size}s {first}-{last}"
    if suffix == ".csv":
        write_text(out, cards_csv(alphas, hooks))
    else:
        anki_package(alphas, hooks, title, out)
    typer.echo(f"wrote {out}: {plural(alphas.height, 'alphagram card')}, {plural(hooks.height, 'hook card')}", err=True)
