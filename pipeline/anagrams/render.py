"""How the word-finding and study results print: listings as tables, JSON or CSV (pipeline.core.display), a
word's facts table by table, a word looked up for the classroom in sentences (the same for the command line and
the teacher's page), a judge's verdicts, a study list of stems, a deck's summary."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.display import emit, emit_json, plural, print_table, record, save

if TYPE_CHECKING:
    from pipeline.anagrams.api import Deck, Verdicts, WordFacts, WordLookUp
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


def look_up(result: WordLookUp, fmt: str) -> None:
    """A word looked up: its sections as "Heading: sentence" lines, or one JSON object."""
    if fmt == "json":
        found = {k: getattr(result, k) for k in ("word", "valid", "withheld", "hidden", "hangman", "phonics")}
        hooks = {k: getattr(result, k) for k in ("front_hooks", "back_hooks")}
        emit_json({**found, "anagrams": list(result.anagrams), **{k: v and list(v) for k, v in hooks.items()}})
        return
    for heading, sentence in look_up_sections(result, "--every"):
        print(f"{heading}: {sentence}" if heading else sentence)


def look_up_sections(result: WordLookUp, every: str) -> list[tuple[str, str]]:
    """A word looked up as (heading, sentence) pairs, the first without a heading; `every` names the way to ask
    for every word (--every, or the page's checkbox)."""
    word, lexicon = result.word, result.provenance.lexicon
    out = [("", f"{word} is {'' if result.valid else 'not '}a word in the {lexicon} word list.")]
    if result.withheld:
        return out + [
            ("", f"This word is not for the classroom ({result.withheld}): its entry is shown only with {every}.")
        ]
    same = ", ".join(result.anagrams) or "None."
    if result.hidden:
        same += f" ({result.hidden} not shown: not for the classroom)"
    out.append(("Words with the same letters", same))
    if result.front_hooks is not None and result.back_hooks is not None:
        front, back = ", ".join(result.front_hooks) or "none", ", ".join(result.back_hooks) or "none"
        out.append(("Add one letter", f"In front: {front}. At the end: {back}."))
    if result.hangman:
        out.append(("Hangman", hangman_sentence(result.hangman)))
    if result.phonics:
        out.append(("Sounds", sounds_sentence(result.phonics)))
    return out


def hangman_sentence(row: dict) -> str:
    """How a good guesser fares against the word, and its band."""
    misses, expected, band = row["misses"], f"{row['expected_misses']:.2g}", row["band"]
    article = "an" if band[:1] in "aeiou" else "a"
    return (
        f"A good guesser misses {misses} time{'' if misses == 1 else 's'} in {row['guesses']} guesses, and {expected} "
        f"time{'' if expected == '1' else 's'} on average when it picks at random between letters that are equally "
        f"likely: {article} {band} word."
    )


def sounds_sentence(row: dict) -> str:
    """The word's syllables, sounds and spelling patterns."""
    n = row["syllables"]
    parts = [f"{n} syllable{'' if n == 1 else 's'}"]
    if row["phonemes"]:
        parts.append("sounds " + " ".join(row["phonemes"]))
    for key, name in (("blends", "blends"), ("digraphs", "digraphs"), ("vowel_teams", "vowel teams")):
        if row[key]:
            parts.append(f"{name} " + ", ".join(row[key]))
    if row["magic_e"]:
        parts.append("magic e")
    return "; ".join(parts) + "."


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
