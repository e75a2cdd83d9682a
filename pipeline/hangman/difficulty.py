"""The Hangman difficulty table: misses, ranks and bands per word, and its summary."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import polars as pl

from pipeline.core import stats
from pipeline.hangman.expected import expected_misses
from pipeline.hangman.settings import FREQUENCY_ORDER, Settings, setter_weights
from pipeline.hangman.solver import solve_lexicon
from pipeline.letters.alphabet import LETTERS


def heuristic_score() -> pl.Expr:
    """(distinct letters) × (7 − vowels) × (sum of the distinct letters' places in ETAOINSHRDLCUMWFGYPBVKJXQZ)."""
    mask = pl.col("letter_mask").cast(pl.Int64)
    places = pl.sum_horizontal(
        ((mask // (1 << LETTERS.index(c))) % 2) * (FREQUENCY_ORDER.index(c) + 1) for c in LETTERS
    )
    return pl.col("distinct_letters").cast(pl.Int64) * (7 - pl.col("vowels").cast(pl.Int64)) * places


def thirds(value: pl.Expr, lo: pl.Expr, hi: pl.Expr) -> pl.Expr:
    """easy / medium / hard by which third of [lo, hi] the value falls in (medium when lo = hi)."""
    span, above = hi - lo, (value - lo) * 3
    return (
        pl.when(span == 0)
        .then(pl.lit("medium"))
        .when(above < span)
        .then(pl.lit("easy"))
        .when(above < 2 * span)
        .then(pl.lit("medium"))
        .otherwise(pl.lit("hard"))
    )


OPTIMAL_TABLE = {"optimal_misses": pl.Int32, "optimal_guesses": pl.Int32, "optimal_sequence": pl.String}


def optimal_play(names: list[str], states: int, max_words: int = 1 << 40) -> tuple[pl.DataFrame, dict[int, dict]]:
    """Per word (in the order given), its misses, guesses and letters under the optimal strategy of its length
    (null where the length's search did not prove the optimum within `states`, or the length has more than
    `max_words` words and is not searched), and per length what the search proved: the optimal expected misses,
    or bounds on them."""
    from pipeline.hangman import optimal

    rows: dict[str, tuple] = {}
    proofs: dict[int, dict] = {}
    groups: dict[int, list[str]] = {}
    for name in names:
        groups.setdefault(len(name), []).append(name)
    for length, group in sorted(groups.items()):
        group = sorted(set(group))
        found = optimal.search(group, limit=states) if states and len(group) <= max_words else None
        if found is not None and found.proved:
            assert found.misses is not None and found.guesses is not None
            rows.update(zip(group, zip(found.misses.tolist(), found.guesses.tolist(), found.sequences())))
        proofs[length] = optimal_provenance(found, states, max_words)
    none = (None, None, None)
    table = pl.DataFrame([rows.get(name, none) for name in names], schema=OPTIMAL_TABLE, orient="row")
    return table, proofs


def optimal_provenance(found, states: int, max_words: int) -> dict:
    """What a length's search proved, as hangman_summary.json records it."""
    budget = {"states_budget": states, "max_words": max_words}
    if found is None:
        return {"searched": False, "proved": False, **budget}
    return {
        "searched": True,
        "proved": found.proved,
        "expected_misses": round(found.expected, 6),  # the optimum when proved, else the best strategy found
        "lower_bound": round(found.lower / found.total_weight, 6) if found.total_weight else 0.0,
        "states": found.expanded,
        **budget,
    }


# hardest first within a length: most expected misses, then the deterministic rule's misses and guesses, then word
HARDEST_FIRST = ("length", "expected_misses", "misses", "guesses", "word")
HARDEST_DESCENDING = (False, True, True, True, False)


def difficulty_table(
    words: pl.DataFrame,
    s: Settings,
    optimal: pl.DataFrame | None = None,
    fair: Callable[[], list[float]] | None = None,
) -> pl.DataFrame:
    """hangman.parquet: both solvers, the expected misses over fair tie-breaks, rank, percentile and band within
    the length, the heuristic, and the optimal strategy's games (`optimal`: optimal_play's table for the words in
    word order, else searched here; `fair`: what gives the expected misses of the words in word order, else
    computed here)."""
    words = words.sort("word")
    names = words["word"].to_list()
    if optimal is None:
        optimal = optimal_play(names, s.optimal_states, s.optimal_max_words)[0]
    weights = setter_weights(words["zipf"].to_numpy(), s.prior, s.unknown_zipf)
    plain, weighted = (solve_lexicon(names, prior).drop("word") for prior in (None, weights))
    expected = pl.Series("expected_misses", fair() if fair is not None else expected_misses(names), pl.Float64)
    n = pl.len().over("length")
    # words of the length strictly easier: fewer expected misses over fair tie-breaks
    easier = pl.col("expected_misses").rank("min").over("length").cast(pl.Int64) - 1
    if s.bands == "tertiles":
        band = (
            pl.when(easier * 3 < n)
            .then(pl.lit("easy"))
            .when(easier * 3 < n * 2)
            .then(pl.lit("medium"))
            .otherwise(pl.lit("hard"))
        )
    else:
        band = (
            pl.when(pl.col("expected_misses") <= s.easy_max_misses)
            .then(pl.lit("easy"))
            .when(pl.col("expected_misses") >= s.hard_min_misses)
            .then(pl.lit("hard"))
            .otherwise(pl.lit("medium"))
        )
    table = (
        words.select("word", "length", heuristic_score().alias("heuristic_score"))
        .hstack(plain)
        .hstack([expected])
        .hstack(weighted.rename(lambda column: f"{column}_weighted"))
        .hstack(optimal)
        .sort(HARDEST_FIRST, descending=HARDEST_DESCENDING)
        .with_columns(rank_in_length=pl.int_range(1, pl.len() + 1, dtype=pl.UInt32).over("length"))
        .sort("word")
        .with_columns(
            percentile_in_length=(100.0 * easier / n).round(3),
            band=band,
            heuristic_band=thirds(
                pl.col("heuristic_score"),
                pl.col("heuristic_score").min().over("length"),
                pl.col("heuristic_score").max().over("length"),
            ),
        )
    )
    return table.select(
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
        "guesses_weighted",
        "sequence_weighted",
        pl.col("heuristic_score").cast(pl.Int32),
        "heuristic_band",
        "optimal_misses",
        "optimal_guesses",
        "optimal_sequence",
    )


def spearman(a: pl.Series, b: pl.Series) -> float | None:
    """Spearman rank correlation (average ranks for ties), to 6 decimals; None when undefined (under 3
    words, or constant)."""
    rho = stats.spearman(a, b) if a.len() >= 3 else None
    return None if rho is None else round(rho, 6)


def _mean(values: pl.Series) -> float:
    """The mean of a numeric or boolean column, as a float."""
    return float(cast(float, values.mean()))


def summary(table: pl.DataFrame, s: Settings, proofs: dict[int, dict] | None = None) -> dict:
    """hangman_summary.json: per length, mean misses, share solved within the gallows, hardest words, Spearman,
    and what the optimal search proved (`proofs`, from optimal_play)."""
    lengths = []
    for (length,), group in table.sort("length").group_by("length", maintain_order=True):
        hardest = group.sort("rank_in_length").head(s.summary_hardest)
        lengths.append(
            {
                "length": int(length),
                "words": group.height,
                "mean_misses": round(_mean(group["misses"]), 6),
                "mean_expected_misses": round(_mean(group["expected_misses"]), 6),
                "share_within_gallows": round(_mean(group["misses"] <= s.gallows), 6),
                "max_misses": int(cast(int, group["misses"].max())),
                "mean_misses_weighted": round(_mean(group["misses_weighted"]), 6),
                "heuristic_spearman": spearman(group["heuristic_score"], group["misses"]),
                "hardest": hardest.select("word", "expected_misses", "misses", "guesses", "sequence").to_dicts(),
                "optimal": (proofs or {}).get(int(length), {"searched": False, "proved": False}),
            }
        )
    return {
        "words": table.height,
        "gallows": s.gallows,
        "mean_misses": round(_mean(table["misses"]), 6) if table.height else None,
        "share_within_gallows": round(_mean(table["misses"] <= s.gallows), 6) if table.height else None,
        "lengths": lengths,
        "about": {
            "share_within_gallows": f"share of the words the solver finds with at most {s.gallows} misses",
            "heuristic_spearman": "Spearman rank correlation of heuristic_score with misses among the words of "
            "the length (null under 3 words or when either is constant)",
            "hardest": "the words of rank_in_length 1, 2, ... (most expected misses over fair tie-breaks, then the "
            "deterministic rule's misses and guesses, then word)",
            "mean_expected_misses": "the mean over the words of the length of the greedy guesser's expected misses "
            "when ties between letters are broken uniformly at random (pipeline/hangman/expected.py)",
            "optimal": "the optimal search of the length (the fewest expected misses of any strategy, the setter "
            "picking uniformly): whether it was searched (at most max_words words), whether it proved the optimum "
            "within states_budget states, the expected misses of the best strategy it found (the optimum when "
            "proved) and its proved lower bound",
        },
    }
