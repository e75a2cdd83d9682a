"""The alphabet: the letters A-Z, the blank, letter codes (A = 0 ... Z = 25, the index every letter array and
kernel uses), and text in capitals."""

from __future__ import annotations

from pipeline.core.errors import WordstatsError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANK = "?"  # a blank tile, as racks and tile sets write it
VOWEL_LETTERS = "aeiou"  # as the phonics rules and phases write letters: lower case
A_CODE = ord("A")  # the ASCII byte of letter code 0: code = byte - A_CODE
_UPPER_ASCII = str.maketrans(LETTERS.lower(), LETTERS)


def code(letter: str) -> int:
    """The code of an upper-case letter A–Z (A = 0)."""
    return ord(letter) - A_CODE


def upper_ascii(text: str) -> str:
    """Text as typed with a-z in capitals and every other character kept (str.upper makes ß SS and ı I)."""
    return text.translate(_UPPER_ASCII)


def parse_letters(text: str, what: str) -> str:
    """Letters as typed (any case) as upper-case A–Z; a one-line error names a bad character."""
    letters = upper_ascii(text.strip())
    if not letters:
        raise WordstatsError(f"empty {what}: give letters A-Z")
    for pos, ch in enumerate(letters, 1):
        if ch not in LETTERS:
            raise WordstatsError(f"bad {what} {text!r}: character {pos} ({ch!r}) is not one of the letters A-Z")
    return letters
