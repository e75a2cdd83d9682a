"""Racks as typed: letters and ? for blanks, checked and in capitals, and a rack's 27 counts as a list (no numpy,
so that look-ups start fast; the counts as arrays, and bag arithmetic, are pipeline.letters.tiles')."""

from __future__ import annotations

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK, LETTERS, upper_ascii

MAX_RACK = 20
MAX_BLANKS = 4
RACK_SLOT = {ch: k for k, ch in enumerate(LETTERS + BLANK)}  # a rack tile's index in its counts


def rack_slots(text: str) -> list[int]:
    """The 27 counts of a rack written in capitals and ?: A–Z, then blanks (counted one tile at a time: cheaper
    than array passes for the few tiles of a rack)."""
    counts = [0] * len(RACK_SLOT)
    try:
        for ch in text:
            counts[RACK_SLOT[ch]] += 1
    except KeyError as exc:
        raise ValueError(f"a rack holds capitals A-Z and ? only, not {exc.args[0]!r}") from None
    return counts


def rack_text(rack: str, what: str = "rack", most: int = MAX_RACK, most_blanks: int = MAX_BLANKS) -> str:
    """A rack as typed (letters, `?` for a blank, any case) in capitals; a one-line error says what is wrong."""
    text = upper_ascii(rack.strip())
    if not text:
        raise WordstatsError(f"empty {what}: give letters A-Z and ? for blanks")
    for pos, ch in enumerate(text, 1):
        if ch not in LETTERS and ch != BLANK:
            raise WordstatsError(f"bad {what} {rack!r}: character {pos} ({ch!r}) is not a letter or ? (blank)")
    if len(text) > most:
        raise WordstatsError(f"bad {what} {rack!r}: {len(text)} tiles, at most {most}")
    n_blanks = text.count(BLANK)
    if n_blanks > most_blanks:
        raise WordstatsError(f"bad {what} {rack!r}: {n_blanks} blanks, at most {most_blanks}")
    return text
