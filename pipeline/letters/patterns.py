"""Word patterns as the pattern query and word lists take them: `?` one letter, `*` any run, `[ABC]` a class,
`[^ABC]` a letter not in it."""

from __future__ import annotations

import re

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import upper_ascii

_PATTERN_TOKEN = re.compile(r"\[\^?[A-Z]+\]|[A-Z]|\?|\*")
_WILDCARDS = {"?": "[A-Z]", "*": "[A-Z]*"}  # the pattern tokens that are not already regex


def pattern_tokens(pattern: str) -> list[str]:
    """A word pattern's tokens: letters, `?` (one letter), `*` (any run), `[ABC]` and `[^ABC]` (classes)."""
    text = upper_ascii(pattern.strip())
    if not text:
        raise WordstatsError("empty pattern (use ? for one letter, * for any run, [ABC] for a class)")
    tokens, pos = [], 0
    for match in _PATTERN_TOKEN.finditer(text):
        if match.start() != pos:
            break
        tokens.append(match.group())
        pos = match.end()
    if pos != len(text):
        raise WordstatsError(
            f"bad pattern {pattern!r} at character {pos + 1} ({text[pos]!r}): use letters, ?, *, [ABC] or [^ABC]"
        )
    return tokens


def pattern_regex(pattern: str) -> str:
    """A word pattern as an anchored regex: `?` one letter, `*` any run, `[ABC]` a class, `[^ABC]` not in it."""
    return "^" + "".join(_WILDCARDS.get(token, token) for token in pattern_tokens(pattern)) + "$"
