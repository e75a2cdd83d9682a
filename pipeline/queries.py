"""Racks and hands, and the anagram / words / hunt / pattern lookups over the tables."""

from __future__ import annotations

import re

from pipeline.errors import WordstatsError

_PATTERN_TOKEN = re.compile(r"\[\^?[A-Z]+\]|[A-Z]|\?|\*")


def pattern_regex(pattern: str) -> str:
    """A word pattern as an anchored regex: `?` one letter, `*` any run, `[ABC]` a class, `[^ABC]` not in it."""
    text = pattern.strip().upper()
    if not text:
        raise WordstatsError("empty pattern (use ? for one letter, * for any run, [ABC] for a class)")
    parts, pos = [], 0
    for match in _PATTERN_TOKEN.finditer(text):
        if match.start() != pos:
            break
        token = match.group()
        parts.append("[A-Z]" if token == "?" else "[A-Z]*" if token == "*" else token)
        pos = match.end()
    if pos != len(text):
        raise WordstatsError(
            f"bad pattern {pattern!r} at character {pos + 1} ({text[pos]!r}): use letters, ?, *, [ABC] or [^ABC]"
        )
    return "^" + "".join(parts) + "$"
