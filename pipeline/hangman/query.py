"""What the hangman commands ask: frozen requests declaring their options (pipeline/core/fields.py `option`), the
game or ranking query and the learning benchmark's request (pipeline/hangman/api.py re-exports them; every
command's start reads them, so this module imports nothing heavy)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.core.errors import FieldError, WordstatsError, pick
from pipeline.core.fields import LENGTH, SEED, option
from pipeline.core.settings import default_of
from pipeline.hangman.manifest import SETTINGS
from pipeline.hangman.settings import BANDS, SETTERS

COMMON_ZIPF = default_of(SETTINGS, "hangman.common_zipf")


@dataclass(frozen=True)
class GameRequest:
    """Play the solver against one word of the lexicon."""

    word: str  # letters A-Z, any case
    weighted: bool = False  # the frequency-weighted solver instead of the reference solver


@dataclass(frozen=True)
class RankingRequest:
    """Words of hangman.parquet, filtered, hardest (or easiest) first."""

    length: tuple[int, int] | None = None  # shortest and longest length
    hardest: int | None = None  # at most this many, hardest first
    easiest: int | None = None  # at most this many, easiest first
    band: str | None = None  # easy, medium or hard (any case)
    common: bool = False  # only words with zipf at least the config's common_zipf

    def __post_init__(self):
        if self.hardest is not None and self.easiest is not None:
            raise WordstatsError("choose one of --hardest and --easiest")
        if self.band is not None:
            object.__setattr__(self, "band", pick(self.band, BANDS, "--band").lower())
        for name, value in (
            ("--hardest", self.hardest),
            ("--easiest", self.easiest),
            ("--length", self.length and self.length[0]),
        ):
            if value is not None and value < 1:
                raise WordstatsError(f"{name} must be at least 1, got {value}")


@dataclass(frozen=True)
class HangmanQuery:
    """The solver's game against a word, or words listed hardest (or easiest) first."""

    word: str | None = option(kind=str, help="Trace the solver's game against WORD.", argument=True, optional=True)
    length: tuple[int, int] | None = option(LENGTH)
    easiest: bool = option(kind=bool, help="List the easiest words first (default: hardest).", default=False)
    band: str | None = option(
        kind=str, help="Only this band: easy, medium or hard (any case).", metavar="[easy|medium|hard]"
    )
    common: bool = option(
        kind=bool,
        help=f"Only common words: zipf at least the config's hangman.common_zipf (default {COMMON_ZIPF:g}).",
        default=False,
    )
    weighted: bool = option(kind=bool, help="Trace the frequency-weighted solver.", default=False)

    def request(self, limit: int | None, rows: int | None) -> GameRequest | RankingRequest:
        """The use case's request: a game against the word, or the ranking of at most `rows` words (`limit` is
        --limit as given: it lists, so it goes with no word)."""
        if self.word is None:
            if self.weighted:
                raise FieldError("{weighted} applies to a traced WORD")
            hardest, easiest = (None, rows) if self.easiest else (rows, None)
            return RankingRequest(self.length, hardest, easiest, self.band, self.common)
        if any(v is not None for v in (self.length, limit, self.band)) or self.common or self.easiest:
            raise WordstatsError("give a WORD to trace, or --length/--limit/--easiest/--band/--common to list")
        return GameRequest(self.word, self.weighted)


MAX_GAMES = 1_000_000  # seeded games per setter


@dataclass(frozen=True)
class LearningRequest:
    """Seeded games per setter: the guesser that learns its setter against the uniform-prior guesser and the
    oracle that knows the setter."""

    setters: tuple[str, ...] = option(
        kind=str,
        many=True,
        option="--setter",
        metavar="NAME",
        choices=SETTERS,
        help="A setter to play (repeatable; default: every one, list only with --list).",
    )
    games: int = option(kind=int, default=1000, lo=1, hi=MAX_GAMES, help="Seeded games per setter.")
    seed: int = option(SEED, default=0, help="Seed of the setters' words (default 0).")
    word_list: Path | None = option(
        kind=Path, option="--list", metavar="FILE", help="The list setter's words: text, or CSV with a word column."
    )

    def __post_init__(self):
        object.__setattr__(self, "setters", tuple(dict.fromkeys(x.lower() for x in self.setters)))
        if "list" in self.setters and self.word_list is None:
            raise FieldError("{setters} list needs {word_list} FILE (the list setter's words)")
