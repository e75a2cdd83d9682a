"""The Hangman use cases: a typed request on a session → a frozen result carrying its provenance. The command
line (pipeline/cli/hangman.py) only parses, calls these and renders (pipeline/hangman/render.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.core.errors import NotFound, WordstatsError
from pipeline.core.results import Provenance, provenance
from pipeline.core.store import MAX_ROWS
from pipeline.hangman.query import GameRequest as GameRequest  # the requests, as clients find them here
from pipeline.hangman.query import HangmanQuery as HangmanQuery
from pipeline.hangman.query import LearningRequest as LearningRequest
from pipeline.hangman.query import RankingRequest as RankingRequest
from pipeline.hangman.settings import setter_weights, settings

if TYPE_CHECKING:
    import numpy as np

    from pipeline.core.session import Session
    from pipeline.core.store import Store
    from pipeline.hangman.learning import Benchmark

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
    "expected_misses",
    "rank_in_length",
    "percentile_in_length",
    "band",
    "misses_weighted",
    "heuristic_band",
]  # of hangman.parquet, as the lists show them
RANK_COLUMNS = ["expected_misses", "rank_in_length", "band", "percentile_in_length"]  # as a game shows them
HARDEST_FIRST = ["expected_misses", "misses", "guesses", "word"]  # then ties kept by word
SUMMARY = "hangman_summary.json"  # where each length's optimal search is recorded
OPTIMAL_COLUMN = "optimal_sequence"  # of hangman.parquet: the optimal strategy's letters (null unless proved)


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
    optimal: pl.DataFrame | None = None  # STEP_SCHEMA: the optimal strategy's game, when hangman.parquet proves it
    optimal_note: str = ""  # why there is no optimal game, when there is none

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

    def optimal_facts(self) -> dict[str, Any] | None:
        """The optimal strategy's game in brief (misses, guesses, letters), or None when not known."""
        if self.optimal is None:
            return None
        steps = self.optimal
        return {
            "misses": int(steps["misses"][-1]) if steps.height else 0,
            "guesses": steps.height,
            "sequence": "".join(steps["guess"].to_list()),
        }


@dataclass(frozen=True)
class Ranking:
    """Words of hangman.parquet in the order asked, with their zipf."""

    table: pl.DataFrame
    provenance: Provenance


@dataclass(frozen=True)
class Learning:
    """Per setter: each guesser's average misses, the learner's extra misses and games to within 5% of the oracle,
    and its posterior on the true setter after the last game; notes on the inputs."""

    table: pl.DataFrame
    notes: tuple[str, ...]
    provenance: Provenance


# ---- use cases -------------------------------------------------------------------------------------------------


def replay(word: str, words: list[str], weights: np.ndarray | None = None, sequence: str | None = None) -> list[dict]:
    """The solver's game against `word` (one of `words`, all its length): each guess, hit or miss, what is left;
    with `sequence`, the game of those letters in order (another strategy's, e.g. the optimal one)."""
    import numpy as np  # here: the hardest-first listing needs no numpy

    from pipeline.letters.alphabet import LETTERS
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
        if sequence is not None:
            guess = LETTERS.index(sequence[len(steps)])
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
    from pipeline.letters.alphabet import parse_letters

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
    tables, ranking, sequence = ["words"], {}, None
    if store.exists("hangman"):
        tables.append("hangman")
        columns = RANK_COLUMNS + ([OPTIMAL_COLUMN] if OPTIMAL_COLUMN in store.schema("hangman") else [])
        row = store.scan("hangman", ["word", *columns]).filter(pl.col("word") == text).select(columns)
        found = row.collect()
        if found.height:
            ranking = found.to_dicts()[0]
            sequence = ranking.pop(OPTIMAL_COLUMN, None)
    optimal = None
    if sequence is not None:
        optimal = pl.DataFrame(replay(text, names, sequence=sequence), schema=STEP_SCHEMA)
    note = "" if optimal is not None else optimal_note(store, len(text))
    return Game(
        text,
        len(text),
        len(names),
        q.weighted,
        steps,
        provenance(s, "hangman game", q, tables),
        ranking,
        optimal,
        note,
    )


def optimal_note(store: Store, length: int) -> str:
    """Why a word of this length has no optimal game: the stage not built, or its search's bounds unproved."""
    if not store.exists(SUMMARY):
        return "the optimal strategy is read from hangman.parquet, not built"
    try:
        lengths = store.read_json(SUMMARY).get("lengths", [])
    except WordstatsError:
        return "the optimal strategy is read from hangman.parquet, not built"
    proof = next((e.get("optimal") for e in lengths if e.get("length") == length), None) or {}
    if not proof.get("searched"):
        return (
            f"the optimal strategy: not searched for the {length}-letter words in the stage (hangman.optimal_states, "
            f"optimal_max_words; docs/data/hangman_optimal_*.csv holds longer runs)"
        )
    return (
        f"the optimal strategy: not proved for the {length}-letter words within {proof['states_budget']:,} "
        f"states (between {proof['lower_bound']:.3f} and {proof['expected_misses']:.3f} expected misses; "
        f"docs/data/hangman_optimal_*.csv holds longer runs)"
    )


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
        table = table.sort(HARDEST_FIRST).head(min(q.easiest, MAX_ROWS))
    else:
        table = table.sort(HARDEST_FIRST, descending=[True, True, True, False])
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
    return Ranking(found, provenance(s, "hangman ranking", q, ["hangman", "words"]))


def learning(s: Session, q: LearningRequest) -> Learning:
    """The learning guesser's benchmark: q.games seeded games per setter (the models of pipeline/hangman/setters.py)."""
    from pipeline.hangman import learning as learn
    from pipeline.hangman import setters

    store = s.store
    entries = setters.read_list(q.word_list) if q.word_list is not None else None
    lexicon, rank = setter_lexicon(store)
    st = settings(s.config)
    models = [
        setters.uniform(lexicon),
        setters.frequency(lexicon, st.unknown_zipf),
        setters.children(lexicon, children_words(s)),
        setters.hard(lexicon, rank),
    ]
    notes = []
    if q.word_list is not None and entries is not None:
        listed, left_out = setters.listed(lexicon, entries, q.word_list)
        models.append(listed)
        if left_out:
            notes.append(f"{left_out:,} words of {q.word_list.name} are not in lexicon {store.lexicon!r}: left out")
    names = [m.name for m in models]
    grouped = learn.groups(lexicon)
    solved = learn.Solved(lexicon, grouped)
    uniform = learn.uniform_misses(lexicon, solved)
    rows = []
    for name in q.setters or tuple(names):
        truth = names.index(name)
        run = learn.benchmark(lexicon, models, truth, q.games, q.seed, grouped, uniform, solved)
        rows.append(learning_row(run, q, float(run.posterior[truth])))
    table = pl.DataFrame(rows, schema=LEARNING_SCHEMA, orient="row")
    return Learning(table, tuple(notes), provenance(s, "hangman learning", q, ["words", "hangman"]))


LEARNING_SCHEMA = {
    "setter": pl.String,
    "words": pl.Int64,  # the setter's support
    "games": pl.Int64,
    "learning": pl.Float64,  # average misses per game of the learning guesser
    "uniform": pl.Float64,  # of the uniform-prior guesser (the reference solver)
    "oracle": pl.Float64,  # of the guesser that knows the setter
    "extra_misses": pl.Int64,  # the learner's misses over all games minus the oracle's
    "expected_start": pl.Float64,  # the learner's expected misses before any game (the uniform prior over models)
    "expected_end": pl.Float64,  # after the last game
    "expected_uniform": pl.Float64,  # the uniform-prior guesser's expected misses against this setter
    "expected_oracle": pl.Float64,  # the oracle's
    "games_to_oracle": pl.Int64,  # games before the learner's expected misses stay within 5% (null: never)
    "posterior": pl.Float64,  # the learner's posterior on the true setter after the last game
}
MEAN_DECIMALS = 4


def learning_row(run: Benchmark, q: LearningRequest, believed: float) -> tuple:
    """One setter's row of the benchmark table."""
    rounded = [round(float(x), MEAN_DECIMALS) for x in (run.learning.mean(), run.uniform.mean(), run.oracle.mean())]
    expected = [run.curve[0][1], run.curve[-1][1], run.expected_uniform, run.expected_oracle]
    return (
        run.setter,
        run.support,
        q.games,
        *rounded,
        int(run.learning.sum() - run.oracle.sum()),
        *(round(x, MEAN_DECIMALS) for x in expected),
        run.games_to_oracle,
        round(believed, 6),
    )


def setter_lexicon(store: Store):
    """The lexicon as the setters see it (words sorted, lengths, zipf) and each word's rank_in_length."""
    from pipeline.hangman.setters import Lexicon

    if not store.exists("hangman"):
        raise WordstatsError(
            f"the setters need hangman.parquet, which is not built for lexicon {store.lexicon!r}: "
            f"run `wordstats run hangman --lexicon {store.lexicon}`"
        )
    words = store.scan("words", ["word", "length", "zipf"]).select("word", "length", "zipf")
    ranks = store.scan("hangman", ["word", "rank_in_length"]).select("word", "rank_in_length")
    table = words.join(ranks, on="word", how="left").sort("word").collect()
    lexicon = Lexicon(
        tuple(table["word"].to_list()),
        table["length"].cast(pl.Int64).to_numpy(),
        table["zipf"].cast(pl.Float64).to_numpy(),
    )
    return lexicon, table["rank_in_length"].cast(pl.Int64).fill_null(len(table)).to_numpy()


def children_words(s: Session) -> frozenset[str]:
    """The children's words: those the classroom review keeps that word lists do not leave out."""
    from pipeline.words.classroom import classroom_vocabulary, excluded_words, load_classroom

    classroom = load_classroom(s.config)
    return classroom_vocabulary(classroom).kept - excluded_words(classroom)
