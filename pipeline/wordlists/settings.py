"""Word-list settings: presets and the block list, from configs/wordlists.toml."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.core.config import PROJECT_ROOT, Config, Section, parse_toml
from pipeline.core.errors import WordstatsError
from pipeline.core.files import write_text
from pipeline.wordlists.fields import BY_NAME
from pipeline.wordlists.options import (
    PAPERS,
    check_option,
)
from pipeline.wordlists.puzzles import Banned
from pipeline.wordlists.safety import Exclusions, build_exclusions
from pipeline.wordlists.vocabulary import Vocabulary, check_decision, vocabulary

SETTINGS_FILE = PROJECT_ROOT / "configs" / "wordlists.toml"
REVIEW_FILE = PROJECT_ROOT / "data" / "raw" / "classroom-review.tsv"


@dataclass(frozen=True)
class Settings:
    """The word-list settings file: defaults, presets and the block-list policy."""

    path: Path
    common_zipf: float
    min_find_rate: float
    boggle_dice: str
    paper: str
    presets: dict[str, dict[str, Any]]
    blocklist: Path
    blocklist_sha256: str | None
    allow: tuple[str, ...]
    add: tuple[str, ...]
    slurs: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    topics: tuple[tuple[str, tuple[str, ...]], ...] = ()  # not for the classroom: (topic, words)
    review: Path = REVIEW_FILE  # the reviewed classroom vocabulary (a decision for every children's word)
    review_sha256: str | None = None
    review_keep: tuple[str, ...] = ()  # the teacher's own keep decisions
    review_exclude: tuple[tuple[str, str], ...] = ()  # the teacher's own exclusions: (word, category)
    puzzle_strings: tuple[str, ...] = ()  # letter strings no puzzle may spell (word searches, scrambles)
    fill: tuple[tuple[str, float], ...] = ()  # word-search fill letters and their weights
    gallery: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the teacher's page: (group title, preset names)


def load_settings(config: Config) -> Settings:
    """The settings file named by the config's [wordlists] file (default: configs/wordlists.toml)."""
    sec = config.section("wordlists")
    sec.allow("file")
    path = config.folder("wordlists", "file") / sec.text("file") if sec.has("file") else SETTINGS_FILE
    if not path.is_file():
        raise WordstatsError(f"{path}: word-list settings file not found (field wordlists.file of {config.path})")
    top = Section(parse_toml(path.read_bytes(), path, "word-list settings file"), "", path)
    top.allow(
        "common_zipf",
        "min_find_rate",
        "boggle_dice",
        "paper",
        "presets",
        "blocklist",
        "classroom",
        "review",
        "puzzles",
        "gallery",
    )
    block = top.section("blocklist")
    block.allow("file", "sha256", "allow", "add", "slurs", "suffixes", "roots")
    classroom = top.section("classroom", {})
    topics = tuple((name, tuple(_words(classroom, name))) for name in classroom.keys())
    presets = {name: _preset(sec) for name, sec in top.sections("presets").items()}
    review = top.section("review", {})
    review.allow("file", "sha256", "keep", "exclude")
    exclude = review.section("exclude", {})
    for word in exclude.keys():
        if not re.fullmatch(r"[a-z]+", word):
            exclude.fail(word, "a word to exclude is lower-case letters a-z")
        check_decision("exclude", exclude.text(word), f"{path}: field review.exclude.{word}")
    gallery_sec = top.section("gallery", {})
    gallery = tuple((title, tuple(gallery_sec.sequence(title))) for title in gallery_sec.keys())
    for title, names in gallery:
        for name in names:
            if name not in presets:
                gallery_sec.fail(title, f"unknown preset {name!r}")
    puzzles = top.section("puzzles", {})
    puzzles.allow("strings", "fill")
    fill = puzzles.section("fill", {})
    for letter in fill.keys():
        if not re.fullmatch(r"[A-Z]", letter):
            fill.fail(letter, "fill letters are capitals A-Z")
    return Settings(
        path=path,
        common_zipf=top.number("common_zipf", 3.0, lo=0, hi=8),
        min_find_rate=top.number("min_find_rate", 0.01, lo=0, hi=1),
        boggle_dice=top.text("boggle_dice", "new"),
        paper=top.text("paper", "A4", choices=PAPERS),
        presets=presets,
        blocklist=path.parent / block.text("file"),
        blocklist_sha256=block.text("sha256", None, pattern=r"[0-9a-f]{64}"),
        allow=tuple(w.upper() for w in block.sequence("allow", [])),
        add=tuple(w.upper() for w in block.sequence("add", [])),
        slurs=tuple(w.upper() for w in _words(block, "slurs")),
        suffixes=tuple(_words(block, "suffixes")),
        roots=tuple(w.upper() for w in _words(block, "roots")),
        topics=topics,
        review=path.parent / review.text("file") if review.has("file") else REVIEW_FILE,
        review_sha256=review.text("sha256", None, pattern=r"[0-9a-f]{64}"),
        review_keep=tuple(_words(review, "keep")),
        review_exclude=tuple((w, exclude.text(w)) for w in exclude.keys()),
        puzzle_strings=tuple(w.upper() for w in _words(puzzles, "strings")),
        fill=tuple((letter, fill.number(letter, lo=0, hi=1000)) for letter in fill.keys()),
        gallery=gallery,
    )


def _words(sec: Section, key: str) -> list[str]:
    """A list field of lower-case letters-only words, or a one-line error naming the field."""
    words = sec.sequence(key, [])
    for w in words:
        if not isinstance(w, str) or not re.fullmatch(r"[a-z]+", w):
            sec.fail(key, f"{w!r} is not a lower-case word (letters a-z only)")
    return words


def _preset(sec: Section) -> dict[str, Any]:
    """One preset's fields, type-checked and each value validated as the command line would."""
    sec.allow(*BY_NAME)
    out: dict[str, Any] = {}
    for key in sec.keys():
        kind = BY_NAME[key].kind
        value = {str: sec.text, bool: sec.flag, int: sec.integer, float: sec.number}[kind](key)
        try:
            out[key] = check_option(key, value)
        except WordstatsError as exc:
            sec.fail(key, str(exc))
    return out


def listed_entries(settings: Settings) -> set[str]:
    """The block list file's entries, upper case, phrases joined ("god damn" → GODDAMN)."""
    path = settings.blocklist
    if not path.is_file():
        raise WordstatsError(f"{path}: block list not found (field blocklist.file of {settings.path})")
    data = path.read_bytes()
    if settings.blocklist_sha256 and hashlib.sha256(data).hexdigest() != settings.blocklist_sha256:
        raise WordstatsError(f"{path}: sha256 differs from field blocklist.sha256 of {settings.path}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise WordstatsError(
            f"{path}: block list is not UTF-8 text (field blocklist.file of {settings.path})"
        ) from None
    listed = set()
    for line in text.splitlines():
        entry = re.sub(r"[\s\-]", "", line).upper()
        if entry and entry.isascii() and entry.isalpha():
            listed.add(entry)
    return listed


def exclusions(settings: Settings) -> Exclusions:
    """What lists leave out by default: the block list, additions and slurs, and the classroom topics,
    each with every inflected and derived form."""
    listed = listed_entries(settings)
    return _exclusions(
        frozenset(listed | set(settings.add) | set(settings.slurs)),
        settings.topics,
        settings.roots,
        settings.allow,
        settings.suffixes,
        str(settings.path),
    )


@functools.lru_cache(maxsize=4)
def _exclusions(entries, topics, roots, allow, suffixes, where: str) -> Exclusions:
    """The expanded exclusions, from the disk cache when these inputs were expanded before (a second)."""
    key = json.dumps([sorted(entries), topics, roots, allow, suffixes, _lemminflect_version()], sort_keys=True)
    cache = cache_dir() / f"exclusions-{hashlib.sha256(key.encode()).hexdigest()[:20]}.json"
    try:
        data = json.loads(cache.read_text())
        return Exclusions(
            frozenset(data["offensive"]),
            {t: frozenset(ws) for t, ws in data["topics"].items()},
            tuple(data["roots"]),
            frozenset(data["allow"]),
            data["entries"],
        )
    except (OSError, ValueError, KeyError):
        pass
    try:
        excl = build_exclusions(entries, dict(topics), roots, allow, suffixes)
    except ValueError as exc:
        raise WordstatsError(f"{where}: field blocklist.allow: {str(exc).lower()!r} is not on the block list") from None
    data = {
        "offensive": sorted(excl.offensive),
        "topics": {t: sorted(ws) for t, ws in excl.topics.items()},
        "roots": list(excl.roots),
        "allow": sorted(excl.allow),
        "entries": excl.entries,
    }
    try:
        write_text(cache, json.dumps(data))
    except OSError:
        pass  # a read-only cache folder only costs time
    return excl


def cache_dir() -> Path:
    """Where expanded block lists are cached: $WORDSTATS_CACHE, else $XDG_CACHE_HOME/wordstats."""
    if os.environ.get("WORDSTATS_CACHE"):
        return Path(os.environ["WORDSTATS_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wordstats"


def _lemminflect_version() -> str:
    """The installed lemminflect version (its data decides the forms)."""
    from importlib.metadata import version

    return version("lemminflect")


def blocked_words(settings: Settings) -> frozenset[str]:
    """The offensive words (block list, additions, slurs) in every form, upper case; not the topics."""
    return exclusions(settings).offensive


def excluded_words(settings: Settings) -> frozenset[str]:
    """Every word lists leave out by default (offensive words and classroom topics), upper case."""
    return exclusions(settings).words


def classroom_vocabulary(settings: Settings) -> Vocabulary:
    """The reviewed classroom vocabulary with the teacher's decisions of [review] applied."""
    return vocabulary(settings.review, settings.review_sha256, settings.review_keep, settings.review_exclude)


def unsafe_words(settings: Settings) -> frozenset[str]:
    """Every word no puzzle may spell or suggest (upper case): the block list and topics in every form, and
    the words the classroom review excludes (archaic and obscure words aside: harmless, only unfit to learn)."""
    review = classroom_vocabulary(settings).excluded
    return excluded_words(settings) | {w for w, category in review.items() if category != "archaic"}


_BANNED: dict[tuple, Banned] = {}


def puzzle_banned(settings: Settings) -> Banned:
    """What no word search grid or scramble may spell (3 letters or more): every unsafe word, the root strings
    of the block list, and the offensive strings of [puzzles] strings."""
    key: tuple = (settings.path, settings.review, settings.review_keep, settings.review_exclude)
    key += (settings.puzzle_strings, settings.blocklist, settings.add, settings.slurs, settings.roots)
    key += (settings.topics, settings.allow)
    if key not in _BANNED:
        strings = unsafe_words(settings) | set(settings.puzzle_strings) | set(exclusions(settings).roots)
        _BANNED[key] = Banned.of(strings)
    return _BANNED[key]


OFFENSIVE_CATEGORIES = ("sexual", "slurs-insults", "identity", "body-toilet")  # review exclusions a board suggests


@functools.lru_cache(maxsize=4)
def _listed_forms(entries: frozenset[str]) -> frozenset[str]:
    """The entries (upper case) and their inflections: those lemminflect's dictionary knows, and the regular ones
    of a noun and a verb that it makes for any word (a reader knows CUNTS and NAZIS, though no dictionary does)."""
    import lemminflect

    forms = set(entries)
    for entry in entries:
        lemma = entry.lower()
        found = [lemminflect.getAllInflections(lemma)]
        found += [lemminflect.getAllInflectionsOOV(lemma, upos) for upos in ("NOUN", "VERB")]
        forms.update(v.upper() for table in found for values in table.values() for v in values if v.isalpha())
    return frozenset(forms)


def offensive_words(settings: Settings, real: frozenset[str]) -> frozenset[str]:
    """The offensive words a reader would recognise (upper case): the block list's entries, additions and slurs
    with their dictionary inflections, every other blocked form that is a real word (in `real`), and the
    words the classroom review excludes as sexual, insulting, identity or toilet words."""
    entries = frozenset(listed_entries(settings) | set(settings.add) | set(settings.slurs))
    review = classroom_vocabulary(settings).excluded
    flagged = {w for w, category in review.items() if category in OFFENSIVE_CATEGORIES}
    return _listed_forms(entries) | (blocked_words(settings) & real) | flagged
