"""Boggle scoring speed: random 4×4 boards from the new dice, scored with ENABLE2K.

Measured in one run: boards per second of the compiled kernel on one core and on two, rolling and
scoring together on two cores, annealing evaluations per second, and a plain recursive Python DFS over a
dict trie on a sample of the same boards (with the ratio). The kernel and the plain solver must agree.
"""

from __future__ import annotations

import os
import time

from pipeline.boggle.best import SearchParams
from pipeline.boggle.best import anneal as bg_anneal
from pipeline.boggle.dictionary import compile_dictionary, cube_spelling, formable
from pipeline.boggle.rules import Rules
from pipeline.boggle.rules import neighbours as bg_neighbours
from pipeline.boggle.sampling import roll
from pipeline.boggle.settings import boggle_config
from pipeline.boggle.solver import board_texts, score_boards
from pipeline.core.config import PROJECT_ROOT, load_config
from tests.bench.timing import median_seconds

ENABLE2K = PROJECT_ROOT.parent / "shared" / "corpora" / "enable2k" / "enable2k.txt"
BOARDS = 200_000
PLAIN_SAMPLE = 300
SEED = 2025
REPEAT = 5


def plain_trie(words: list[str]) -> dict:
    """A trie of nested dicts over cube spellings (QU → Q); '$' holds the word."""
    root: dict = {}
    for w in words:
        if len(w) >= 3 and formable(w):
            node = root
            for ch in cube_spelling(w):
                node = node.setdefault(ch, {})
            node["$"] = w
    return root


def plain_score(letters: str, neighbours: list[list[int]], trie: dict, rules: Rules) -> int:
    """A board's score by plain recursion over the dict trie."""
    found: set[str] = set()

    def walk(cell: int, node: dict, used: int) -> None:
        node = node.get(letters[cell])
        if node is None:
            return
        if "$" in node:
            found.add(node["$"])
        for nb in neighbours[cell]:
            if not used >> nb & 1:
                walk(nb, node, used | 1 << nb)

    for cell in range(len(letters)):
        walk(cell, trie, 1 << cell)
    return sum(rules.word_points(len(w)) for w in found)


def cpu_seconds(fn, repeat: int = REPEAT) -> float:
    """The median process CPU time of `fn()` (one thread: robust to other load on a shared machine)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return sorted(times)[len(times) // 2]


def run() -> dict:
    """Boards per second: kernel on 1 and 2 cores, plain Python DFS, and the ratios."""
    import numba

    if not ENABLE2K.is_file():
        return {"skipped": f"{ENABLE2K} not present"}
    words = ENABLE2K.read_text().upper().split()
    bc = boggle_config(load_config(PROJECT_ROOT / "configs" / "default.toml"))
    rules, dice = bc.rules("standard"), bc.dice_set("new")
    started = time.perf_counter()
    dictionary = compile_dictionary(words, rules)
    compile_seconds = time.perf_counter() - started
    boards = roll(dice, SEED, BOARDS)
    cores = min(2, os.cpu_count() or 1)

    def score_on(threads: int) -> float:
        numba.set_num_threads(threads)
        return median_seconds(lambda: score_boards(boards, 4, 4, dictionary), repeat=REPEAT)

    one = score_on(1)
    one_cpu = cpu_seconds(lambda: score_boards(boards, 4, 4, dictionary))
    two = score_on(cores)
    numba.set_num_threads(cores)
    roll_and_score = median_seconds(lambda: score_boards(roll(dice, SEED + 1, BOARDS), 4, 4, dictionary), repeat=REPEAT)
    scores = score_boards(boards, 4, 4, dictionary).scores

    texts = board_texts(boards[:PLAIN_SAMPLE])
    nbrs, ncount = bg_neighbours(4, 4)
    neighbours = [list(nbrs[c, : ncount[c]]) for c in range(16)]
    trie = plain_trie(words)
    plain_scores: list[int] = []
    plain = median_seconds(
        lambda: plain_scores.__setitem__(slice(None), [plain_score(t, neighbours, trie, rules) for t in texts]),
        repeat=3,
        warmup=0,
    )

    params = SearchParams(5_000, 100.0, 1.0)
    bg_anneal(dictionary, 4, 4, 1, 0, cores, SearchParams(10, 100.0, 1.0))
    anneal = median_seconds(lambda: bg_anneal(dictionary, 4, 4, 1, 0, cores, params), repeat=3, warmup=0)

    per_core = BOARDS / one
    plain_rate = PLAIN_SAMPLE / plain
    return {
        "lexicon": "ENABLE2K (../shared/corpora/enable2k/enable2k.txt)",
        "words": len(words),
        "trie_nodes": dictionary.n_nodes,
        "dictionary_build_seconds": round(compile_seconds, 3),
        "boards": BOARDS,
        "dice": "new",
        "mean_score": round(float(scores.mean()), 3),
        "kernel_boards_per_second_1_core": round(per_core),
        "kernel_boards_per_cpu_second_1_core": round(BOARDS / one_cpu),
        f"kernel_boards_per_second_{cores}_cores": round(BOARDS / two),
        "speedup_2_cores": round(one / two, 3),
        "roll_and_score_boards_per_second": round(BOARDS / roll_and_score),
        "plain_python_sample_boards": PLAIN_SAMPLE,
        "plain_python_boards_per_second": round(plain_rate, 1),
        "kernel_vs_plain_python_per_core": round(per_core / plain_rate, 1),
        "plain_agrees_with_kernel": plain_scores == scores[:PLAIN_SAMPLE].tolist(),
        "anneal_evaluations_per_second": round(cores * params.steps / anneal),
        "targets": {"boards_per_second_per_core": 150_000, "speedup_2_cores": 1.8},
        "seconds": {
            "score_1_core_median": round(one, 4),
            "score_2_cores_median": round(two, 4),
            "plain_sample_median": round(plain, 3),
            "anneal_median": round(anneal, 3),
        },
    }
