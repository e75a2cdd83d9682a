"""What a request to the teacher's page may ask: the word-list fields of the vocabulary, read from a query
string and checked as the command line checks them; anything else is a 400 with a sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from pipeline.core.errors import FieldError, WordstatsError
from pipeline.core.fields import Field
from pipeline.wordlists.api import BY_NAME, Choices

MAX_QUERY = 4096  # bytes of a query string
MAX_VALUE = 200  # characters of one value
MAX_WORDS = 200  # words a page lists (a preview, a sheet): a class sheet needs far fewer
PAGE_PARAMS = ("preset", "lexicon", "download")  # what the page adds to the vocabulary's fields
PAGE_COUNT = 20  # words a list of one's own starts with, before the teacher says how many
PAGE_SET = 1  # and the set it starts with
TRUE, FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no", "")


def field_label(name: str) -> str:
    """A request field as the form names it: its label in quotes (its name in words when it has none)."""
    found = BY_NAME.get(name)
    return f"“{found.label}”" if found is not None and found.label else name.replace("_", " ")


class BadRequest(WordstatsError):
    """A request the page refuses: answered 400 with the sentence."""

    exit_code = 400


@dataclass(frozen=True)
class ListRequest:
    """A word list asked of the page: the preset, the lexicon, and the fields given (each parsed by its field)."""

    preset: str | None
    lexicon: str | None
    given: Choices

    def query(self, **changes: Any) -> str:
        """This request's query string, with `changes` (text; None drops a field)."""
        values: dict[str, Any] = {"preset": self.preset, "lexicon": self.lexicon, **self.given.texts(), **changes}
        pairs = {k: ("1" if v is True else "0" if v is False else v) for k, v in values.items() if v is not None}
        return urlencode(pairs)


def typed(f: Field, text: str) -> Any:
    """A query-string value as its field's type (a number, yes or no, text), for its field to parse."""
    if len(text) > MAX_VALUE:
        raise BadRequest(f"{f.label}: at most {MAX_VALUE} characters")
    if f.kind is bool:
        if text.lower() not in TRUE + FALSE:
            raise BadRequest(f"{f.label}: choose yes or no")
        return text.lower() in TRUE
    try:
        return f.kind(text) if f.kind is not str else text
    except ValueError:
        raise BadRequest(f"{f.label}: {text[:40]!r} is not a number") from None


def plain_name(name: str) -> bool:
    """Whether a preset's or lexicon's name is one a config may give (letters, digits, - _ and inner dots, as in
    enable.2k): never a path."""
    return (
        0 < len(name) <= 60
        and name[0].isalnum()
        and ".." not in name
        and name.replace("-", "").replace("_", "").replace(".", "").isalnum()
    )


def list_request(params: dict[str, str], raw_length: int) -> ListRequest:
    """The word list a query string asks for; a 400 for an unknown field, a bad value or a query too long."""
    if raw_length > MAX_QUERY:
        raise BadRequest(f"the request is too long (at most {MAX_QUERY} characters)")
    given: dict[str, Any] = {}
    for name, text in params.items():
        if name in PAGE_PARAMS:
            continue
        if name not in BY_NAME:
            raise BadRequest(f"unknown field {name[:40]!r}")
        if text == "":
            continue  # a form's empty field: as the preset says
        given[name] = typed(BY_NAME[name], text)
    if given.get("count", 0) > MAX_WORDS:
        raise BadRequest(f"How many words: at most {MAX_WORDS} on a page")
    preset = params.get("preset") or None
    if preset is None:  # a list of one's own starts as a printable set, numbered from 1 as the presets' are
        given.setdefault("count", PAGE_COUNT)
        given.setdefault("seed", PAGE_SET)
    lexicon = params.get("lexicon") or None
    for name, value in (("preset", preset), ("lexicon", lexicon)):
        if value is not None and not plain_name(value):
            raise BadRequest(f"unknown {name} {value[:40]!r}")
    try:
        return ListRequest(preset, lexicon, Choices.of(given))
    except FieldError as exc:
        raise BadRequest(exc.told(field_label)) from None
