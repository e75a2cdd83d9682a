"""Boggle rules, dice and boards: parsing sizes, cubes and board files."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.errors import FieldError, WordstatsError
from pipeline.letters.alphabet import A_CODE, code

if TYPE_CHECKING:
    import numpy as np

MAX_CELLS = 64  # a board's used-cube set is one 64-bit mask
SIZE_RE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


@dataclass(frozen=True)
class Rules:
    """How words count: the shortest word allowed and the points by word length in letters."""

    name: str
    min_length: int
    points: tuple[int, ...]  # points[n] for a word of n letters; longer words score the last entry

    def word_points(self, length: int) -> int:
        """Points for a word of `length` letters (0 when too short)."""
        if length < self.min_length:
            return 0
        return self.points[min(length, len(self.points) - 1)]

    def with_min_length(self, min_length: int | None) -> Rules:
        """The same rules with another shortest word."""
        if min_length is None or min_length == self.min_length:
            return self
        if min_length < 1:
            raise FieldError("{min_length} must be at least 1, got {got}", got=min_length)
        return Rules(self.name, min_length, self.points)


@dataclass(frozen=True)
class Dice:
    """A set of dice for one grid size, each die its faces (Q = the Qu face), and the rules it is played by."""

    name: str
    rows: int
    cols: int
    variant: str
    faces: tuple[str, ...]

    @property
    def size(self) -> str:
        """The grid size as RxC."""
        return f"{self.rows}x{self.cols}"

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The faces as letter codes (dice × longest die, padded) and each die's number of faces."""
        import numpy as np

        width = max(len(f) for f in self.faces)
        codes = np.zeros((len(self.faces), width), dtype=np.int8)
        for i, die in enumerate(self.faces):
            codes[i, : len(die)] = [code(ch) for ch in die]
        return codes, np.array([len(f) for f in self.faces], dtype=np.int32)


@dataclass(frozen=True)
class Board:
    """A grid of cubes: `letters` holds one letter per cell in row order, Q for the Qu cube."""

    rows: int
    cols: int
    letters: str

    @property
    def codes(self) -> np.ndarray:
        """The cells as letter codes (A = 0), int8."""
        import numpy as np

        return np.frombuffer(self.letters.encode("ascii"), dtype=np.uint8).astype(np.int8) - np.int8(A_CODE)

    @property
    def cells(self) -> memoryview:
        """The cells as letter codes (A = 0), a buffer of int8 (what solving one board takes, without numpy)."""
        return memoryview(bytes(code(ch) for ch in self.letters)).cast("b")

    @property
    def size(self) -> str:
        """The grid size as RxC."""
        return f"{self.rows}x{self.cols}"

    def cube(self, cell: int) -> str:
        """What cube `cell` shows: a letter, or Qu."""
        ch = self.letters[cell]
        return "Qu" if ch == "Q" else ch

    def grid(self) -> list[str]:
        """The board as lines of cubes, for people."""
        return [
            " ".join(f"{self.cube(r * self.cols + c):<2}" for c in range(self.cols)).rstrip() for r in range(self.rows)
        ]


def parse_size(text: str) -> tuple[int, int]:
    """A grid size written RxC (4x4, 5x5, 3x5) as (rows, cols)."""
    match = SIZE_RE.match(text or "")
    if not match:
        raise WordstatsError(f"bad board size {text!r}: write it as RxC, e.g. 4x4")
    return check_size(int(match.group(1)), int(match.group(2)), f"board size {text!r}")


def check_size(rows: int, cols: int, where: str) -> tuple[int, int]:
    """(rows, cols) if the grid has at least one cell and at most MAX_CELLS."""
    if rows < 1 or cols < 1:
        raise WordstatsError(f"{where}: a board needs at least one row and one column, got {rows}x{cols}")
    if rows * cols > MAX_CELLS:
        raise WordstatsError(f"{where}: {rows}x{cols} has {rows * cols} cells, at most {MAX_CELLS} are supported")
    return rows, cols


def split_cubes(text: str, where: str) -> list[str]:
    """The cubes spelled by a run of letters: one letter each, Q or Qu for the Qu cube."""
    cubes, i = [], 0
    while i < len(text):
        ch = text[i]
        if not ("A" <= ch.upper() <= "Z" and ch.isascii()):
            raise WordstatsError(f"{where}: {ch!r} at position {i + 1} is not a letter (cells are A-Z, Q or Qu)")
        i += 1
        if ch.upper() == "Q" and i < len(text) and text[i].upper() == "U":
            i += 1
        cubes.append(ch.upper())
    return cubes


def parse_board(text: str, size: str | tuple[int, int] | None = None, where: str | None = None) -> Board:
    """A board from its cells in row order (`PERSLATGSINETERS`; Q or Qu for the Qu cube; rows may be
        separated by spaces); the size is inferred for a square board or from the rows, else given (RxC, or as
    (rows, cols) parsed already)."""
    where = where or f"board {text!r}"
    rows_text = text.split()
    if not rows_text:
        raise WordstatsError(f"{where}: the board is empty")
    rows_cubes = [split_cubes(r, where) for r in rows_text]
    cubes = [c for row in rows_cubes for c in row]
    n = len(cubes)
    if size is not None:
        rows, cols = parse_size(size) if isinstance(size, str) else check_size(*size, where)
    elif len(rows_cubes) > 1:
        rows, cols = len(rows_cubes), len(rows_cubes[0])
        if any(len(r) != cols for r in rows_cubes):
            raise WordstatsError(
                f"{where}: rows have different numbers of cells ({', '.join(str(len(r)) for r in rows_cubes)})"
            )
    else:
        side = math.isqrt(n)
        if side * side != n:
            qu = " (QU is one cell, the Qu cube)" if "QU" in text.upper() else ""
            raise WordstatsError(f"{where}: {n} cells{qu} is not a square board; give its size with --size RxC")
        rows = cols = side
    check_size(rows, cols, where)
    if n != rows * cols:
        raise WordstatsError(f"{where}: {n} cells, a {rows}x{cols} board has {rows * cols}")
    return Board(rows, cols, "".join(cubes))


def parse_board_file(text: str, where: str) -> Board:
    """A board in the Princeton format: a line `rows cols`, then the cells separated by white space."""
    lines = text.splitlines()
    header = lines[0].split() if lines else []
    if len(header) != 2 or not all(h.isascii() and h.isdigit() for h in header):
        raise WordstatsError(f"{where}: the first line must be 'rows cols', got {(lines[0] if lines else '')!r}")
    rows, cols = check_size(int(header[0]), int(header[1]), where)
    tokens = " ".join(lines[1:]).split()
    if len(tokens) != rows * cols:
        raise WordstatsError(f"{where}: {len(tokens)} cells, a {rows}x{cols} board has {rows * cols}")
    cubes = []
    for i, token in enumerate(tokens):
        cell = split_cubes(token, f"{where}: cell {i + 1}")
        if len(cell) != 1:
            raise WordstatsError(f"{where}: cell {i + 1} is {token!r}; a cell is one letter, Q or Qu")
        cubes.extend(cell)
    return Board(rows, cols, "".join(cubes))


def read_board_file(path: Path) -> Board:
    """A board from a Princeton-format file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise WordstatsError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: not a text file") from None
    return parse_board_file(text, str(path))


def load_board(arg: str, size: str | tuple[int, int] | None = None) -> Board:
    """A board from a file name (Princeton format) or from its cells written out."""
    if not arg.strip():
        raise WordstatsError("empty board: give the cells in row order (PERSLATGSINETERS) or a board file")
    path = Path(arg)
    if path.is_file():
        return read_board_file(path)
    if path.is_dir():
        raise WordstatsError(f"{arg}: is a directory, not a board")
    if any(ch in arg for ch in "./\\"):
        raise WordstatsError(f"{arg}: no such board file (a board written out is letters only)")
    return parse_board(arg, size)


@functools.cache
def neighbours(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's 8-connected neighbours (cells × 8, -1 padded) and their counts, for one grid size."""
    from pipeline.boggle.engine import kernels

    return kernels().boggle_neighbours(rows, cols)
