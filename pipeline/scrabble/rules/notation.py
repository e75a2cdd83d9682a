"""Scrabble notation: squares and plays as players write them ("8H WORD" across, "H8 WORD" down, lower case a
blank, board tiles optionally in parentheses)."""

from __future__ import annotations

import re

from pipeline.core.errors import WordstatsError
from pipeline.scrabble.rules.board import Board, Tile
from pipeline.scrabble.rules.variant import ACROSS, COLUMNS, DOWN, SIZE


class IllegalPlay(WordstatsError):
    """A play the rules forbid; the message says why."""

    exit_code = 1


def position(row: int, col: int, direction: int) -> str:
    """A square in standard notation for a play in `direction`."""
    return f"{row + 1}{COLUMNS[col]}" if direction == ACROSS else f"{COLUMNS[col]}{row + 1}"


def step(direction: int) -> tuple[int, int]:
    """The (row, column) step of one square in `direction`."""
    return (0, 1) if direction == ACROSS else (1, 0)


_POSITION = re.compile(r"^(?:(\d{1,2})([A-Oa-o])|([A-Oa-o])(\d{1,2}))$")
_WORD = re.compile(r"^(?:[A-Za-z]|\([A-Za-z]+\))+$")


def parse_play(text: str, board: Board) -> tuple[list[Tile], int]:
    """The tiles and direction of a play in notation ("8H QU(I)Z", "H8 word"): letters on taken squares
    must match the board (parentheses optional), lower-case letters on empty squares are blanks."""
    parts = text.split()
    if len(parts) != 2:
        raise WordstatsError(f'play {text!r}: expected a position and a word, e.g. "8H WORD" or "H8 WORD"')
    where, word = parts
    match = _POSITION.match(where)
    if not match:
        raise WordstatsError(
            f"play {text!r}: bad position {where!r} (across: row then column, 8H; down: column then row, H8)"
        )
    if match.group(1):
        direction, row, col = ACROSS, int(match.group(1)) - 1, COLUMNS.index(match.group(2).upper())
    else:
        direction, row, col = DOWN, int(match.group(4)) - 1, COLUMNS.index(match.group(3).upper())
    if not 0 <= row < SIZE:
        raise WordstatsError(f"play {text!r}: row {row + 1} is off the board (rows 1-{SIZE})")
    if not _WORD.match(word):
        raise WordstatsError(
            f"play {text!r}: the word may hold only letters, with board tiles optionally in parentheses"
        )
    dr, dc = step(direction)
    tiles, bracketed, r, c = [], False, row, col
    if len(word) == 1 and row < SIZE and not board.occupied(row, col):  # one tile: either direction
        return [Tile(row, col, word)], direction
    if 0 <= r - dr and 0 <= c - dc and board.occupied(r - dr, c - dc):
        raise IllegalPlay(
            f"the word continues into the tile at {position(r - dr, c - dc, ACROSS)}; start the play there"
        )
    for ch in word:
        if ch in "()":
            bracketed = ch == "("
            continue
        if not (r < SIZE and c < SIZE):
            raise IllegalPlay("the word runs off the board")
        square = position(r, c, ACROSS)
        if board.occupied(r, c):
            if board.letter(r, c).upper() != ch.upper():
                raise IllegalPlay(f"square {square} holds {board.letter(r, c)}, not {ch}")
        elif bracketed:
            raise IllegalPlay(f"square {square} is empty, but {ch} is in parentheses (a board tile)")
        else:
            tiles.append(Tile(r, c, ch))
        r, c = r + dr, c + dc
    if r < SIZE and c < SIZE and board.occupied(r, c):
        raise IllegalPlay(f"the word continues into the tile at {position(r, c, ACROSS)}; include it")
    if not tiles:
        raise IllegalPlay(f"every square of {where} {word} already holds its tile: the play places none")
    return tiles, direction
