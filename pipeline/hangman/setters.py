"""Hangman setters as data: each setter model is a probability distribution over the words of a lexicon (all
lengths), given as integer weights (0 outside its support); a seeded setter draws one secret word per game, its
length chosen by the distribution too.

uniform     every word of the lexicon alike
frequency   the wordfreq prior of the frequency-weighted solver: round(10^(zipf + 3)) (settings.setter_weights)
children    alike over the words the classroom review keeps (data/raw/classroom-review.tsv and the teacher's
            [review] decisions; grades K to 5 and Dolch) that lists do not leave out (block list, topics)
hard        alike over the hardest HARD_PERCENT % of each length (rounded up) by hangman.parquet's ranking
            (rank_in_length: most misses, then most guesses, then the word)
list        alike over the words of a file the user gives that are in the lexicon
"""

from __future__ import annotations

import csv
import io
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.core.errors import WordstatsError
from pipeline.core.sections import read_regular_file

HARD_PERCENT = 10.0  # the hard setter's share of each length: the hardest words by the reference solver
MAX_LIST_BYTES = 64 << 20  # a word-list file larger than this is refused


@dataclass(frozen=True)
class Lexicon:
    """The words a setter draws from and a guesser knows: sorted, with each word's length and zipf."""

    words: tuple[str, ...]
    lengths: np.ndarray  # (n,) int64
    zipf: np.ndarray  # (n,) float64

    def indices(self, words: frozenset[str] | set[str]) -> np.ndarray:
        """The positions of these words in the lexicon (words it lacks are skipped), ascending."""
        return np.array([i for i, w in enumerate(self.words) if w in words], dtype=np.int64)

    def mask(self, words: frozenset[str] | set[str]) -> np.ndarray:
        """0/1 weights: 1 for the lexicon's words among these."""
        weights = np.zeros(len(self.words), dtype=np.int64)
        weights[self.indices(words)] = 1
        return weights


@dataclass(frozen=True, eq=False)
class Setter:
    """A setter model: a name, what it is, and its integer weight per lexicon word (0 outside its support)."""

    name: str
    about: str
    weights: np.ndarray  # (n,) int64, aligned with Lexicon.words

    @property
    def support(self) -> int:
        """How many words it may set."""
        return int(np.count_nonzero(self.weights))

    @property
    def probabilities(self) -> np.ndarray:
        """The weights as probabilities (summing to 1)."""
        return self.weights / float(self.weights.sum())

    def draw(self, seed: int, games: int) -> np.ndarray:
        """The secret words (lexicon positions) of `games` seeded games: each drawn with probability ∝ its weight,
        the same for the same seed and setter name whatever else is asked."""
        rng = np.random.default_rng([seed, zlib.crc32(self.name.encode("utf-8"))])
        cumulative = np.cumsum(self.weights)
        targets = np.floor(rng.random(games) * float(cumulative[-1])).astype(np.int64)
        targets = np.minimum(targets, cumulative[-1] - 1)  # u × total rounds below total
        return np.searchsorted(cumulative, targets, side="right").astype(np.int64)


def setter(name: str, about: str, weights: np.ndarray) -> Setter:
    """A setter, refused with a one-line error when it can set no word of the lexicon."""
    if not np.any(weights > 0):
        raise WordstatsError(f"setter {name!r} ({about}): none of its words is in the lexicon")
    return Setter(name, about, np.asarray(weights, dtype=np.int64))


def uniform(lexicon: Lexicon) -> Setter:
    """Every word of the lexicon alike."""
    return setter("uniform", "every word of the lexicon alike", np.ones(len(lexicon.words), dtype=np.int64))


def frequency(lexicon: Lexicon, unknown_zipf: float = 0.0) -> Setter:
    """Words as often as wordfreq sees them: the frequency-weighted solver's prior."""
    from pipeline.hangman.settings import setter_weights

    weights = setter_weights(lexicon.zipf, "wordfreq", unknown_zipf)
    return setter("frequency", "wordfreq frequency, round(10^(zipf + 3))", weights)


def children(lexicon: Lexicon, kept: frozenset[str]) -> Setter:
    """Alike over the children's words: those of `kept` (the classroom review's keeps, safe) in the lexicon."""
    return setter("children", "the classroom review's kept words, alike", lexicon.mask(kept))


def hard(lexicon: Lexicon, rank: np.ndarray) -> Setter:
    """Alike over the hardest HARD_PERCENT % of each length, rounded up (`rank`: rank_in_length per word, 1 =
    hardest, ties broken as the ranking breaks them)."""
    lengths, counts = np.unique(lexicon.lengths, return_counts=True)
    per_length = dict(zip(lengths.tolist(), np.ceil(counts * HARD_PERCENT / 100.0).astype(np.int64).tolist()))
    quota = np.array([per_length[n] for n in lexicon.lengths.tolist()], dtype=np.int64)
    weights = (np.asarray(rank, dtype=np.int64) <= quota).astype(np.int64)
    return setter("hard", f"the hardest {HARD_PERCENT:g}% of each length, alike", weights)


def listed(lexicon: Lexicon, words: list[str], path: Path) -> tuple[Setter, int]:
    """Alike over the words of a list file that are in the lexicon, and how many of its words are not."""
    wanted = set(words)
    weights = lexicon.mask(wanted)
    left_out = len(wanted) - int(weights.sum())
    return setter("list", f"the words of {path.name}, alike", weights), left_out


def read_list(path: Path) -> list[str]:
    """The distinct entries of a word-list file, upper case: a CSV file (.csv) with a `word` column, or text with
    words separated by white space ('#' starts a comment); a one-line error naming the file otherwise. Entries
    that are no word of the lexicon (DON'T) are the setter's to leave out."""
    data = read_regular_file(path, "word list", MAX_LIST_BYTES)
    try:
        text = data.decode("utf-8-sig")  # a byte order mark (some Windows editors) is fine
    except UnicodeDecodeError:
        raise WordstatsError(f"{path}: the word list is not UTF-8 text (--list)") from None
    if path.suffix.lower() == ".csv":
        try:
            rows = list(csv.reader(io.StringIO(text)))
        except csv.Error as exc:  # a field over the csv module's limit, a stray NUL...
            raise WordstatsError(f"{path}: not a readable CSV word list ({exc}; --list)") from None
        header = [name.strip().lower() for name in rows[0]] if rows else []
        if "word" not in header or len(rows) < 2:
            raise WordstatsError(f"{path}: a CSV word list needs a `word` column and at least one row (--list)")
        at = header.index("word")
        items = [row[at].strip() for row in rows[1:] if len(row) > at]
    else:
        items = [tok for line in text.splitlines() for tok in line.split("#", 1)[0].split()]
    words = [item.upper() for item in items if item]
    if not words:
        raise WordstatsError(f"{path}: the word list holds no words (--list)")
    return sorted(set(words))
