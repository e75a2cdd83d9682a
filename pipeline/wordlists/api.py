"""The word-list use case: a request (a preset, the vocabulary's fields given, and how to print) on a session of
the teacher lexicon → a WordList (pipeline/wordlists/select.py), the same for the command line and the
teacher's page; and the presets as a listing."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from pipeline.core.fields import option
from pipeline.core.results import Listing, provenance
from pipeline.wordlists.choices import NO_CHOICES, merge
from pipeline.wordlists.choices import Choices as Choices  # the fields given, parsed: clients build them here
from pipeline.wordlists.fields import BY_NAME as BY_NAME  # the vocabulary of a list, as clients find it here
from pipeline.wordlists.fields import FIELDS as FIELDS
from pipeline.wordlists.fields import SHEET_WORDS as SHEET_WORDS

if TYPE_CHECKING:
    from pipeline.core.session import Session
    from pipeline.wordlists.select import WordList
    from pipeline.wordlists.settings import Settings

PRINTED = (".pdf", ".html", ".htm", ".md")  # files that print a sheet (a children's list: reviewed words only)
FORMATS = (".csv", ".md", ".html", ".pdf")


@dataclass(frozen=True)
class WordListRequest:
    """A teacher's list: a preset, the vocabulary's fields given (by name, pipeline/wordlists/fields.py), and
    whether to leave no word out, print capitals, or list the presets instead."""

    preset: str | None = option(
        kind=str,
        short="-p",
        metavar="NAME",
        help="A named filter set (spelling-k2, spelling-35, hangman-easy, hangman-hard; see --presets).",
    )
    allow_all: bool = option(
        kind=bool, default=False, help="Do not leave out offensive words and topics not for the classroom."
    )
    upper: bool = option(kind=bool, default=False, help="Words in capitals (default: lower case).")
    presets: bool = option(kind=bool, default=False, help="List the presets and their filters.")
    given: Choices = field(default_factory=Choices)

    def __post_init__(self):
        if not isinstance(self.given, Choices):  # the values given as text or plain values: parsed here, once
            object.__setattr__(self, "given", Choices.of(self.given))


def word_list(s: Session, q: WordListRequest, printed: bool = False) -> WordList:
    """The list the request asks of the session's lexicon (a printed sheet holds reviewed words only), with its
    provenance."""
    from pipeline.wordlists.select import word_list as select

    with s.store.noting_reads() as read:
        wl = select(s.store, s.config, q.preset, q.given, allow_all=q.allow_all, upper=q.upper, printed=printed)
    tables = sorted(read)
    asked = {"preset": q.preset, "allow_all": q.allow_all, "upper": q.upper, "printed": printed, **q.given.texts()}
    return replace(wl, provenance=provenance(s, "wordlist", asked, tables))


def presets(s: Session) -> Listing:
    """One row per preset of the word-list settings: its name, title and filters as command-line options."""
    from pipeline.wordlists.select import presets_table

    return Listing(presets_table(s.config), provenance(s, "presets", {}))


def settings(s: Session) -> Settings:
    """The word-list settings of the session's config: presets, the gallery's groups, the classroom's files."""
    from pipeline.wordlists.settings import load_settings

    return load_settings(s.config)


def preset_values(s: Session, preset: str) -> Choices:
    """The choices a preset makes (a name in any case)."""
    return merge(settings(s).presets, preset, NO_CHOICES)


def stored_previews(s: Session) -> dict[str, tuple[str, ...]]:
    """Each preset's printed words as the gallery stage stored them, when its table is current for the session's
    tables and settings; else none."""
    from pipeline.wordlists.gallery import current_previews

    return current_previews(s.store, s.config) or {}
