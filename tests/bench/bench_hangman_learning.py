"""The learning guesser's games on ENABLE: the one-game kernel (only the secret's path) against the solver's
whole-tree kernel played once per game with that game's weights (the way to learn without a second kernel).

Both play the same 300 seeded games of the frequency setter with the learner's weights after 3 games (the
mixture of the four built-in setter models), in interleaved rounds; CPU seconds per game, medians and ratio.
The misses agree game for game (both kernels sum whole units exactly).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from tests.bench.enable import build

GAMES = 300
ROUNDS = 5


def run() -> dict:
    """Time both ways of playing the learner's games."""
    from pipeline.core.session import open_session
    from pipeline.hangman import api, learning, setters
    from pipeline.hangman.kernels import hangman_game, hangman_solve
    from tests.bench.enable import CONFIG, LEXICON

    with tempfile.TemporaryDirectory() as tmp:
        data = build(Path(tmp), ["ingest", "hangman"])
        with open_session(CONFIG, data, LEXICON) as s:
            lex, rank = api.setter_lexicon(s.store)
            kept = api.children_words(s)
    models = [setters.uniform(lex), setters.frequency(lex), setters.children(lex, kept), setters.hard(lex, rank)]
    probabilities = learning.model_probabilities(models)
    secrets = models[1].draw(1, GAMES)
    weights = learning.mixture(learning.posteriors(probabilities, secrets[:3])[-1], probabilities)
    by_length, row = learning.groups(lex)
    games = [(by_length[int(lex.lengths[w])], int(row[w])) for w in secrets.tolist()]

    def one_game() -> list[int]:
        """Each game by the one-game kernel."""
        return [int(hangman_game(g.codes, g.distinct, g.n_distinct, weights[g.indices], r)[0]) for g, r in games]

    def whole_tree() -> list[int]:
        """Each game by the whole-tree kernel over the secret's length, read at the secret's row."""
        return [int(hangman_solve(g.codes, weights[g.indices])[0][r]) for g, r in games]

    agree = one_game() == whole_tree()  # also compiles both
    times: dict[str, list[float]] = {"one_game": [], "whole_tree": []}
    for _ in range(ROUNDS):
        for name, fn in (("one_game", one_game), ("whole_tree", whole_tree)):
            started = time.process_time()
            fn()
            times[name].append((time.process_time() - started) / GAMES)
    one, tree = float(np.median(times["one_game"])), float(np.median(times["whole_tree"]))
    return {
        "games": GAMES,
        "rounds": ROUNDS,
        "one_game_cpu_ms_per_game": round(one * 1e3, 4),
        "whole_tree_cpu_ms_per_game": round(tree * 1e3, 4),
        "speedup_one_game_vs_whole_tree": round(tree / one, 1),
        "misses_agree": agree,
    }
