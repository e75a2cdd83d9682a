"""Board classes of a proof: letter partitions (per kind of cell), class ids, symmetry, the split order.

A *partition* splits the letters into groups, optionally with other groups for corners, edges or the
centre (hybrid-boggle's syntax: "AEIJOU BCDFGMPQVWXZ HKLNRSTY, corner: AEIOSUY BCDFGHJKLMNPQRTVWXZ"). A
*top-level class* gives each cell one group of its kind. It is named by hybrid-boggle's class id: the cells'
group indices as a mixed-radix number, cell 0 (row order) least significant. Only the canonical classes, whose
id is the least among their symmetric images, are proven; every board lies in one of them up to symmetry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.boggle.rules import neighbours
from pipeline.core.errors import FieldError, WordstatsError
from pipeline.letters.alphabet import A_CODE

KINDS = ("corner", "edge", "center")
MAX_TOP_CLASSES = 100_000_000  # top-level classes (before symmetry) a partition may make
CHUNK = 1 << 20  # class ids examined at a time when listing the canonical ones

# Default partitions per grid size: a few large groups keep the top-level classes few, while the tree's
# forcing separates the letters of big groups; hybrid-boggle's corner groups for the larger grids.
DEFAULT_PARTITIONS = {
    (2, 2): "AEIOU BCDFGHJKLMNPQRSTVWXYZ",
    (2, 3): "AEIOU BCDFGHJKLMNPQRSTVWXYZ",
    (3, 3): "AEIOUY BCDFGHJKLMNPQRSTVWXZ",
}
FALLBACK_PARTITION = "AEIJOU BCDFGMPQVWXZ HKLNRSTY, corner: AEIOSUY BCDFGHJKLMNPQRTVWXZ"


@dataclass(frozen=True)
class Partition:
    """Groups of letters (Q = the Qu cube) per kind of cell: a cell of a top-level class holds one group of
    its kind. `kinds` gives the groups of corner, edge and centre cells, in that order."""

    kinds: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups of centre cells (of every cell when the partition names no kind)."""
        return self.kinds[2]

    @property
    def text(self) -> str:
        """The partition as written on the command line."""
        plain = " ".join(self.groups)
        others = [f"{kind}: {' '.join(g)}" for kind, g in zip(KINDS, self.kinds) if g != self.groups]
        return ", ".join([plain, *others])

    @property
    def alphabet(self) -> str:
        """Every letter of the partition, in alphabetical order."""
        return "".join(sorted("".join(self.groups)))

    @property
    def width(self) -> int:
        """The size of the largest group."""
        return max(len(g) for groups in self.kinds for g in groups)

    def cell_groups(self, rows: int, cols: int) -> list[tuple[str, ...]]:
        """Each cell's groups, in row order."""
        return [self.kinds[KINDS.index(cell_kind(cell, rows, cols))] for cell in range(rows * cols)]


def cell_kind(cell: int, rows: int, cols: int) -> str:
    """Whether a cell is a corner, on an edge, or in the centre."""
    r, c = divmod(cell, cols)
    on_row, on_col = r in (0, rows - 1), c in (0, cols - 1)
    return "corner" if on_row and on_col else "edge" if on_row or on_col else "center"


def _groups(text: str) -> tuple[str, ...]:
    """Groups of letters separated by spaces (or commas), each letter once, letters sorted within a group."""
    groups = [g for g in text.replace(",", " ").upper().split() if g]
    if not groups:
        raise WordstatsError(
            "--classes: give groups of letters separated by spaces, e.g. 'AEIOU BCDFGHJKLMNPQRSTVWXYZ'"
        )
    seen: set[str] = set()
    for g in groups:
        for ch in g:
            if not ("A" <= ch <= "Z"):
                raise FieldError("{classes}: {ch!r} in group {g!r} is not a letter A-Z (Q stands for Qu)", ch=ch, g=g)
            if ch in seen:
                raise FieldError("{classes}: letter {ch} is in more than one group", ch=ch)
            seen.add(ch)
    return tuple("".join(sorted(g)) for g in groups)


def parse_partition(text: str) -> Partition:
    """A partition: groups separated by spaces ("AEIOU BCDFG..."), or clauses separated by commas of which one
    may be plain groups and the others name a kind of cell ("AEIOU BCD..., corner: AEIOSUY BCD..."). Letters
    left out are never placed, so the proof covers boards of the others only; every kind covers the same."""
    if ":" not in text:
        plain = _groups(text)
        return Partition((plain, plain, plain))
    named: dict[str, tuple[str, ...]] = {}
    plain_groups: tuple[str, ...] | None = None
    for clause in (c.strip() for c in text.split(",")):
        if not clause:
            continue
        if ":" in clause:
            kind, _, rest = (part.strip() for part in clause.partition(":"))
            kind = {"centre": "center"}.get(kind.lower(), kind.lower())
            if kind not in KINDS:
                raise FieldError("{classes}: {kind!r} is not a kind of cell (corner, edge or center)", kind=kind)
            named[kind] = _groups(rest)
        else:
            plain_groups = _groups(clause)
    if plain_groups is None and len(named) < len(KINDS):
        raise FieldError("{classes}: give the groups of every kind of cell, or plain groups for the others")
    kinds = tuple(named.get(kind, plain_groups or ()) for kind in KINDS)
    alphabets = {"".join(sorted("".join(g))) for g in kinds}
    if len(alphabets) > 1:
        raise FieldError("{classes}: every kind of cell must cover the same letters")
    return Partition((kinds[0], kinds[1], kinds[2]))


def default_partition(rows: int, cols: int) -> Partition:
    """The documented default partition of a grid size."""
    key = (min(rows, cols), max(rows, cols))
    return parse_partition(DEFAULT_PARTITIONS.get(key, FALLBACK_PARTITION))


def split_order(rows: int, cols: int) -> np.ndarray:
    """The order cells are split in: most neighbours first, then nearest the centre, then row order."""
    _, ncount = neighbours(rows, cols)
    centre_r, centre_c = (rows - 1) / 2, (cols - 1) / 2
    cells = range(rows * cols)
    key = [(-int(ncount[c]), (c // cols - centre_r) ** 2 + (c % cols - centre_c) ** 2, c) for c in cells]
    return np.array([k[2] for k in sorted(key)], dtype=np.int32)


def symmetries(rows: int, cols: int) -> list[np.ndarray]:
    """The symmetries of the grid as cell permutations: image[i] = the cell whose letter lands on cell i.
    Four for a rectangle (identity, flips, half turn), eight for a square (and the transposes)."""
    grid = np.arange(rows * cols).reshape(rows, cols)
    images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
    if rows == cols:
        images += [grid.T, grid.T[::-1], grid.T[:, ::-1], grid.T[::-1, ::-1]]
    return [np.ascontiguousarray(g.ravel()) for g in images]


def canonical_board(letters: str, rows: int, cols: int) -> str:
    """A board's canonical form: the least, in row order, of the letter strings of its symmetric images."""
    return min("".join(letters[i] for i in image) for image in symmetries(rows, cols))


@dataclass(frozen=True)
class ClassSpace:
    """The top-level classes of a partition on a grid: each cell's groups, and the ids' mixed radix."""

    rows: int
    cols: int
    partition: Partition

    @property
    def cell_groups(self) -> list[tuple[str, ...]]:
        """Each cell's groups, in row order."""
        return self.partition.cell_groups(self.rows, self.cols)

    @property
    def radix(self) -> np.ndarray:
        """Each cell's number of groups."""
        return np.array([len(g) for g in self.cell_groups], dtype=np.int64)

    @property
    def total(self) -> int:
        """Top-level classes before symmetry."""
        return int(np.prod(self.radix, dtype=object))

    def digits(self, ids: np.ndarray) -> np.ndarray:
        """Each class's group index per cell (one row per id)."""
        out = np.empty((ids.shape[0], self.rows * self.cols), dtype=np.int8)
        rest = ids.astype(np.int64).copy()
        for cell, n in enumerate(self.radix.tolist()):
            out[:, cell] = rest % n
            rest //= n
        return out

    def ids(self, digits: np.ndarray) -> np.ndarray:
        """The class id of each row of group indices."""
        weights = np.cumprod(np.concatenate([[1], self.radix[:-1]])).astype(np.int64)
        return digits.astype(np.int64) @ weights

    def canonical(self, ids: np.ndarray) -> np.ndarray:
        """The least id among each class's symmetric images."""
        digits = self.digits(ids)
        return np.min([self.ids(digits[:, image]) for image in symmetries(self.rows, self.cols)], axis=0)

    def canonical_ids(self) -> np.ndarray:
        """Every canonical class id, increasing."""
        if self.total > MAX_TOP_CLASSES:
            raise WordstatsError(
                f"the partition makes {self.total:,} top-level classes of {self.rows}x{self.cols}; at most "
                f"{MAX_TOP_CLASSES:,} are supported (use fewer groups in --classes)"
            )
        kept = []
        for start in range(0, self.total, CHUNK):
            ids = np.arange(start, min(start + CHUNK, self.total), dtype=np.int64)
            kept.append(ids[self.canonical(ids) == ids])
        return np.concatenate(kept)

    def letters(self, class_id: int) -> list[str]:
        """Each cell's letters in a class."""
        digits = self.digits(np.array([class_id]))[0]
        return [groups[d] for groups, d in zip(self.cell_groups, digits.tolist())]

    def class_of(self, board: str) -> int:
        """The id of the class holding a board (cells in row order)."""
        digits = []
        for cell, (ch, groups) in enumerate(zip(board, self.cell_groups)):
            found = [i for i, g in enumerate(groups) if ch in g]
            if not found:
                raise FieldError(
                    "{one_class} {board}: letter {ch} of cell {cell} is in no group of the partition",
                    board=board,
                    ch=ch,
                    cell=cell,
                )
            digits.append(found[0])
        return int(self.ids(np.array([digits]))[0])

    def name(self, class_id: int) -> str:
        """A class as its cells' letter groups, for people."""
        return " ".join(self.letters(class_id))


def group_codes(groups: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Cells' letter sets as letter codes (cells × largest set, padded) and their sizes."""
    width = max(len(g) for g in groups)
    codes = np.zeros((len(groups), width), dtype=np.int8)
    for i, g in enumerate(groups):
        codes[i, : len(g)] = [ord(ch) - A_CODE for ch in g]
    return codes, np.array([len(g) for g in groups], dtype=np.int32)
