"""The move generator's kernels as one-off commands call them: the ahead-of-time build of gaddag_kernels (made by
`make install` with `python -m pipeline.scrabble.aot`, loaded without importing numba) when it was built from the
current source, else gaddag_kernels itself (numba: compiled, or loaded from numba's cache, on first use).

Long jobs (self-play, leave values) call gaddag_kernels directly: numba's start-up cost is nothing to them."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from functools import cache
from pathlib import Path
from types import SimpleNamespace

# The kernels the ahead-of-time build exports, and the constants of gaddag_kernels that callers read.
EXPORTS = ("board_plays", "long_words", "gaddag_contains", "arc_tilesets")
CONSTANTS = (
    "N",
    "RECORD",
    "CHILD_BITS",
    "PLAY_SCORE",
    "PLAY_ROW",
    "PLAY_COL",
    "PLAY_DIR",
    "PLAY_LEN",
    "PLAY_BLANKS",
    "PLAY_PLACED",
    "PLAY_LETTERS",
)
HERE = Path(__file__).resolve().parent
SOURCES = ("gaddag_kernels.py", "aot.py", "engine.py")  # what the build is made from, in this folder
MODULE_NAME = "wordstats_gaddag_aot"


def build_path() -> Path:
    """Where `make install` puts the ahead-of-time build: inside the Python environment, beside its packages."""
    return Path(sys.prefix) / "wordstats" / f"{MODULE_NAME}.so"


def record_path(path: Path) -> Path:
    """The build's record beside it: the source key it was built from and the sha256 of the module's bytes."""
    return path.with_suffix(".json")


def source_key() -> int:
    """A 63-bit digest of the sources the build is made from: a build whose key differs is stale."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((HERE / name).read_bytes())
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def load_build(path: Path, key: int | None = None):
    """The ahead-of-time module at `path` if it exists, is whole (its bytes match its record) and was built from
    sources of digest `key` (by default the current sources'), else None."""
    try:
        record = json.loads(record_path(path).read_text())
        data = path.read_bytes()
    except (OSError, ValueError):
        return None
    want = source_key() if key is None else key
    if not isinstance(record, dict) or record.get("source_key") != want:
        return None
    if record.get("sha256") != hashlib.sha256(data).hexdigest():
        return None
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:
        return None
    if int(module.source_key()) != want:
        return None
    values = module.constants()
    return SimpleNamespace(
        compiled="ahead of time",
        **{name: getattr(module, name) for name in EXPORTS},
        **{name: int(v) for name, v in zip(CONSTANTS, values, strict=True)},
    )


@cache
def kernels():
    """The move generator's kernels and constants: the ahead-of-time build when current, else gaddag_kernels."""
    built = load_build(build_path())
    if built is not None:
        return built
    from pipeline.scrabble import gaddag_kernels

    return gaddag_kernels
