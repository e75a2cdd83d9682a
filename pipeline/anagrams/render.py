"""How the word-finding and study results print: listings as tables, JSON or CSV (pipeline.core.display), a
word's facts table by table, a judge's verdicts, a study list of stems, a deck's summary."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.display import emit, emit_json, plural, print_table, record, save

if TYPE_CHECKING:
    from pipeline.anagrams.api import Deck, Verdicts, WordFacts
    from pipeline.core.results import Listing

FACT_CHARS = 100  # a value longer than this is cut in the table form of `word`


def listing(result: Listing, fmt: str, limit: int | None) -> None:
    """A query's rows in the format asked, at most `limit` of them."""
    emit(result.table, fmt, limit=limit)


def word_facts(result: WordFacts, fmt: str) -> None:
    """A word's facts: one JSON object, one CSV line per table, row and column, or a small table per table."""
    from pipeline.anagrams.lookups import facts_table

    if fmt == "json":
        emit_json({"word": result.word, "tables": {name: rows.to_dicts() for name, rows in result.tables.items()}})
    elif fmt == "csv":
        emit(facts_table(result.tables), fmt)
    else:
        for i, (name, rows) in enumerate(result.tables.items()):
            if i:
                print("")
            if rows.height == 1:  # one row read top to bottom (column, value)
                print_table(record(rows.row(0, named=True)), title=name, max_chars=FACT_CHARS)
            else:
                print_table(rows, title=f"{name}: {plural(rows.height, 'row')}", max_chars=FACT_CHARS)


def verdicts(result: Verdicts, fmt: str) -> None:
    """Each word VALID or NOT VALID, then whether the play is acceptable (or the table as JSON or CSV)."""
    if fmt != "table":
        emit(result.table, fmt)
        return
    width = max(len(w) for w in result.table["word"])
    for word, valid in result.table.iter_rows():
        print(f"{word.ljust(width)}  {'VALID' if valid else 'NOT VALID'}")
    print(f"\nthe play is {'ACCEPTABLE' if result.acceptable else 'NOT ACCEPTABLE'} in {result.provenance.lexicon}")


def stems_list(result: Listing, fmt: str, out: Path | None) -> None:
    """The stems as a listing (their bingos left out), or a study list written to `out`."""
    if out is None:
        emit(result.table.drop("bingos"), fmt)
        return
    from pipeline.anagrams.lookups import study_list

    save(study_list(result.table), out)
    print(f"wrote {plural(result.table.height, 'stem')} to {out}", file=sys.stderr)


def deck_written(deck: Deck, out: Path) -> None:
    """What a study deck holds, once written."""
    cards = f"{plural(deck.alphagrams.height, 'alphagram card')}, {plural(deck.hooks.height, 'hook card')}"
    print(f"wrote {out}: {cards}", file=sys.stderr)
