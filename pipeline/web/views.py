"""What the teacher's page shows, from the library's use cases: the gallery, a list with its form and sheet,
and a word looked up. Each function takes a scoped session and returns what a template renders."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

from pipeline.core.errors import FieldError, NotFound, WordstatsError, pick
from pipeline.core.fields import Field, request_of
from pipeline.core.session import Session
from pipeline.web.requests import MAX_WORDS, BadRequest, ListRequest, field_label
from pipeline.wordlists import api

PREVIEW_WORDS = 8  # words a gallery card shows
GROUPS = {  # how the list form groups its fields, in this order
    "school": "Which words",
    "phonics": "Phonics",
    "words": "Spelling patterns",
    "pick": "How many and which",
    "puzzle": "Puzzles",
    "sheet": "The sheet",
}
SIMPLE = ("grade", "phonics", "phase", "dolch", "length", "starts_with", "ends_with", "count", "sheet", "paper")


def settings_of(session: Session) -> api.Settings:
    """The word-list settings of the session's config."""
    return api.settings(session)


@dataclass(frozen=True)
class Card:
    """A preset in the gallery: its name, title, what it picks, and its first words."""

    name: str
    title: str
    words: tuple[str, ...]


def gallery(session: Session) -> list[tuple[str, list[Card]]]:
    """The presets grouped by purpose, each with a preview of its words (the gallery page)."""
    settings = settings_of(session)
    groups = settings.gallery or (("Presets", tuple(settings.presets)),)
    made = (session.store.root, _tables_mark(session), _settings_mark(session))
    return [(title, [card(settings, name, made) for name in names]) for title, names in groups]


def card(settings: api.Settings, name: str, made: tuple) -> Card:
    """One preset's card: its title and, when already computed for these tables and settings (`made`), the first
    words of its list (the page fetches the others from /preview, so that the gallery answers at once)."""
    fields = settings.presets[name]
    words = _CACHED.get((*made, name), ())
    return Card(name, fields.get("title", name), tuple(words[:PREVIEW_WORDS]))


_CACHED: dict[tuple, tuple[str, ...]] = {}  # preset previews by (lexicon folder, tables' and settings' marks, preset)


_MAKING: dict[tuple, threading.Lock] = {}  # one lock per preview: made once, however many ask at the same time


def preview(session: Session, preset: str) -> list[str]:
    """A preset's words as its sheet prints them: from the gallery stage's table while it is current, else made
    here (kept per built table set)."""
    key = (session.store.root, _tables_mark(session), _settings_mark(session), preset)
    with _MAKING.setdefault(key, threading.Lock()):
        if key not in _CACHED:
            stored = stored_previews(session).get(preset)
            if stored is None:
                stored = tuple(api.word_list(session, api.WordListRequest(preset=preset), printed=True).words)
            _CACHED[key] = stored
    return list(_CACHED[key])


_STORED: dict[tuple, dict[str, tuple[str, ...]]] = {}  # gallery tables read, by (lexicon folder, marks)
_READING = threading.Lock()


def stored_previews(session: Session) -> dict[str, tuple[str, ...]]:
    """The previews of the gallery stage's table when it is current for the session's tables and settings (read
    once per built table set), else none."""
    key = (session.store.root, _tables_mark(session), _settings_mark(session))
    with _READING:
        if key not in _STORED:
            _STORED[key] = api.stored_previews(session)
    return _STORED[key]


def _settings_mark(session: Session) -> tuple:
    """What changes when the settings a list is chosen by change: the config and the word-list settings, their
    block list and review, each file's path, size and time (a cache key)."""
    settings = settings_of(session)
    marks: list[tuple] = []
    for path in (session.config.path, settings.path, settings.classroom.blocklist, settings.classroom.review):
        try:
            st = path.stat()
            marks.append((str(path), st.st_size, st.st_mtime_ns))
        except OSError:
            marks.append((str(path),))
    return tuple(marks)


def _tables_mark(session: Session) -> tuple:
    """What changes when a build commits: the manifest's size and time (a cache key)."""
    manifest = session.store.root / "manifest.json"
    try:
        st = manifest.stat()
        return (st.st_size, st.st_mtime_ns)
    except OSError:
        return ()


@dataclass(frozen=True)
class FormField:
    """A field of the list form: the vocabulary's field and the value in force (the preset's or the teacher's)."""

    field: Field
    value: Any
    simple: bool
    hidden: frozenset[str] = frozenset()  # choices the lexicon's tables cannot give (CHOICE_TABLES)

    @property
    def choices(self) -> list[tuple[str, str]]:
        """(value, words) of each choice a select offers: the field's choices or suggestions the lexicon's tables
        can give, and the value in force when it is another."""
        offered = [c for c in self.field.choices or self.field.suggest if c not in self.hidden]
        if self.value is not None and str(self.value) not in offered and offered:
            offered.append(str(self.value))
        return [(c, self.field.choice_words.get(c, c)) for c in offered]


def teacher_sentence(exc: WordstatsError) -> str:
    """A refusal in the page's words: a request field's error names each field by its label on the form; another
    sentence has the options it names replaced by their labels (teacher_words)."""
    return exc.told(field_label) if isinstance(exc, FieldError) else teacher_words(str(exc))


def teacher_words(sentence: str) -> str:
    """A sentence of the word-list use case in the page's words: each option it names (--starts-with) called by
    its label on the form (“Starts with”)."""
    for f in sorted(api.FIELDS, key=lambda f: -len(f.flag)):
        if f.label:
            sentence = re.sub(rf"{re.escape(f.flag)}(?![\w-])", f"“{f.label}”", sentence)
    return sentence


def form(session: Session, request: ListRequest) -> list[tuple[str, list[FormField]]]:
    """The list form's fields by group, with the values in force."""
    chosen = api.preset_values(session, request.preset) if request.preset else api.Choices()
    values = {**chosen.texts(), **request.given.texts()}
    out = []
    missing = {table for table in CHOICE_TABLES.values() if not session.store.exists(table)}
    for group, title in GROUPS.items():
        fields = [
            FormField(f, values.get(f.name), f.name in SIMPLE, hidden_choices(f.name, missing))
            for f in api.FIELDS
            if f.group == group
        ]
        out.append((title, fields))
    return out


# The table a choice of a select reads: the form offers it only when the lexicon has that table (the teacher
# lexicon has no Scrabble tables, so no order by playability).
CHOICE_TABLES = {("sort", "playability"): "playability", ("sort", "difficulty"): "hangman"}


def hidden_choices(field: str, missing: set[str]) -> frozenset[str]:
    """The choices of a field whose tables the lexicon lacks."""
    return frozenset(choice for (name, choice), table in CHOICE_TABLES.items() if name == field and table in missing)


class TooMany(BadRequest):
    """A list longer than a page holds: how many words matched."""

    def __init__(self, matched: int):
        super().__init__(f"this list has {matched:,} words: give How many words (at most {MAX_WORDS})")
        self.matched = matched


@dataclass(frozen=True)
class ListPage:
    """What the list page shows: the list, or why there is none yet (no word matches, or more than a page holds)
    with the form to change it."""

    wl: api.WordList | None
    message: str | None = None
    matched: int = 0  # words that match when more than a page holds


def list_page(session: Session, request: ListRequest) -> ListPage:
    """The list page of a request: its list, or a sentence that says which choice to change."""
    try:
        return ListPage(the_list(session, request))
    except TooMany as exc:
        return ListPage(None, f"{exc.matched:,} words match: more than a sheet holds.", exc.matched)
    except NotFound as exc:
        sentence = teacher_words(str(exc))
        _, hint = sentence.split(". To get some, ", 1) if ". To get some, " in sentence else ("", "")
        if hint:  # the filters are on the form beside it: say only which choice to loosen
            sentence = f"No words match all of these choices. To get some, {hint}."
        return ListPage(None, sentence)


def the_list(session: Session, request: ListRequest) -> api.WordList:
    """The word list of a request, as the CLI makes it for the same options (a printed sheet: reviewed words)."""
    preset = None
    if request.preset is not None:
        try:
            preset = pick(request.preset, settings_of(session).presets, "preset")  # any case, as on the command line
        except WordstatsError as exc:
            raise BadRequest(str(exc)) from None
    wl = api.word_list(session, api.WordListRequest(preset=preset, given=request.given), printed=True)
    if wl.table.height > MAX_WORDS:
        raise TooMany(wl.table.height)
    return wl


def title_of(session: Session, request: ListRequest, wl: api.WordList | None) -> str:
    """The list page's heading: the list's title, or the preset's when it has no words yet."""
    if wl is not None:
        return wl.title
    if request.preset is not None:  # a known one: the_list refused any other
        presets = settings_of(session).presets
        name = pick(request.preset, presets, "preset")
        return str(presets[name].get("title", name))
    return "Make your own list"


def lookup(session: Session, word: str, every: bool) -> tuple[Any, list[tuple[str, str]]]:
    """A word looked up by the look-up use case of `wordstats lookup` (its request parsed by its own fields), and
    what the page says of it, section by section."""
    from pipeline.anagrams import api, render

    found = api.look_up(session, request_of(api.LookUp, {"word": word, "every": every}))
    return found, render.look_up_sections(found, "“Show every word”")
