"""Word-list settings: presets and the block list, from configs/wordlists.toml."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.core.config import PROJECT_ROOT, Config, Section, parse_toml
from pipeline.core.errors import WordstatsError
from pipeline.wordlists.options import (
    FIELDS,
    PAPERS,
    check_option,
)

SETTINGS_FILE = PROJECT_ROOT / "configs" / "wordlists.toml"


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


def load_settings(config: Config) -> Settings:
    """The settings file named by the config's [wordlists] file (default: configs/wordlists.toml)."""
    sec = config.section("wordlists")
    sec.allow("file")
    path = config.path.parent / sec.str("file") if sec.has("file") else SETTINGS_FILE
    if not path.is_file():
        raise WordstatsError(f"{path}: word-list settings file not found (field wordlists.file of {config.path})")
    top = Section(parse_toml(path.read_bytes(), path, "word-list settings file"), "", path)
    top.allow("common_zipf", "min_find_rate", "boggle_dice", "paper", "presets", "blocklist")
    block = top.section("blocklist")
    block.allow("file", "sha256", "allow", "add")
    presets = {name: _preset(sec) for name, sec in top.sections("presets").items()}
    return Settings(
        path=path,
        common_zipf=top.float("common_zipf", 3.0, lo=0, hi=8),
        min_find_rate=top.float("min_find_rate", 0.01, lo=0, hi=1),
        boggle_dice=top.str("boggle_dice", "new"),
        paper=top.str("paper", "A4", choices=PAPERS),
        presets=presets,
        blocklist=path.parent / block.str("file"),
        blocklist_sha256=block.str("sha256", None, pattern=r"[0-9a-f]{64}"),
        allow=tuple(w.upper() for w in block.list("allow", [])),
        add=tuple(w.upper() for w in block.list("add", [])),
    )


def _preset(sec: Section) -> dict[str, Any]:
    """One preset's fields, type-checked and each value validated as the command line would."""
    sec.allow(*FIELDS)
    out: dict[str, Any] = {}
    for key in sec.keys():
        kind = FIELDS[key]
        value = {str: sec.str, bool: sec.bool, int: sec.int, float: sec.float}[kind](key)
        try:
            check_option(key, value)
        except WordstatsError as exc:
            sec.fail(key, str(exc))
        out[key] = value
    return out


def blocked_words(settings: Settings) -> frozenset[str]:
    """The upper-case words the block list keeps out: its entries, our additions, and their plurals."""
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
        entry = re.sub(r"[\s\-]", "", line).upper()  # phrases joined: "god damn" → GODDAMN
        if entry and entry.isascii() and entry.isalpha():
            listed.add(entry)
    for word in settings.allow:
        if word not in listed:
            raise WordstatsError(f"{settings.path}: field blocklist.allow: {word.lower()!r} is not on the block list")
    base = (listed - set(settings.allow)) | set(settings.add)
    return frozenset(base | {plural(w) for w in base})


def plural(word: str) -> str:
    """The regular English plural: +ES after S, X, Z, CH, SH, else +S."""
    return word + ("ES" if word.endswith(("S", "X", "Z", "CH", "SH")) else "S")
