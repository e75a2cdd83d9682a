"""The anagram indexes' settings read from the config: the tile set that scores their words (no numpy, so that
look-ups start fast)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.anagrams.manifest import SETTINGS
from pipeline.core.settings import read
from pipeline.letters.tilesets import TileSet, tile_set

if TYPE_CHECKING:
    from pipeline.core.config import Config


def index_tiles(config: Config) -> tuple[str, TileSet]:
    """The tile set named by [indexes] tiles (default "scrabble")."""
    name = read(config.section("indexes"), SETTINGS)["tiles"]
    return name, tile_set(config, name, "indexes.tiles")
