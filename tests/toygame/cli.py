"""The toy command: the lexicon's initials, as every listing prints."""

from dataclasses import dataclass

from pipeline.cli.app import app
from pipeline.cli.options import Flags, command
from pipeline.core.display import emit
from pipeline.core.fields import CONFIG, CSV, DATA_DIR, JSON_LIST, LEXICON, LIMIT, option


@dataclass(frozen=True)
class Initials:
    """The first letters to show."""

    letters: str = option(kind=str, default="", metavar="LETTERS", help="Only these first letters (default: all).")


@command(app, Initials, LIMIT, LEXICON, CONFIG, DATA_DIR, JSON_LIST, CSV)
def toy(q: Initials, flags: Flags):
    """How many words of the lexicon start with each letter."""
    import polars as pl

    fmt, rows = flags.format, flags.rows
    with flags.session() as s:
        table = s.store.read("initials")
    if q.letters:
        table = table.filter(pl.col("letter").is_in(list(q.letters.upper())))
    emit(table, fmt, limit=rows)
