"""What each built table's columns are: their kind, a one-line description, and the table's sort order.

Stage outputs are conformed on write (every integer signed: Int32, or Int64 for seeds and counts of
combinations), carry the descriptions and the sort order in the Parquet footer, and are checked on read:
a column of the wrong kind is a damaged table, told in one line with the command that rebuilds it."""

from __future__ import annotations

from typing import Any

import polars as pl

# kind: "str", "int", "float", "bool", "list" (of anything), or "str_list" (a list of strings)
Column = tuple[str, str]

TABLES: dict[str, dict[str, Column]] = {
    "words": {
        "word": ("str", "the word, upper-case A-Z"),
        "length": ("int", "number of letters"),
        "alphagram": ("str", "the word's letters in alphabetical order"),
        "letter_mask": ("int", "bit k set when the word uses letter k (A = bit 0)"),
        "vowels": ("int", "number of vowels (A, E, I, O, U)"),
        "distinct_letters": ("int", "number of different letters"),
        "scrabble_value": ("int", "sum of the word's Scrabble tile values"),
        "zipf": ("float", "English Zipf frequency from wordfreq (0 when unknown)"),
    },
    "anagrams": {
        "alphagram": ("str", "letters in alphabetical order"),
        "length": ("int", "number of letters"),
        "words": ("str_list", "the words made of exactly these letters, sorted"),
        "n_words": ("int", "number of words"),
        "combinations": ("int", "ways to draw these tiles from a full bag"),
        "probability": ("float", "chance that a rack of this size is these tiles"),
        "probability_order": ("int", "rank by probability among alphagrams of this length (1 = likeliest)"),
    },
    "prefixes": {
        "prefix": ("str", "a prefix of at least one word"),
        "length": ("int", "number of letters"),
        "is_word": ("bool", "whether the prefix is itself a word"),
        "n_words": ("int", "number of words that start with it"),
        "next_letters": ("str_list", "letters that can follow it, sorted (empty for a whole word only)"),
    },
    "hooks": {
        "word": ("str", "the word"),
        "front_hooks": ("str_list", "letters that make a word in front of it, sorted"),
        "back_hooks": ("str_list", "letters that make a word behind it, sorted"),
        "front_inner": ("bool", "whether the word minus its first letter is a word"),
        "back_inner": ("bool", "whether the word minus its last letter is a word"),
    },
    "stems": {
        "stem": ("str", "the stem's letters in alphabetical order"),
        "stem_length": ("int", "6 or 7"),
        "letters": ("str_list", "letters that make the stem a bingo, sorted"),
        "n_letters": ("int", "number of such letters"),
        "n_bingos": ("int", "number of bingos over all those letters"),
        "bingos": ("list", "for each letter, the bingos it makes"),
        "has_s": ("bool", "whether the stem holds an S"),
        "stem_probability": ("float", "chance of drawing the stem's tiles"),
        "draw_chance": ("float", "chance of drawing one of the combining letters next"),
        "usefulness": ("float", "stem probability times draw chance"),
        "rank_letters": ("int", "rank by number of letters (1 = most)"),
        "rank_bingos": ("int", "rank by number of bingos"),
        "rank_usefulness": ("int", "rank by usefulness"),
    },
    "hangman": {
        "word": ("str", "the word"),
        "length": ("int", "number of letters"),
        "misses": ("int", "wrong guesses the reference solver makes"),
        "guesses": ("int", "guesses the reference solver makes"),
        "sequence": ("str", "the solver's guesses in order"),
        "rank_in_length": ("int", "rank among words of this length (1 = hardest)"),
        "percentile_in_length": ("float", "percentile among words of this length"),
        "band": ("str", "easy, medium or hard"),
        "misses_weighted": ("int", "wrong guesses of the frequency-weighted solver"),
        "guesses_weighted": ("int", "guesses of the frequency-weighted solver"),
        "sequence_weighted": ("str", "the weighted solver's guesses"),
        "heuristic_score": ("int", "difficulty by letter rarity"),
        "heuristic_band": ("str", "band by the heuristic"),
    },
    "boggle_boards": {
        "dice": ("str", "dice set"),
        "seed": ("int", "seed of the random sequence"),
        "index": ("int", "board number in the sequence"),
        "board": ("str", "cells in row order"),
        "score": ("int", "total points of every word on the board"),
        "n_words": ("int", "number of words"),
        "longest": ("str", "a longest word"),
    },
    "boggle_words": {
        "word": ("str", "the word"),
        "dice": ("str", "dice set"),
        "points": ("int", "points the word scores"),
        "boards_found": ("int", "boards of the sample that hold it"),
        "find_rate": ("float", "share of boards that hold it"),
        "expected_points": ("float", "points per board on average"),
    },
    "boggle_best": {
        "search": ("str", "which search"),
        "dice": ("str", "dice set (empty: any letters)"),
        "size": ("str", "rows x columns"),
        "variant": ("str", "rules"),
        "seed": ("int", "seed of the search"),
        "run": ("int", "run number"),
        "board": ("str", "cells in row order"),
        "score": ("int", "total points"),
        "n_words": ("int", "number of words"),
    },
    "openings": {
        "word": ("str", "the word"),
        "length": ("int", "number of letters"),
        "scrabble_score": ("int", "best opening score in Scrabble"),
        "scrabble_position": ("str", "where that play goes"),
        "scrabble_blanks": ("int", "blanks it needs from a full bag"),
        "scrabble_bingo": ("bool", "whether it uses all seven tiles"),
        "wwf_score": ("int", "best opening score in Words With Friends"),
        "wwf_position": ("str", "where that play goes"),
        "wwf_blanks": ("int", "blanks it needs"),
        "wwf_bingo": ("bool", "whether it uses all seven tiles"),
    },
    "selfplay": {
        "variant": ("str", "game variant"),
        "game": ("int", "game number"),
        "score_1": ("int", "final score of player 1"),
        "score_2": ("int", "final score of player 2"),
        "winner": ("int", "1, 2, or 0 for a tie"),
        "moves": ("int", "number of moves"),
        "move_points": ("int", "points scored by plays"),
        "bingos": ("int", "number of bingos"),
        "exchanges": ("int", "number of exchanges"),
        "passes": ("int", "number of passes"),
        "plays": ("str_list", "the moves in notation"),
    },
}

SORTED_BY: dict[str, list[str]] = {
    "words": ["word"],
    "anagrams": ["alphagram"],
    "prefixes": ["prefix"],
    "hooks": ["word"],
    "hangman": ["word"],
    "openings": ["word"],
}

WIDE = {"seed", "combinations", "letter_mask"}  # integers that keep 64 bits


def _kind_of(dtype: pl.DataType) -> str:
    """A polars type as one of the registry's kinds."""
    if dtype == pl.String:
        return "str"
    if dtype == pl.Boolean:
        return "bool"
    if dtype.is_integer():
        return "int"
    if dtype.is_float():
        return "float"
    if isinstance(dtype, (pl.List, pl.Array)):
        return "str_list" if dtype.inner == pl.String else "list"
    return str(dtype)


KIND_NAMES = {
    "str": "a string",
    "int": "an integer",
    "float": "a float",
    "bool": "a boolean",
    "list": "a list",
    "str_list": "a list of strings",
}


def wrong_kind(table: str, schema: dict[str, Any]) -> tuple[str, str, str] | None:
    """The first known column of `table` whose type is not of its kind: (column, expected kind as words, found)."""
    for column, dtype in schema.items():
        expected = TABLES.get(table, {}).get(column)
        if expected is None:
            continue
        found = _kind_of(dtype)
        if found != expected[0] and not (expected[0] == "list" and found == "str_list"):
            return column, KIND_NAMES[expected[0]], str(dtype)
    return None


def conform(table: str, df: pl.DataFrame) -> pl.DataFrame:
    """A stage output with every integer column signed: Int64 for WIDE columns, Int32 for the rest."""
    casts = []
    for name, dtype in df.schema.items():
        if dtype.is_integer():
            target = pl.Int64 if name in WIDE or dtype in (pl.Int64, pl.UInt64) else pl.Int32
            if dtype != target:
                casts.append(pl.col(name).cast(target))
    return df.with_columns(casts) if casts else df


def footer(table: str, df: pl.DataFrame) -> dict[str, Any]:
    """Footer entries for a table: each known column's description, and the sort order when the rows keep it."""
    known = TABLES.get(table, {})
    out: dict[str, Any] = {"columns": {c: known[c][1] for c in df.columns if c in known}}
    keys = [k for k in SORTED_BY.get(table, []) if k in df.columns]
    if keys and df.height and df[keys[0]].is_sorted():
        out["sorted_by"] = keys
    return out
