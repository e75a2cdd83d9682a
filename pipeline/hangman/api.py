"""The Hangman use cases: a typed request on a session → a frozen result carrying its provenance. The command
line (pipeline/cli/hangman.py) only parses, calls these and renders (pipeline/hangman/render.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.core.errors import NotFound, WordstatsError, pick
from pipeline.core.store import MAX_ROWS
from pipeline.hangman.settings import BANDS, setter_weights, settings

if TYPE_CHECKING:
    import numpy as np

    from pipeline.core.session import Session
    from pipeline.core.store import Store

STEP_SCHEMA = {
    "step": pl.Int64,
    "guess": pl.String,
    "result": pl.String,
    "pattern": pl.String,
    "candidates": pl.Int64,
    "misses": pl.Int64,
}
LIST_COLUMNS = [
    "word",
    "length",
    "misses",
    "guesses",
    "sequence",
    "rank_in_length",
    "percentile_in_length",
    "band",
    "misses_weighted",
    "heuristic_band",
]  # of hangman.parquet, as the lists show them
RANK_COLUMNS = ["rank_in_length", "band", "percentile_in_length"]  # of hangman.parquet, as a game shows them


# ---- provenance ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Provenance:
    """Where a result comes from: the use case, what was asked, the lexicon, and each table read with its sha256
    as the lexicon's manifest records it (None when the manifest does not list it)."""

    query: str
    request: dict[str, Any]
    lexicon: str
    inputs: dict[str, str | None]

    def as_dict(self) -> dict[str, Any]:
        """The provenance as JSON-ready data."""
        from pipeline import __version__

        return {**dataclasses.asdict(self), "version": __version__}


def provenance(store: Store, query: str, request: Any, tables: list[str]) -> Provenance:
    """The provenance of `query` answering `request` from these tables of the store."""
    try:
        recorded = store.manifest().get("tables", {})
    except WordstatsError:  # a missing or damaged manifest: the tables were checked as they were read
        recorded = {}
    inputs = {}
    for table in tables:
        entry = recorded.get(f"{table}.parquet")
        inputs[f"{table}.parquet"] = entry.get("sha256") if isinstance(entry, dict) else None
    asked = {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(request).items()}
    return Provenance(query, asked, store.lexicon, inputs)


# ---- requests --------------------------------------------------------------------------------------------------


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


# ---- results ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """The solver's game against one word: a row per guess, and facts about the word in its lexicon."""

    word: str
    length: int
    candidates: int  # words of its length in the lexicon
    weighted: bool
    steps: pl.DataFrame  # STEP_SCHEMA: each guess, hit or miss, the pattern, candidates and misses after it
    provenance: Provenance
    ranking: dict[str, Any] = field(default_factory=dict)  # RANK_COLUMNS from hangman.parquet, when built

    @property
    def misses(self) -> int:
        """Misses of the whole game."""
        return int(self.steps["misses"][-1]) if self.steps.height else 0

    @property
    def guesses(self) -> int:
        """Guesses of the whole game."""
        return self.steps.height

    @property
    def sequence(self) -> str:
        """The letters guessed, in order."""
        return "".join(self.steps["guess"].to_list())

    @property
    def lexicon(self) -> str:
        """The lexicon the game was played in."""
        return self.provenance.lexicon

    def facts(self) -> dict[str, Any]:
        """The game's facts (what JSON shows before the steps)."""
        return {
            "word": self.word,
            "length": self.length,
            "candidates": self.candidates,
            "weighted": self.weighted,
            "misses": self.misses,
            "guesses": self.guesses,
            "sequence": self.sequence,
            **self.ranking,
        }


@dataclass(frozen=True)
class Ranking:
    """Words of hangman.parquet in the order asked, with their zipf."""

    table: pl.DataFrame
    provenance: Provenance


# ---- use cases -------------------------------------------------------------------------------------------------


def replay(word: str, words: list[str], weights: np.ndarray | None = None) -> list[dict]:
    """The solver's game against `word` (one of `words`, all its length): each guess, hit or miss, what is left."""
    import numpy as np  # here: the hardest-first listing needs no numpy

    from pipeline.core.config import LETTERS
    from pipeline.letters.trie import letter_codes

    codes = letter_codes(words).astype(np.int64)
    n = len(words)
    weights = np.ones(n, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    has = np.zeros((n, 26), dtype=bool)
    has[np.repeat(np.arange(n), codes.shape[1]), codes.ravel()] = True
    secret = codes[words.index(word)]
    steps: list[dict] = []
    alive, guessed, revealed, misses = np.ones(n, dtype=bool), np.zeros(26, dtype=bool), ["_"] * len(word), 0
    while alive.sum() > 1:
        mass = (has[alive] * weights[alive, None]).sum(axis=0)
        mass[guessed] = -1
        guess = int(np.argmax(mass))  # the first of the heaviest: ties to the alphabetically first letter
        guessed[guess] = True
        hit = secret == guess
        alive &= ((codes == guess) == hit).all(axis=1)
        misses += not hit.any()
        for i in np.flatnonzero(hit):
            revealed[i] = LETTERS[guess]
        steps.append(
            {
                "step": len(steps) + 1,
                "guess": LETTERS[guess],
                "result": "hit" if hit.any() else "miss",
                "pattern": " ".join(revealed),
                "candidates": int(alive.sum()),
                "misses": misses,
            }
        )
    return steps


def game(s: Session, q: GameRequest) -> Game:
    """The solver's game against q.word in the session's lexicon (a note when it is not a word of the lexicon)."""
    from pipeline.anagrams.lookups import parse_letters

    text = parse_letters(q.word, "word")
    store = s.store
    words = (
        store.scan("words", ["word", "length", "zipf"])
        .filter(pl.col("length") == len(text))
        .select("word", "zipf")
        .collect()
        .sort("word")
    )
    names = words["word"].to_list()
    if text not in names:
        raise NotFound(f"{text} is not in lexicon {store.lexicon!r}: the solver only knows the lexicon's words")
    weights = None
    if q.weighted:
        st = settings(s.config)
        weights = setter_weights(words["zipf"].to_numpy(), st.prior, st.unknown_zipf)
    steps = pl.DataFrame(replay(text, names, weights), schema=STEP_SCHEMA)
    tables, ranking = ["words"], {}
    if store.exists("hangman"):
        tables.append("hangman")
        row = store.scan("hangman", ["word", *RANK_COLUMNS]).filter(pl.col("word") == text).select(RANK_COLUMNS)
        found = row.collect()
        if found.height:
            ranking = found.to_dicts()[0]
    return Game(text, len(text), len(names), q.weighted, steps, provenance(store, "hangman game", q, tables), ranking)


def ranking(s: Session, q: RankingRequest) -> Ranking:
    """Words from hangman.parquet: filtered by length, band, commonness; hardest or easiest first."""
    store = s.store
    table = store.scan("hangman", LIST_COLUMNS).join(
        store.scan("words", ["word", "zipf"]).select("word", "zipf"), on="word", how="left"
    )
    if q.length is not None:
        table = table.filter(pl.col("length").is_between(*q.length))
    if q.band is not None:
        table = table.filter(pl.col("band") == q.band)
    if q.common:
        table = table.filter(pl.col("zipf") >= settings(s.config).common_zipf)
    if q.easiest is not None:
        table = table.sort(["misses", "guesses", "word"]).head(min(q.easiest, MAX_ROWS))
    else:
        table = table.sort(["misses", "guesses", "word"], descending=[True, True, False])
        table = table.head(min(q.hardest, MAX_ROWS)) if q.hardest is not None else table
    found = table.select(*LIST_COLUMNS, "zipf").collect()
    if found.is_empty():
        span = q.length
        asked = [
            (f"length {span[0]}" if span[0] == span[1] else f"length {span[0]}-{span[1]}") if span else "",
            f"band {q.band}" if q.band else "",
            "common" if q.common else "",
        ]
        raise NotFound(f"no words in lexicon {store.lexicon!r} match ({', '.join(a for a in asked if a) or 'all'})")
    return Ranking(found, provenance(store, "hangman ranking", q, ["hangman", "words"]))
