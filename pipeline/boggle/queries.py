"""What the CLI asks of Boggle: a board's solution, random-board summaries."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from pipeline.boggle.dictionary import Dictionary, compile_dictionary
from pipeline.boggle.rules import Board, Dice, Rules
from pipeline.boggle.sampling import random_boards, summarise
from pipeline.boggle.solver import board_texts, solve


def store_dictionary(store, rules: Rules) -> Dictionary:
    """The Boggle dictionary of a built lexicon's words."""
    return compile_dictionary(store.read("words", columns=["word"])["word"].to_list(), rules)


def solution(board: Board, dictionary: Dictionary, paths: bool = False) -> dict:
    """The board, its score and its words with points (and paths as [row, col] pairs when asked)."""
    found = solve(board, dictionary, paths)
    words = []
    for f in found:
        entry: dict = {"word": f.word, "points": f.points}
        if paths:
            entry["path"] = [[cell // board.cols, cell % board.cols] for cell in f.path]
        words.append(entry)
    return {"board": board.letters, "size": board.size, "score": sum(f.points for f in found), "words": words}


def random_summary(
    dice: Dice, dictionary: Dictionary, seed: int, count: int, percentiles: Sequence[float], progress=None
) -> dict:
    """Roll and score `count` boards in chunks: score statistics, the best board, and boards per second."""
    scores = np.empty(count, dtype=np.int32)
    best_board, best_score, done = "", -1, 0
    started = time.perf_counter()
    for boards, result in random_boards(dice, dictionary, seed, count, on_chunk=progress):
        scores[done : done + boards.shape[0]] = result.scores
        top = int(np.argmax(result.scores))
        if result.scores[top] > best_score:
            best_score, best_board = int(result.scores[top]), board_texts(boards[top : top + 1])[0]
        done += boards.shape[0]
    seconds = time.perf_counter() - started
    return {
        "dice": dice.name,
        "size": dice.size,
        "seed": seed,
        "min_length": dictionary.rules.min_length,
        **summarise(scores, percentiles),
        "max_board": best_board,
        "seconds": round(seconds, 3),
        "boards_per_second": round(count / seconds) if seconds > 0 else None,
    }
