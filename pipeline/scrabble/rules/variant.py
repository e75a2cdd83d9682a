"""Scrabble variants (Scrabble, Words With Friends): tile sets, premium layouts, rack size."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from pipeline.core.config import Config
from pipeline.core.errors import pick
from pipeline.core.sections import Section
from pipeline.core.settings import read
from pipeline.letters.tilesets import TileSet
from pipeline.letters.tilesets import tile_set as tl_tile_set
from pipeline.scrabble.manifest import SETTINGS

if TYPE_CHECKING:
    import numpy as np

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
ACROSS, DOWN = 0, 1
EMPTY = "."
MAX_SCORELESS = 6  # a game ends after this many scoreless turns in a row (each player loses their rack value)
KEEP_MAX = 10_000  # best_plays: up to this many plays the generator keeps only the best
PREMIUMS = {".": (1, 1), "*": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3)}  # (letter, word)


@dataclass(frozen=True)
class Variant:
    """A game: its tile set (counts and values), the premium layout, rack size and bingo bonus."""

    name: str
    tile_set: TileSet
    layout: tuple[str, ...]  # SIZE strings over PREMIUMS' keys
    rack_size: int
    bingo_bonus: int
    centre_doubles_word: bool

    @cached_property
    def centre(self) -> tuple[int, int]:
        """The start square."""
        return next((r, c) for r, line in enumerate(self.layout) for c, ch in enumerate(line) if ch == "*")

    @cached_property
    def letter_values(self) -> np.ndarray:
        """int32 (26,): the value of each letter tile."""
        import numpy as np

        from pipeline.letters.tiles import letter_values

        return letter_values(self.tile_set).astype(np.int32)

    @cached_property
    def premiums(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The (letter, word) multipliers of each square, row by row (the centre's word multiplier per
        centre_doubles_word)."""
        centre = 2 if self.centre_doubles_word else 1
        return tuple(
            tuple((PREMIUMS[ch][0], centre) if ch == "*" else PREMIUMS[ch] for ch in line) for line in self.layout
        )

    @cached_property
    def letter_mult(self) -> np.ndarray:
        """int32 (SIZE, SIZE): the letter multiplier of each square (premiums as an array)."""
        import numpy as np

        return np.array([[lm for lm, _ in line] for line in self.premiums], dtype=np.int32)

    @cached_property
    def word_mult(self) -> np.ndarray:
        """int32 (SIZE, SIZE): the word multiplier of each square (premiums as an array)."""
        import numpy as np

        return np.array([[wm for _, wm in line] for line in self.premiums], dtype=np.int32)

    def value(self, letter: str) -> int:
        """The value of a tile as written: 0 for a blank (lower case), else the letter's value."""
        return 0 if letter.islower() else self.tile_set.values[letter]


def variant_params(v: Variant) -> dict:
    """A variant's rules as the parameters of a stage or job (what their outputs depend on)."""
    return {
        "name": v.name,
        "layout": list(v.layout),
        "rack_size": v.rack_size,
        "bingo_bonus": v.bingo_bonus,
        "centre_doubles_word": v.centre_doubles_word,
        "values": v.tile_set.values,
        "counts": v.tile_set.counts,
    }


def variants(config: Config) -> dict[str, Variant]:
    """Every variant declared under [scrabble.variants], validated."""
    sec = config.section("scrabble")
    read(sec, SETTINGS)
    found = {name: _variant(name, v, config) for name, v in sec.sections("variants").items()}
    if not found:
        sec.fail("variants", "declare at least one variant, e.g. [scrabble.variants.scrabble]")
    return found


def variant(config: Config, name: str) -> Variant:
    """The variant `name`, or an error naming the known ones."""
    known = variants(config)
    return known[pick(name, known, "variant")]


def declared_variant(config: Config, name: str) -> Variant:
    """The variant `name` alone (only its own tile set is read), or an error naming the declared ones."""
    sec = config.section("scrabble")
    declared = sec.sections("variants")
    if name not in declared:
        sec.fail("variants", f"unknown variant {name!r} (declared: {', '.join(declared)})")
    return _variant(name, declared[name], config)


def _variant(name: str, sec: Section, config: Config) -> Variant:
    """The variant [scrabble.variants.NAME], validated (its tile set defaults to [tiles.NAME])."""
    sec.allow("tiles", "rack_size", "bingo_bonus", "centre_doubles_word", "layout")
    tile_set = tl_tile_set(config, sec.text("tiles", name), f"{sec.where}.tiles")
    layout = tuple(sec.sequence("layout"))
    if len(layout) != SIZE:
        sec.fail("layout", f"expected {SIZE} rows, got {len(layout)}")
    for i, line in enumerate(layout, 1):
        if len(line) != SIZE:
            sec.fail("layout", f"row {i} has {len(line)} squares, expected {SIZE}")
        bad = next((ch for ch in line if ch not in PREMIUMS), None)
        if bad is not None:
            sec.fail("layout", f"row {i}: {bad!r} is not one of {''.join(PREMIUMS)}")
    if "".join(layout).count("*") != 1:
        sec.fail("layout", "mark exactly one centre square with *")
    return Variant(
        name=name,
        tile_set=tile_set,
        layout=layout,
        rack_size=sec.integer("rack_size", 7, lo=1, hi=SIZE),
        bingo_bonus=sec.integer("bingo_bonus", lo=0),
        centre_doubles_word=sec.flag("centre_doubles_word"),
    )
