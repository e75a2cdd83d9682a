"""A guesser that learns its setter: a posterior over setter models (pipeline/hangman/setters.py) from the words of
earlier games, and the solver's guesses weighted by the posterior's mixture of the models.

Each model m gives word w the probability p_m(w) = (1 - FLOOR) q_m(w) + FLOOR / N (q_m: the model's own
distribution, N: the lexicon's words), so that one word outside a model's support does not rule it out for good.
The prior over the models is uniform; after each game the secret word is seen, and the posterior is
P(m | w_1..w_k) ∝ Π_i p_m(w_i). In a game the guesser weights each candidate by the mixture Σ_m P(m | ...) p_m(w),
in whole units of 2^-52 (so that sums are exact and ties are ties), and guesses the unguessed letter whose
candidates carry the most weight (the least weight of a miss), ties to the first letter: the frequency-weighted
solver's rule with the mixture as its prior. The uniform-prior guesser (the reference solver) and the oracle (the
true setter's weights) are the same guesser with fixed weights.

How far the learner is from the oracle after k games is measured without the noise of the games themselves: its
expected misses, Σ_w q(w) × misses_k(w) over every word w of the lexicon with the true setter's q, where misses_k
is the learner's strategy with the posterior after k games (the solver's kernel plays every word at once).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from pipeline.core.blas import one_thread
from pipeline.hangman.setters import Lexicon, Setter

FLOOR = 1e-3  # each model's share spread evenly over the lexicon
TOLERANCE = 0.05  # "within 5% of the oracle"
UNIT = 2.0**52  # the mixture's weights in whole units of 2^-52: a word's weight and any sum of them are exact
EVERY_GAME = 30  # the expected misses are measured after each of the first games, then at CHECKPOINTS
CHECKPOINTS = (1, 1.5, 2, 3, 4, 5, 6, 8)  # × 10^k


@dataclass(frozen=True, eq=False)
class Group:
    """The words of one length as the kernels read them: their lexicon positions and letter codes."""

    indices: np.ndarray  # (n,) lexicon positions
    codes: np.ndarray  # (n, L) letter codes 0-25
    distinct: np.ndarray  # (n, 26) each word's distinct letters
    n_distinct: np.ndarray  # (n,)


def groups(lexicon: Lexicon) -> tuple[dict[int, Group], np.ndarray]:
    """The lexicon's words by length, and each word's row in its length's group."""
    from pipeline.hangman.kernels import distinct_letters
    from pipeline.letters.trie import letter_codes

    by_length, row = {}, np.zeros(len(lexicon.words), dtype=np.int64)
    for length in np.unique(lexicon.lengths).tolist():
        idx = np.flatnonzero(lexicon.lengths == length)
        codes = letter_codes([lexicon.words[i] for i in idx.tolist()]).astype(np.int8)
        distinct, n_distinct = distinct_letters(codes)
        by_length[length] = Group(idx, codes, distinct, n_distinct)
        row[idx] = np.arange(len(idx))
    return by_length, row


def model_probabilities(models: list[Setter]) -> np.ndarray:
    """(models, words): each model's probability of each word, smoothed by FLOOR."""
    n = len(models[0].weights)
    return np.stack([(1.0 - FLOOR) * m.probabilities + FLOOR / n for m in models])


def posteriors(probabilities: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """(games + 1, models): the posterior before each game and after the last (row 0 is the uniform prior)."""
    log_p = np.log(probabilities[:, secrets])  # (models, games)
    cumulative = np.concatenate([np.zeros((probabilities.shape[0], 1)), np.cumsum(log_p, axis=1)], axis=1).T
    scaled = np.exp(cumulative - cumulative.max(axis=1, keepdims=True))
    return scaled / scaled.sum(axis=1, keepdims=True)


def mixture(posterior_now: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """The guesser's integer weights for these words: the posterior-weighted mixture in units of 2^-52."""
    total = np.zeros(probabilities.shape[1])
    for share, model in zip(posterior_now.tolist(), probabilities):  # a fixed order, no BLAS: the same bits anywhere
        total += share * model
    return np.rint(total * UNIT).astype(np.int64)


def learning_misses(
    probabilities: np.ndarray, secrets: np.ndarray, by_length: dict[int, Group], row: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The learning guesser's misses in each game, and its posteriors (before each game, and after the last)."""
    from pipeline.hangman.kernels import hangman_game

    before = posteriors(probabilities, secrets)
    misses = np.zeros(len(secrets), dtype=np.int64)
    for k, secret in enumerate(secrets.tolist()):
        group = by_length[int(lengths[secret])]
        weights = mixture(before[k], probabilities[:, group.indices])
        misses[k], _ = hangman_game(group.codes, group.distinct, group.n_distinct, weights, row[secret])
    return misses, before


def checkpoints(games: int) -> list[int]:
    """After how many games the expected misses are measured: each of the first EVERY_GAME, then 40, 50, 60, 80,
    100, 150, ... (CHECKPOINTS × 10^k), and after the last game."""
    found = set(range(min(games, EVERY_GAME) + 1)) | {games}
    scale = 10
    while scale <= games:
        found |= {int(c * scale) for c in CHECKPOINTS if EVERY_GAME < c * scale <= games}
        scale *= 10
    return sorted(found)


def expected_misses(lexicon: Lexicon, weights: np.ndarray, truth: np.ndarray, solved: Solved | None = None) -> float:
    """The expected misses of the guesser with these weights when the setter draws by `truth` (probabilities)."""
    found = (solved or Solved(lexicon)).misses(weights, support=truth > 0)
    return float(truth @ found)  # words outside the support add 0.0: the same bits as over every word


def fixed_misses(lexicon: Lexicon, weights: np.ndarray, solved: Solved | None = None) -> np.ndarray:
    """Every word's misses against the guesser with these fixed integer weights (the solver's kernel)."""
    return (solved or Solved(lexicon)).misses(weights)


def uniform_misses(lexicon: Lexicon, solved: Solved | None = None) -> np.ndarray:
    """Every word's misses against the uniform-prior guesser (the reference solver, every weight 1)."""
    return fixed_misses(lexicon, np.ones(len(lexicon.words), dtype=np.int64), solved)


class Solved:
    """The solver on one lexicon's length groups, each length's misses kept for the weights it has seen (the
    learner's mixture often repeats once its posterior has settled)."""

    def __init__(self, lexicon: Lexicon, grouped: tuple[dict[int, Group], np.ndarray] | None = None):
        self.lexicon = lexicon
        self.by_length, _ = grouped or groups(lexicon)
        self.words = {n: [lexicon.words[i] for i in g.indices.tolist()] for n, g in self.by_length.items()}
        self.seen: dict[tuple[int, bytes], np.ndarray] = {}

    def misses(self, weights: np.ndarray, support: np.ndarray | None = None) -> np.ndarray:
        """Every word's misses against these fixed integer weights; with `support` (a mask), only the lengths
        holding a word of it are solved, the others left at 0."""
        found = np.zeros(len(self.lexicon.words), dtype=np.int64)
        for length, group in self.by_length.items():
            if support is not None and not support[group.indices].any():
                continue
            w = np.ascontiguousarray(weights[group.indices], dtype=np.int64)
            key = (length, hashlib.blake2b(w.tobytes(), digest_size=16).digest())
            if key not in self.seen:
                from pipeline.hangman.solver import solve_group

                self.seen[key] = solve_group(self.words[length], w, group.codes)[0].astype(np.int64)
            found[group.indices] = self.seen[key]
        return found


def games_to_oracle(curve: list[tuple[int, float]], oracle: float) -> int | None:
    """The fewest games k (of the curve's checkpoints) from which the learner's expected misses stay within
    TOLERANCE of the oracle's, at k and at every later checkpoint; None when not after the last game."""
    found = None
    for k, expected in reversed(curve):
        if expected > (1.0 + TOLERANCE) * oracle:
            break
        found = k
    return found


@dataclass(frozen=True, eq=False)
class Benchmark:
    """One setter's seeded games: each guesser's misses per game, the learner's expected misses after k games
    (the curve) beside the oracle's and the uniform-prior guesser's, and its posterior at the end."""

    setter: str
    support: int  # words the setter may set
    secrets: np.ndarray  # lexicon positions
    learning: np.ndarray
    uniform: np.ndarray
    oracle: np.ndarray
    posterior: np.ndarray  # over the models, after the last game
    curve: tuple[tuple[int, float], ...]  # (games seen, the learner's expected misses)
    expected_oracle: float
    expected_uniform: float

    @property
    def games_to_oracle(self) -> int | None:
        """Games the learner needs before its expected misses stay within TOLERANCE of the oracle's."""
        return games_to_oracle(list(self.curve), self.expected_oracle)


def benchmark(
    lexicon: Lexicon,
    models: list[Setter],
    truth: int,
    games: int,
    seed: int,
    grouped: tuple[dict[int, Group], np.ndarray] | None = None,
    uniform: np.ndarray | None = None,
    solved: Solved | None = None,
) -> Benchmark:
    """`games` seeded games set by models[truth], played by the learning guesser (knowing all the models), the
    uniform-prior guesser and the oracle, on the same secret words. `grouped` (groups) and `uniform`
    (uniform_misses) and `solved` (a Solved of the lexicon) may be given when several setters share the lexicon, to
    compute them once. BLAS runs on one
    thread, so that the expected misses (float dot products) have the same bits on any machine."""
    with one_thread():
        return _benchmark(lexicon, models, truth, games, seed, grouped, uniform, solved)


def _benchmark(
    lexicon: Lexicon,
    models: list[Setter],
    truth: int,
    games: int,
    seed: int,
    grouped: tuple[dict[int, Group], np.ndarray] | None,
    uniform: np.ndarray | None,
    solved: Solved | None,
) -> Benchmark:
    """benchmark, on whatever BLAS threads there are."""
    by_length, row = grouped or groups(lexicon)
    solved = solved or Solved(lexicon, (by_length, row))
    setter = models[truth]
    secrets = setter.draw(seed, games)
    probabilities = model_probabilities(models)
    learning, path = learning_misses(probabilities, secrets, by_length, row, lexicon.lengths)
    uniform = uniform_misses(lexicon, solved) if uniform is None else uniform
    oracle = fixed_misses(lexicon, setter.weights, solved)
    q = setter.probabilities
    curve = tuple((k, expected_misses(lexicon, mixture(path[k], probabilities), q, solved)) for k in checkpoints(games))
    return Benchmark(
        setter.name,
        setter.support,
        secrets,
        learning,
        uniform[secrets],
        oracle[secrets],
        path[-1],
        curve,
        float(q @ oracle),
        float(q @ uniform),
    )
