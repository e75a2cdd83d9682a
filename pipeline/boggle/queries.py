"""What the CLI asks of Boggle: a board's dictionary and solution (random boards are a job: boggle.jobs)."""

from __future__ import annotations

import polars as pl

from pipeline.boggle.dictionary import KEYS, TRIE, Dictionary, compile_dictionary, stored_dictionary, trie_only
from pipeline.boggle.rules import Board, Rules
from pipeline.boggle.solver import solve
from pipeline.core.errors import WordstatsError


def store_dictionary(store, rules: Rules, trie: bool = False, buffers: bool = False) -> Dictionary:
    """The Boggle dictionary of a built lexicon's words: the stored one of the dictionary stage when it holds
    these rules, else compiled from the words. With `trie`, its trie alone (`dictionary.trie_only`: what a proof
    reads, a fraction of the table); with `buffers`, the stored one's arrays as buffers, read without numpy (what
    solving boards one by one takes)."""
    if store.exists("boggle_dictionary"):
        try:
            scan = store.scan("boggle_dictionary").filter(pl.col("variant") == rules.name)
            rows = (scan.select(*KEYS, *TRIE) if trie else scan).collect()
            stored = stored_dictionary(rows, rules, buffers)  # the variant's row group alone is read
        except (pl.exceptions.PolarsError, OSError, ValueError, TypeError):
            raise WordstatsError(
                f"{store.path('boggle_dictionary')}: damaged (not the table the dictionary stage writes): rebuild it "
                f"with `wordstats run dictionary --lexicon {store.lexicon}`"
            ) from None
        if stored is not None:
            return stored
    compiled = compile_dictionary(store.read("words", columns=["word"])["word"].to_list(), rules)
    return trie_only(compiled) if trie else compiled


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
