"""Hangman settings from the config, and the setter's word weights."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

FREQUENCY_ORDER = "ETAOINSHRDLCUMWFGYPBVKJXQZ"  # heuristic: E = 1, T = 2, ..., Z = 26
BANDS = ("easy", "medium", "hard")
GALLOWS = 6  # misses a classic gallows allows: head, body, two arms, two legs
SETTERS = ("uniform", "frequency", "children", "hard", "list")  # the setter models (pipeline/hangman/setters.py)
KERNEL_MAX_LENGTH = 63  # a position pattern is a bit mask in an int64; longer words use the plain solver


@dataclass(frozen=True)
class Settings:
    """The [hangman] section of the config."""

    bands: str = "tertiles"  # "tertiles" within each length, or "misses" (the thresholds below)
    easy_max_misses: int = 1
    hard_min_misses: int = 4
    prior: str = "wordfreq"  # the weighted solver's setter prior: "wordfreq" (∝ 10^zipf) or "uniform"
    unknown_zipf: float = 0.0  # zipf given to words wordfreq does not know (zipf 0.0 in words.parquet)
    gallows: int = GALLOWS  # misses allowed (hangman_summary.json's share_within_gallows)
    summary_hardest: int = 10  # hardest words listed per length in hangman_summary.json
    common_zipf: float = 3.0  # `wordstats hangman --common`: zipf at least this
    optimal_states: int = 1000  # the optimal search's budget of states per length in the stage (0: no search)
    optimal_max_words: int = 6000  # lengths with more words are not searched in the stage


def settings(config) -> Settings:
    """The validated [hangman] settings (defaults for absent fields)."""
    sec, d = config.section("hangman"), Settings()
    sec.allow(*asdict(d))
    s = Settings(
        bands=sec.text("bands", d.bands, choices=("tertiles", "misses")),
        easy_max_misses=sec.integer("easy_max_misses", d.easy_max_misses, lo=0, hi=25),
        hard_min_misses=sec.integer("hard_min_misses", d.hard_min_misses, lo=1, hi=26),
        prior=sec.text("prior", d.prior, choices=("wordfreq", "uniform")),
        unknown_zipf=sec.number("unknown_zipf", d.unknown_zipf, lo=0.0, hi=9.0),
        gallows=sec.integer("gallows", d.gallows, lo=0, hi=26),
        summary_hardest=sec.integer("summary_hardest", d.summary_hardest, lo=0, hi=1000),
        common_zipf=sec.number("common_zipf", d.common_zipf, lo=0.0, hi=9.0),
        optimal_states=sec.integer("optimal_states", d.optimal_states, lo=0, hi=1 << 40),
        optimal_max_words=sec.integer("optimal_max_words", d.optimal_max_words, lo=0, hi=1 << 40),
    )
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
