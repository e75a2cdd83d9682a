"""Letter codes: A = 0 ... Z = 25, the index every letter array and kernel uses."""

from __future__ import annotations

from pipeline.core.config import LETTERS

A_CODE = ord("A")  # the ASCII byte of letter code 0: code = byte - A_CODE
N_LETTERS = len(LETTERS)


def code(letter: str) -> int:
    """The code of an upper-case letter A–Z (A = 0)."""
    return ord(letter) - A_CODE
