"""Scrabble boards, racks and the tiles a play places: parsing, reading board files, leaves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK, LETTERS, code
from pipeline.letters.racks import rack_text
from pipeline.scrabble.rules.variant import EMPTY, SIZE, Variant


@dataclass(frozen=True)
class Tile:
    """A tile placed by a play: its square and letter (lower case for a blank)."""

    row: int
    col: int
    letter: str


@dataclass
class Board:
    """The tiles on the board: letter codes (-1 empty) and which of them are blanks."""

    tiles: np.ndarray = field(default_factory=lambda: np.full((SIZE, SIZE), -1, dtype=np.int8))
    blanks: np.ndarray = field(default_factory=lambda: np.zeros((SIZE, SIZE), dtype=np.bool_))

    @property
    def is_empty(self) -> bool:
        """No tile yet: the next play is an opening."""
        return not (self.tiles >= 0).any()

    def occupied(self, row: int, col: int) -> bool:
        """Whether the square holds a tile."""
        return bool(self.tiles[row, col] >= 0)

    def letter(self, row: int, col: int) -> str:
        """The tile on a square as written (lower case for a blank), or '' when empty."""
        tile = int(self.tiles[row, col])
        if tile < 0:
            return ""
        return LETTERS[tile].lower() if self.blanks[row, col] else LETTERS[tile]

    def copy(self) -> Board:
        """An independent copy."""
        return Board(self.tiles.copy(), self.blanks.copy())

    def put(self, tiles: Iterable[Tile]) -> None:
        """Place tiles (in place)."""
        for t in tiles:
            self.tiles[t.row, t.col] = LETTERS.index(t.letter.upper())
            self.blanks[t.row, t.col] = t.letter.islower()

    def text(self) -> str:
        """The board file text: SIZE lines of SIZE characters."""
        return "".join("".join(self.letter(r, c) or EMPTY for c in range(SIZE)) + "\n" for r in range(SIZE))


def parse_board(text: str, where: str = "board") -> Board:
    """A board from its file text; an empty text is an empty board. Errors name line and column."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    board = Board()
    if not lines:
        return board
    if len(lines) > SIZE:
        raise WordstatsError(
            f"{where}: line {SIZE + 1}: more than {SIZE} lines (a board is {SIZE} lines of {SIZE} characters)"
        )
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if c >= SIZE:
                raise WordstatsError(f"{where}: line {r + 1}, column {c + 1}: line is longer than {SIZE} characters")
            if ch == EMPTY:
                continue
            if not ("A" <= ch <= "Z" or "a" <= ch <= "z"):
                raise WordstatsError(
                    f"{where}: line {r + 1}, column {c + 1}: {ch!r} is not a square "
                    f"(use . for empty, A-Z for tiles, a-z for blanks)"
                )
            board.tiles[r, c] = code(ch.upper())
            board.blanks[r, c] = ch.islower()
        if len(line) < SIZE:
            raise WordstatsError(
                f"{where}: line {r + 1}, column {len(line) + 1}: line has {len(line)} characters, expected {SIZE}"
            )
    if len(lines) < SIZE:
        raise WordstatsError(f"{where}: line {len(lines) + 1}: board ends after {len(lines)} lines, expected {SIZE}")
    return board


def read_board(path: Path | str | None) -> Board:
    """The board in a file (None: an empty board)."""
    if path is None:
        return Board()
    path = Path(path)
    if not path.is_file():
        raise WordstatsError(f"{path}: board file not found" if not path.exists() else f"{path}: not a file")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: board file is not UTF-8 text") from None
    return parse_board(text, str(path))


def parse_rack(text: str, rack_size: int = 7, most_blanks: int | None = None) -> str:
    """A rack as typed (any case), in capitals: 1 to rack_size tiles, letters and ? for blanks (at most
    `most_blanks` of them, default any)."""
    return rack_text(text, most=rack_size, most_blanks=rack_size if most_blanks is None else most_blanks)


def rack_value(rack: str, variant: Variant) -> int:
    """The face value of the tiles on a rack (blanks 0): what they count at the end of a game."""
    return sum(variant.tile_set.values.get(ch, 0) for ch in rack)


def leave(rack: str, tiles: Iterable[Tile]) -> str:
    """The rack after playing `tiles`: letters sorted, blanks last."""
    left = Counter(rack)
    for t in tiles:
        left[BLANK if t.letter.islower() else t.letter] -= 1
    return "".join(sorted(left.elements(), key=lambda ch: (ch == BLANK, ch)))
