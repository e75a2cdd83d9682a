"""Hangman settings from the config, and the setter's word weights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.core.settings import read
from pipeline.hangman.manifest import SETTINGS

if TYPE_CHECKING:
    import numpy as np

FREQUENCY_ORDER = "ETAOINSHRDLCUMWFGYPBVKJXQZ"  # heuristic: E = 1, T = 2, ..., Z = 26
BANDS = ("easy", "medium", "hard")
SETTERS = ("uniform", "frequency", "children", "hard", "list")  # the setter models (pipeline/hangman/setters.py)
KERNEL_MAX_LENGTH = 63  # a position pattern is a bit mask in an int64; longer words use the plain solver


@dataclass(frozen=True)
class Settings:
    """The [hangman] section of the config (its settings and defaults: SETTINGS in the manifest)."""

    bands: str
    easy_max_misses: int
    hard_min_misses: int
    prior: str
    unknown_zipf: float
    gallows: int
    summary_hardest: int
    common_zipf: float
    optimal_states: int
    optimal_max_words: int


def defaults() -> Settings:
    """The settings of a config without a [hangman] section."""
    return Settings(**{s.name: s.default for s in SETTINGS})


def settings(config) -> Settings:
    """The validated [hangman] settings (defaults for absent fields)."""
    sec = config.section("hangman")
    s = Settings(**read(sec, SETTINGS))
    if s.hard_min_misses <= s.easy_max_misses:
        sec.fail("hard_min_misses", f"must be above easy_max_misses ({s.easy_max_misses}), got {s.hard_min_misses}")
    return s


def setter_weights(zipf: np.ndarray, prior: str = "wordfreq", unknown_zipf: float = 0.0) -> np.ndarray:
    """The setter's prior as integer weights: uses per trillion words, round(10^(zipf + 3)), or all 1."""
    import numpy as np  # here: the settings are read by listings that need no numpy

    zipf = np.asarray(zipf, dtype=np.float64)
    if prior == "uniform":
        return np.ones(zipf.shape[0], dtype=np.int64)
    known = np.where(zipf > 0, zipf, unknown_zipf)
    return np.rint(10.0 ** (known + 3)).astype(np.int64)
