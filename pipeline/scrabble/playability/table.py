"""The top words of a playability table (pipeline.words.playability) and how stable their ranking is between the two
halves of the games."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from pipeline.core.stats import spearman

STABILITY_TOP = 10_000  # the stability measure ranks this many of the top words
TOP_SHOWN = 20  # words of the summary's top list


def top_words(table: pl.DataFrame, n: int) -> pl.DataFrame:
    """The n words of highest playability (alphabetical among equals), that have any."""
    return table.filter(pl.col("playability") > 0).sort(["rank", "word"]).head(n)


@dataclass(frozen=True)
class Stability:
    """Spearman's rank correlation of the top words' playability between the two halves of the games."""

    words: int  # the top words compared (at most STABILITY_TOP; only words of positive playability)
    spearman: float | None  # None when fewer than two words or a half gives them all one value

    def as_dict(self) -> dict:
        """For the summary."""
        return {"top_words": self.words, "spearman": self.spearman}


def stability(losses: pl.DataFrame, table: pl.DataFrame, top: int = STABILITY_TOP) -> Stability:
    """How alike the two halves of the games rank the `top` words of the whole run."""
    chosen = top_words(table, top).select("word")
    halves = chosen.join(
        losses.pivot(on="half", index="word", values="milli", aggregate_function="sum"), on="word", how="left"
    ).fill_null(0)
    columns = [halves[c].to_numpy() if c in halves.columns else np.zeros(halves.height) for c in ("0", "1")]
    return Stability(chosen.height, spearman(*columns))


def summary(table: pl.DataFrame, losses: pl.DataFrame, games: int, variant: str, seed: int) -> dict:
    """What the run found: its games, the top words, and the stability of the ranking."""
    top = top_words(table, TOP_SHOWN)
    return {
        "variant": variant,
        "games": games,
        "seed": seed,
        "words_needed": int((table["playability"] > 0).sum()),
        "top": [
            {"word": w, "playability": p, "turns": t, "rank": r}
            for w, p, t, r in top.select("word", "playability", "turns", "rank").iter_rows()
        ],
        "stability": stability(losses, table).as_dict(),
    }
