"""Tile sets as a config declares them ([tiles.NAME]): how many of each letter and blanks are in the bag, and
what each scores. The bag arithmetic on them is pipeline.letters.tiles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK, LETTERS

if TYPE_CHECKING:
    from pipeline.core.sections import Section


@dataclass(frozen=True)
class TileSet:
    """A bag of tiles: how many of each letter (and blanks), and what each scores."""

    name: str
    counts: dict[str, int]
    values: dict[str, int]

    @property
    def size(self) -> int:
        """Tiles in the full bag, blanks included."""
        return sum(self.counts.values())


def read_tile_set(name: str, sec: Section) -> TileSet:
    """The tile set [tiles.NAME] as a config's section declares it: a count and a value for every letter (and
    the blank)."""
    sec.allow("counts", "values")
    counts_sec, values_sec = sec.section("counts"), sec.section("values")
    counts = {k: counts_sec.integer(k, lo=0) for k in counts_sec.keys()}
    values = {k: values_sec.integer(k, lo=0) for k in values_sec.keys()}
    for table, sub in ((counts, counts_sec), (values, values_sec)):
        for key in table:
            if key not in LETTERS and key != BLANK:
                sub.fail(key, "expected a letter A-Z or ? (blank)")
        for letter in LETTERS:
            if letter not in table:
                sub.fail(letter, "missing")
    return TileSet(name=name, counts=counts, values=values)


class Declared(Protocol):
    """What declares tile sets: a config's [tiles.NAME] tables, and the file it was read from."""

    @property
    def path(self) -> Path:
        """The config file."""

    @property
    def tiles(self) -> Mapping[str, TileSet]:
        """The tile sets by name."""


def tile_set(config: Declared, name: str, where: str = "tiles") -> TileSet:
    """The tile set `name` of the config ([tiles.NAME]), or an error naming the field that asked for it."""
    if name not in config.tiles:
        known = ", ".join(sorted(config.tiles)) or "none"
        raise WordstatsError(f"{config.path}: field {where}: no tile set {name!r} (known: {known})")
    return config.tiles[name]
