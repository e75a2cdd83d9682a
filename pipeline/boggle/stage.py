"""The boggle stage: random boards per dice set, per-word findability, best boards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

from pipeline.boggle.dictionary import Dictionary, compile_dictionary
from pipeline.boggle.jobs import best_job, findability_counts, sample_job
from pipeline.boggle.rules import Board, Dice, parse_size
from pipeline.boggle.sampling import summarise
from pipeline.boggle.settings import BoggleConfig, boggle_config, dice_seed
from pipeline.boggle.solver import Scores, score_boards
from pipeline.core import executor
from pipeline.core.config import Config, LexiconSpec
from pipeline.core.stages import Output, StageContext


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The stage's parameters (recorded in provenance)."""
    bc = boggle_config(config)
    return {
        "seed": bc.seed,
        "boards": bc.boards,
        "dice_sets": {
            name: {
                "size": bc.dice[name].size,
                "variant": bc.dice[name].variant,
                "dice": list(bc.dice[name].faces),
                "seed": dice_seed(bc.seed, name),
            }
            for name in bc.dice_sets
        },
        "variants": {name: {"min_length": r.min_length, "points": list(r.points)} for name, r in bc.variants.items()},
        "percentiles": list(bc.percentiles),
        "best": {
            "seed": bc.best.seed,
            "runs": bc.best.runs,
            "steps": bc.best.params.steps,
            "t_start": bc.best.params.t_start,
            "t_end": bc.best.params.t_end,
            "free": list(bc.best.free),
            "dice_sets": list(bc.best.dice_sets),
        },
    }


def word_of_nodes(dictionary: Dictionary, nodes: np.ndarray) -> list[str | None]:
    """The word ending at each node (None for -1)."""
    return [dictionary.words[dictionary.word_at[n]] if n >= 0 else None for n in nodes.tolist()]


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """Random boards per dice set with their scores, per-word findability, a summary, and the best boards."""
    bc = boggle_config(ctx.config)
    words = inputs["words"]["word"].to_list()
    dictionaries: dict[str, Dictionary] = {}

    def dictionary_for(variant: str) -> Dictionary:
        """The dictionary of a variant, compiled once."""
        if variant not in dictionaries:
            dictionaries[variant] = compile_dictionary(words, bc.rules(variant))
        return dictionaries[variant]

    board_frames, word_frames, summary = [], [], {}
    with executor.engine_session(ctx.cluster) as engine:
        for name in bc.dice_sets:
            dice = bc.dice[name]
            dictionary = dictionary_for(dice.variant)
            seed = dice_seed(bc.seed, name)
            job = sample_job(dice, dictionary, seed, bc.boards)
            tables = executor.run(job, ctx.data_dir, ctx.lexicon, engine, ctx.progress).tables
            boards = tables["boards"]
            result = Scores(
                boards["score"].to_numpy().astype(np.int32),
                boards["n_words"].to_numpy().astype(np.int32),
                boards["longest"].to_numpy(),
                findability_counts(dictionary, tables["words"]),
            )
            board_frames.append(boards_frame(name, seed, boards["board"], result, dictionary))
            word_frames.append(findability(name, words, dictionary, result.node_counts, bc.boards))
            summary[name] = dice_summary(dice, seed, bc, result, board_frames[-1], word_frames[-1])
        best = best_boards(bc, dictionary_for, engine, ctx)
    return ctx.result(
        boggle_boards=pl.concat(board_frames),
        boggle_words=pl.concat(word_frames).sort("dice", "word"),
        boggle_summary={"lexicon": ctx.lexicon, "boards_per_dice_set": bc.boards, "dice_sets": summary},
        boggle_best=best,
    )


def boards_frame(name: str, seed: int, boards: pl.Series, result: Scores, dictionary: Dictionary) -> pl.DataFrame:
    """One row per random board: its dice set, seed, index, letters, score, words and longest word."""
    n = boards.len()
    return pl.DataFrame(
        {
            "dice": pl.Series([name] * n, dtype=pl.String),
            "seed": pl.Series([seed] * n, dtype=pl.Int64),
            "index": pl.Series(np.arange(n, dtype=np.uint32)),
            "board": boards.cast(pl.String),
            "score": pl.Series(result.scores.astype(np.uint32)),
            "n_words": pl.Series(result.n_words.astype(np.uint32)),
            "longest": pl.Series(word_of_nodes(dictionary, result.longest), dtype=pl.String),
        }
    )


def findability(
    name: str, words: list[str], dictionary: Dictionary, node_counts: np.ndarray, n_boards: int
) -> pl.DataFrame:
    """For every word of the lexicon: its points, on how many random boards it was found, and the rates."""
    has = dictionary.word_at >= 0
    found = np.zeros(len(dictionary.words), dtype=np.int64)
    found[dictionary.word_at[has]] = node_counts[has]
    points = np.zeros(len(dictionary.words), dtype=np.int32)
    points[dictionary.word_at[has]] = dictionary.points[has]
    playable = pl.DataFrame(
        {
            "word": pl.Series(dictionary.words, dtype=pl.String),
            "points": pl.Series(points.astype(np.uint8)),
            "boards_found": pl.Series(found.astype(np.uint32)),
        }
    )
    return (
        pl.DataFrame({"word": pl.Series(words, dtype=pl.String)})
        .join(playable, on="word", how="left")
        .select(
            pl.col("word"),
            pl.lit(name, dtype=pl.String).alias("dice"),
            pl.col("points").fill_null(0),
            pl.col("boards_found").fill_null(0),
        )
        .with_columns((pl.col("boards_found").cast(pl.Float64) / n_boards).alias("find_rate"))
        .with_columns((pl.col("find_rate") * pl.col("points")).alias("expected_points"))
    )


def dice_summary(
    dice: Dice, seed: int, bc: BoggleConfig, result: Scores, boards: pl.DataFrame, words: pl.DataFrame
) -> dict:
    """Score statistics of one dice set's random boards, with its rules and the best board rolled."""
    rules = bc.variants[dice.variant]
    stats = summarise(result.scores, bc.percentiles)
    top = int(np.argmax(result.scores))
    return {
        "size": dice.size,
        "variant": dice.variant,
        "min_length": rules.min_length,
        "seed": seed,
        **stats,
        "max_board": boards["board"][top],
        "mean_words": round(float(result.n_words.mean()), 4),
        "distinct_words_found": int((words["boards_found"] > 0).sum()),
    }


def best_boards(
    bc: BoggleConfig, dictionary_for: Callable[[str], Dictionary], engine: executor.Engine, ctx: StageContext
) -> pl.DataFrame:
    """The best board of each seeded annealing run, for free letters and for each dice set (a job each)."""
    searches: list[tuple[str, Dice | None, int, int, str]] = []
    for size in bc.best.free:
        rows, cols = parse_size(size)
        searches.append((f"free {rows}x{cols}", None, rows, cols, "standard"))
    for name in bc.best.dice_sets:
        rolled = bc.dice[name]
        searches.append((f"dice {name}", rolled, rolled.rows, rolled.cols, rolled.variant))
    rows_out = []
    for label, dice, rows, cols, variant in searches:
        dictionary = dictionary_for(variant)
        seed = dice_seed(bc.best.seed, label)
        job = best_job(dictionary, rows, cols, seed, bc.best.runs, bc.best.params, dice)
        runs = executor.run(job, ctx.data_dir, ctx.lexicon, engine, ctx.progress).tables["runs"].to_dicts()
        n_words = score_boards(np.stack([Board(rows, cols, r["board"]).codes for r in runs]), rows, cols, dictionary)
        for r, w in zip(runs, n_words.n_words.tolist()):
            rows_out.append(
                {
                    "search": label,
                    "dice": dice.name if dice else None,
                    "size": f"{rows}x{cols}",
                    "variant": variant,
                    "seed": seed,
                    "run": r["run"],
                    "board": r["board"],
                    "score": r["score"],
                    "n_words": w,
                }
            )
    schema = {
        "search": pl.String,
        "dice": pl.String,
        "size": pl.String,
        "variant": pl.String,
        "seed": pl.Int64,
        "run": pl.UInt32,
        "board": pl.String,
        "score": pl.UInt32,
        "n_words": pl.UInt32,
    }
    return pl.DataFrame(rows_out, schema=schema).sort(["search", "score", "run"], descending=[False, True, False])
