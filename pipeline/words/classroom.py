"""The classroom's vocabulary, below every package that prints for children or sets words for them: the block
list and the topics not for the classroom (each entry with all its forms, pipeline/words/safety.py) and the
reviewed vocabulary (a decision for every children's word, pipeline/words/vocabulary.py) with the teacher's own
decisions, read from the word-list settings file (configs/wordlists.toml: [blocklist], [classroom], [review])."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.config import PROJECT_ROOT, Config
from pipeline.core.errors import WordstatsError
from pipeline.core.files import sha256_if_file, write_text
from pipeline.core.registry import value
from pipeline.core.sections import Section, parse_toml
from pipeline.words.safety import Exclusions, build_exclusions
from pipeline.words.vocabulary import Vocabulary, check_decision, vocabulary

SETTINGS_FILE = PROJECT_ROOT / "configs" / "wordlists.toml"
REVIEW_FILE = PROJECT_ROOT / "data" / "raw" / "classroom-review.tsv"


@dataclass(frozen=True)
class Classroom:
    """What lists leave out and what a children's sheet may print: the block list's policy, the classroom
    topics, and the review with the teacher's own decisions (the settings file's path, for messages)."""

    path: Path
    blocklist: Path
    blocklist_sha256: str | None = None
    allow: tuple[str, ...] = ()
    add: tuple[str, ...] = ()
    slurs: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    topics: tuple[tuple[str, tuple[str, ...]], ...] = ()  # not for the classroom: (topic, words)
    review: Path = REVIEW_FILE  # the reviewed classroom vocabulary (a decision for every children's word)
    review_sha256: str | None = None
    review_keep: tuple[str, ...] = ()  # the teacher's own keep decisions
    review_exclude: tuple[tuple[str, str], ...] = ()  # the teacher's own exclusions: (word, category)


def settings_path(config: Config) -> Path:
    """The word-list settings file the config's [wordlists] file names (default: configs/wordlists.toml)."""
    name = value(config, "wordlists.file")
    return SETTINGS_FILE if name is None else config.folder("wordlists", "file") / name


def settings_file(config: Config) -> Section:
    """The top of the word-list settings file named by the config's [wordlists] file (default:
    configs/wordlists.toml)."""
    path = settings_path(config)
    if not path.is_file():
        raise WordstatsError(f"{path}: word-list settings file not found (field wordlists.file of {config.path})")
    return Section(parse_toml(path.read_bytes(), path, "word-list settings file"), "", path)


def classroom_files(classroom: Classroom) -> dict[str, dict[str, str | None]]:
    """The files a classroom is read from (the settings file, its block list and its review), each with its
    sha256: what a stage that chooses children's words depends on."""
    files = {"settings": classroom.path, "blocklist": classroom.blocklist, "review": classroom.review}
    return {name: {"file": path.name, "sha256": sha256_if_file(path)} for name, path in files.items()}


def classroom_of(top: Section) -> Classroom:
    """The classroom sections of a settings file's top ([blocklist], [classroom], [review])."""
    path = top.file
    block = top.section("blocklist")
    block.allow("file", "sha256", "allow", "add", "slurs", "suffixes", "roots")
    classroom = top.section("classroom", {})
    topics = tuple((name, tuple(word_field(classroom, name))) for name in classroom.keys())
    review = top.section("review", {})
    review.allow("file", "sha256", "keep", "exclude")
    exclude = review.section("exclude", {})
    for word in exclude.keys():
        if not re.fullmatch(r"[a-z]+", word):
            exclude.fail(word, "a word to exclude is lower-case letters a-z")
        check_decision("exclude", exclude.text(word), f"{path}: field review.exclude.{word}")
    return Classroom(
        path=path,
        blocklist=path.parent / block.text("file"),
        blocklist_sha256=block.text("sha256", None, pattern=r"[0-9a-f]{64}"),
        allow=tuple(w.upper() for w in block.sequence("allow", [])),
        add=tuple(w.upper() for w in block.sequence("add", [])),
        slurs=tuple(w.upper() for w in word_field(block, "slurs")),
        suffixes=tuple(word_field(block, "suffixes")),
        roots=tuple(w.upper() for w in word_field(block, "roots")),
        topics=topics,
        review=path.parent / review.text("file") if review.has("file") else REVIEW_FILE,
        review_sha256=review.text("sha256", None, pattern=r"[0-9a-f]{64}"),
        review_keep=tuple(word_field(review, "keep")),
        review_exclude=tuple((w, exclude.text(w)) for w in exclude.keys()),
    )


def load_classroom(config: Config) -> Classroom:
    """The classroom sections of the config's word-list settings file."""
    return classroom_of(settings_file(config))


def word_field(sec: Section, key: str) -> list[str]:
    """A list field of lower-case letters-only words, or a one-line error naming the field."""
    words = sec.sequence(key, [])
    for w in words:
        if not isinstance(w, str) or not re.fullmatch(r"[a-z]+", w):
            sec.fail(key, f"{w!r} is not a lower-case word (letters a-z only)")
    return words


def listed_entries(classroom: Classroom) -> set[str]:
    """The block list file's entries, upper case, phrases joined ("god damn" → GODDAMN)."""
    path = classroom.blocklist
    if not path.is_file():
        raise WordstatsError(f"{path}: block list not found (field blocklist.file of {classroom.path})")
    data = path.read_bytes()
    if classroom.blocklist_sha256 and hashlib.sha256(data).hexdigest() != classroom.blocklist_sha256:
        raise WordstatsError(f"{path}: sha256 differs from field blocklist.sha256 of {classroom.path}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise WordstatsError(
            f"{path}: block list is not UTF-8 text (field blocklist.file of {classroom.path})"
        ) from None
    listed = set()
    for line in text.splitlines():
        entry = re.sub(r"[\s\-]", "", line).upper()
        if entry and entry.isascii() and entry.isalpha():
            listed.add(entry)
    return listed


def exclusions(classroom: Classroom) -> Exclusions:
    """What lists leave out by default: the block list, additions and slurs, and the classroom topics,
    each with every inflected and derived form."""
    listed = listed_entries(classroom)
    return _exclusions(
        frozenset(listed | set(classroom.add) | set(classroom.slurs)),
        classroom.topics,
        classroom.roots,
        classroom.allow,
        classroom.suffixes,
        str(classroom.path),
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


def blocked_words(classroom: Classroom) -> frozenset[str]:
    """The offensive words (block list, additions, slurs) in every form, upper case; not the topics."""
    return exclusions(classroom).offensive


def excluded_words(classroom: Classroom) -> frozenset[str]:
    """Every word lists leave out by default (offensive words and classroom topics), upper case."""
    return exclusions(classroom).words


@functools.lru_cache(maxsize=4)  # a page reads it on every list: made once per review file and teacher decisions
def classroom_vocabulary(classroom: Classroom) -> Vocabulary:
    """The reviewed classroom vocabulary with the teacher's decisions of [review] applied (shared: never change
    it)."""
    return vocabulary(classroom.review, classroom.review_sha256, classroom.review_keep, classroom.review_exclude)


def unsafe_words(classroom: Classroom) -> frozenset[str]:
    """Every word no puzzle may spell or suggest (upper case): the block list and topics in every form, and
    the words the classroom review excludes (archaic and obscure words aside: harmless, only unfit to learn)."""
    review = classroom_vocabulary(classroom).excluded
    return excluded_words(classroom) | {w for w, category in review.items() if category != "archaic"}


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


def offensive_words(classroom: Classroom, real: frozenset[str]) -> frozenset[str]:
    """The offensive words a reader would recognise (upper case): the block list's entries, additions and slurs
    with their dictionary inflections, every other blocked form that is a real word (in `real`), and the
    words the classroom review excludes as sexual, insulting, identity or toilet words."""
    entries = frozenset(listed_entries(classroom) | set(classroom.add) | set(classroom.slurs))
    review = classroom_vocabulary(classroom).excluded
    flagged = {w for w, category in review.items() if category in OFFENSIVE_CATEGORIES}
    return _listed_forms(entries) | (blocked_words(classroom) & real) | flagged
