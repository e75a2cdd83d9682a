"""Boggle: random boards and word findability, the best-board search, each variant's compiled dictionary."""

from pipeline.core.manifest import Manifest, Stage, Table
from pipeline.core.settings import Setting

SETTINGS = (
    Setting("boggle", "seed", "integer", 0, "seed of the random boards (mixed with each dice set's name)", lo=0),
    Setting("boggle", "boards", "integer", 100_000, "random boards rolled per dice set", lo=1),
    Setting("boggle", "dice_sets", "list", None, "the dice sets rolled (default: every declared dice set)"),
    Setting("boggle", "percentiles", "list", (1, 5, 10, 25, 50, 75, 90, 95, 99),
            "the percentiles of board scores the summary gives", lo=0, hi=100, of=object),
    Setting("boggle", "variants", "table", None,
            "[boggle.variants.NAME]: the shortest word and the points by word length"),
    Setting("boggle", "dice", "table", None, "[boggle.dice.NAME]: a dice set: its size, variant and dice"),
    Setting("boggle", "best", "table", None, "the stage's best-board search"),
    Setting("boggle.best", "seed", "integer", 7, "seed of the searches", lo=0),
    Setting("boggle.best", "runs", "integer", 4, "annealing runs per search", lo=1),
    Setting("boggle.best", "steps", "integer", 4000, "steps per run", lo=1, hi=2**31 - 2),
    Setting("boggle.best", "t_start", "number", 100.0, "the temperature at the first step", lo=1e-6),
    Setting("boggle.best", "t_end", "number", 1.0, "the temperature at the last step (at most t_start)", lo=1e-6),
    Setting("boggle.best", "free", "list", ("4x4",), "grid sizes searched with free letters"),
    Setting("boggle.best", "dice_sets", "list", None,
            "dice sets whose rollable boards are searched (default: the dice sets rolled)"),
)  # fmt: skip

MANIFEST = Manifest(
    "boggle",
    sections=("boggle",),
    stages=(
        Stage(
            "boggle",
            "pipeline.boggle.stage",
            ("words",),
            ("boggle_boards.parquet", "boggle_words.parquet", "boggle_summary.json", "boggle_best.parquet"),
            description="random Boggle boards per dice set, per-word findability, best-board search",
        ),
        Stage(
            "dictionary",
            "pipeline.boggle.dictionary_stage",
            ("words",),
            ("boggle_dictionary.parquet",),
            description="each Boggle variant's compiled dictionary, read by boggle solve and boggle score",
        ),
    ),
    tables=(
        Table(
            "boggle_boards",
            {
                "dice": ("str", "dice set"),
                "seed": ("i64", "seed of the random sequence"),
                "index": ("i32", "board number in the sequence"),
                "board": ("str", "cells in row order"),
                "score": ("i32", "total points of every word on the board"),
                "n_words": ("i32", "number of words"),
                "longest": ("str", "a longest word"),
            },
        ),
        Table(
            "boggle_words",
            {
                "word": ("str", "the word"),
                "dice": ("str", "dice set"),
                "points": ("i32", "points the word scores"),
                "boards_found": ("i32", "boards of the sample that hold it"),
                "find_rate": ("f64", "share of boards that hold it"),
                "expected_points": ("f64", "points per board on average"),
            },
        ),
        Table(
            "boggle_best",
            {
                "search": ("str", "which search"),
                "dice": ("str", "dice set (empty: any letters)"),
                "size": ("str", "rows x columns"),
                "variant": ("str", "rules"),
                "seed": ("i64", "seed of the search"),
                "run": ("i32", "run number"),
                "board": ("str", "cells in row order"),
                "score": ("i32", "total points"),
                "n_words": ("i32", "number of words"),
            },
        ),
        Table(
            "boggle_dictionary",
            {
                "variant": ("str", "the variant's name"),
                "min_length": ("i32", "its shortest word"),
                "points_table": ("list[i32]", "its points by word length"),
                "words": ("list[str]", "the words it scores, in the trie's order"),
                "nodes": ("list[u64]", "the trie's nodes: child letters, points class, first child"),
                "values": ("list[i32]", "the points of each points class"),
                "points": ("list[i32]", "the points of the word ending at each node, 0 when none"),
                "rank": ("list[i32]", "that word's place, longest first then alphabetical"),
                "word_at": ("list[i32]", "that word's index in words, -1 when none"),
                "letter_weights": ("list[f64]", "cumulative counts of each cube letter in the words (+1 each)"),
            },
            row_group_rows=1,
        ),
    ),
    commands={"pipeline.cli.boggle": ("boggle",)},
    warmup=(
        ("boggle", "random", "--sample", "20", "--json"),
        ("boggle", "random", "--sample", "200", "--summary", "--json", "--quiet"),
        ("boggle", "best", "--runs", "2", "--steps", "20", "--json", "--quiet"),
    ),  # `boggle prove` runs no numba kernel (its kernels are C: pipeline.boggle.engine)
    settings=SETTINGS,
)
