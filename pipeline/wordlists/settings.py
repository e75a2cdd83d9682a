"""Word-list settings: presets, puzzles and the teacher's page, from configs/wordlists.toml (its classroom
sections: pipeline/words/classroom.py)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pipeline.core.config import Config
from pipeline.core.errors import WordstatsError
from pipeline.core.sections import Section
from pipeline.core.settings import read
from pipeline.wordlists.choices import Choices
from pipeline.wordlists.fields import BY_NAME
from pipeline.wordlists.manifest import FILE_SETTINGS
from pipeline.wordlists.puzzles import Banned
from pipeline.words.classroom import (
    Classroom,
    classroom_of,
    exclusions,
    settings_file,
    settings_path,
    unsafe_words,
    word_field,
)


@dataclass(frozen=True)
class Settings:
    """The word-list settings file: defaults, presets and the block-list policy."""

    path: Path
    common_zipf: float
    min_find_rate: float
    boggle_dice: str
    paper: str
    presets: Mapping[str, Choices]  # read-only: one Settings serves every caller (load_settings)
    classroom: Classroom  # the block list, the classroom topics and the review (pipeline/words/classroom.py)
    puzzle_strings: tuple[str, ...] = ()  # letter strings no puzzle may spell (word searches, scrambles)
    fill: tuple[tuple[str, float], ...] = ()  # word-search fill letters and their weights
    gallery: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the teacher's page: (group title, preset names)


_READ: dict[tuple, Settings] = {}  # the settings of each version of a config and its settings file, read once


def load_settings(config: Config) -> Settings:
    """The settings file named by the config's [wordlists] file (default: configs/wordlists.toml), parsed once per
    version of the config, of the file's bytes and of the phonics phases file (the page asks for them several
    times a request, the gallery stage once a preset)."""
    path = settings_path(config)
    if not path.is_file():
        return _read_settings(config)  # the one-line error naming the file (never a read of a special file)
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return _read_settings(config)
    key = (str(config.path), config.sha256, str(path), digest, _phases_digest())
    if key not in _READ:
        _READ.clear()  # one version kept: an edited file's old settings are never read again
        _READ[key] = _read_settings(config)
    return _READ[key]


def _phases_digest() -> str:
    """The sha256 of the phonics phases file, which the presets' phases are parsed by ("" when unreadable: the
    parse says why)."""
    from pipeline.words.phases import PHASES_FILE

    try:
        return hashlib.sha256(PHASES_FILE.read_bytes()).hexdigest()
    except OSError:
        return ""


def _read_settings(config: Config) -> Settings:
    """The settings file, read and checked."""
    top = settings_file(config)
    path = top.file
    own = read(top, FILE_SETTINGS)
    classroom = classroom_of(top)
    presets = MappingProxyType({name: _preset(sec) for name, sec in top.sections("presets").items()})
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
        common_zipf=own["common_zipf"],
        min_find_rate=own["min_find_rate"],
        boggle_dice=own["boggle_dice"],
        paper=own["paper"],
        presets=presets,
        classroom=classroom,
        puzzle_strings=tuple(w.upper() for w in word_field(puzzles, "strings")),
        fill=tuple((letter, fill.number(letter, lo=0, hi=1000)) for letter in fill.keys()),
        gallery=gallery,
    )


def _preset(sec: Section) -> Choices:
    """One preset's choices, each parsed by its field as the command line's are; a one-line error naming the
    preset's field."""
    sec.allow(*BY_NAME)
    out: dict[str, Any] = {}
    for key in sec.keys():
        kind = BY_NAME[key].kind
        value = {str: sec.text, bool: sec.flag, int: sec.integer, float: sec.number}[kind](key)
        try:
            out.update(Choices.of({key: value}))
        except WordstatsError as exc:
            sec.fail(key, str(exc))
    return Choices(out)


_BANNED: dict[tuple, Banned] = {}


def puzzle_banned(settings: Settings) -> Banned:
    """What no word search grid or scramble may spell (3 letters or more): every unsafe word, the root strings
    of the block list, and the offensive strings of [puzzles] strings."""
    key: tuple = (settings.path, settings.classroom, settings.puzzle_strings)
    if key not in _BANNED:
        classroom = settings.classroom
        strings = unsafe_words(classroom) | set(settings.puzzle_strings) | set(exclusions(classroom).roots)
        _BANNED[key] = Banned.of(strings)
    return _BANNED[key]
