"""Scrabble boards, racks and the tiles a play places: parsing, reading board files, leaves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK, LETTERS, code
from pipeline.letters.racks import rack_text
from pipeline.scrabble.rules.variant import EMPTY, SIZE, Variant

if TYPE_CHECKING:
    import numpy as np

SQUARES = SIZE * SIZE
EMPTY_CODE = 0xFF  # an empty square's byte: the letter code -1 as int8
EMPTY_CELLS = bytes([EMPTY_CODE]) * SQUARES


@dataclass(frozen=True)
class Tile:
    """A tile placed by a play: its square and letter (lower case for a blank)."""

    row: int
    col: int
    letter: str


class Board:
    """The tiles on the board, SIZE × SIZE squares row by row in two byte arrays: `cells` the letter codes (-1, byte
    0xFF, for an empty square) and `blank_cells` which tiles are blanks. The compiled move generator reads them as
    they are (`views`); `tiles` and `blanks` are numpy views of the same memory, for array code and the numba
    kernels."""

    __slots__ = ("cells", "blank_cells")

    def __init__(self, tiles: Any = None, blanks: Any = None):
        """An empty board, or one holding copies of the given int8 codes and bool flags (SIZE × SIZE each)."""
        self.cells = bytearray(EMPTY_CELLS if tiles is None else memoryview(tiles).cast("B"))
        self.blank_cells = bytearray(SQUARES if blanks is None else memoryview(blanks).cast("B"))
        if len(self.cells) != SQUARES or len(self.blank_cells) != SQUARES:
            raise ValueError(f"a board is {SIZE}x{SIZE} squares, not {len(self.cells)} and {len(self.blank_cells)}")

    def __eq__(self, other: object) -> bool:
        """The same tiles and blanks on the same squares."""
        if not isinstance(other, Board):
            return NotImplemented
        return self.cells == other.cells and self.blank_cells == other.blank_cells

    __hash__ = None  # type: ignore[assignment]  # a board changes as tiles are put on it

    def __repr__(self) -> str:
        """The expression that makes this board again: parse_board of its text."""
        return f"parse_board({self.text()!r})"

    @property
    def tiles(self) -> np.ndarray:
        """int8 (SIZE, SIZE): the letter codes, -1 empty (a writable numpy view of `cells`)."""
        import numpy as np

        return np.frombuffer(self.cells, dtype=np.int8).reshape(SIZE, SIZE)

    @property
    def blanks(self) -> np.ndarray:
        """bool (SIZE, SIZE): which tiles are blanks (a writable numpy view of `blank_cells`)."""
        import numpy as np

        return np.frombuffer(self.blank_cells, dtype=np.bool_).reshape(SIZE, SIZE)

    def views(self) -> tuple[memoryview[int], memoryview[bool]]:
        """The tiles (int8) and blanks (bool) as (SIZE, SIZE) buffers, as the compiled move generator takes them."""
        return (
            memoryview(self.cells).cast("b", (SIZE, SIZE)),
            memoryview(self.blank_cells).cast("?", (SIZE, SIZE)),
        )

    @property
    def is_empty(self) -> bool:
        """No tile yet: the next play is an opening."""
        return self.cells.count(EMPTY_CODE) == SQUARES

    def occupied(self, row: int, col: int) -> bool:
        """Whether the square holds a tile."""
        return self.cells[row * SIZE + col] != EMPTY_CODE

    def letter(self, row: int, col: int) -> str:
        """The tile on a square as written (lower case for a blank), or '' when empty."""
        tile = self.cells[row * SIZE + col]
        if tile == EMPTY_CODE:
            return ""
        return LETTERS[tile].lower() if self.blank_cells[row * SIZE + col] else LETTERS[tile]

    def copy(self) -> Board:
        """An independent copy."""
        return Board(self.cells, self.blank_cells)

    def set(self, row: int, col: int, code: int, blank: bool) -> None:
        """Put the tile of letter code `code` (a blank when `blank`) on a square (in place)."""
        self.cells[row * SIZE + col] = code
        self.blank_cells[row * SIZE + col] = blank

    def put(self, tiles: Iterable[Tile]) -> None:
        """Place tiles (in place)."""
        for t in tiles:
            self.set(t.row, t.col, LETTERS.index(t.letter.upper()), t.letter.islower())

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
            board.set(r, c, code(ch.upper()), ch.islower())
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
