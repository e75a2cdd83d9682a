"""The report's plots (matplotlib), as PNG."""

from __future__ import annotations

import io

import polars as pl


def new_figure(height: float = 3.4):
    """A matplotlib figure that belongs to no GUI (no pyplot state)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(8, height), layout="constrained")


def integer_ticks(axis) -> None:
    """Whole-number tick labels on an axis of lengths or counts."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def plot_lengths(df: pl.DataFrame):
    """Bars: words per length, common words in front."""
    fig = new_figure()
    ax = fig.subplots()
    ax.bar(df["length"], df["words"], color="#9bb8d3", label="all words")
    ax.bar(df["length"], df["common_words"], color="#1f5f99", label="common words")
    ax.set_xlabel("letters")
    ax.set_ylabel("words")
    ax.set_title("Word length distribution")
    ax.legend(frameon=False)
    integer_ticks(ax.xaxis)
    return fig


def plot_family_sizes(df: pl.DataFrame):
    """Bars: alphagrams per family size, log scale."""
    fig = new_figure()
    ax = fig.subplots()
    ax.bar(df["n_words"], df["alphagrams"], color="#6a8f3a")
    ax.set_yscale("log")
    ax.set_xlabel("words in the family")
    ax.set_ylabel("alphagrams (log scale)")
    ax.set_title("Anagram family sizes")
    integer_ticks(ax.xaxis)
    return fig


def plot_stems(df: pl.DataFrame):
    """Horizontal bars: combining letters of the top stems."""
    fig = new_figure(0.9 + 0.28 * max(df.height, 1))
    ax = fig.subplots()
    ax.barh(df["stem"].to_list()[::-1], df["n_letters"].to_list()[::-1], color="#b5651d")
    ax.set_xlabel("letters that make a bingo")
    ax.set_title("Top bingo stems")
    integer_ticks(ax.xaxis)
    return fig


def step_lines(
    df: pl.DataFrame, by: str, x: str, y: str, xlabel: str, ylabel: str, title: str, legend: str | None = None
):
    """Step lines of y over x, one per value of column `by`."""
    fig = new_figure()
    ax = fig.subplots()
    for key in df[by].unique(maintain_order=True):
        part = df.filter(pl.col(by) == key)
        ax.step(part[x], part[y], where="post", label=str(key))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(frameon=False, title=legend)
    return fig


def plot_histogram(df: pl.DataFrame):
    """Step lines: boards per score bin, one per dice set."""
    return step_lines(
        df,
        "dice",
        "bin",
        "boards",
        "board score (points)",
        "boards",
        "Boggle score histogram per dice set",
        legend="dice",
    )


def plot_findable(df: pl.DataFrame):
    """Horizontal bars: find rate of the most findable words."""
    fig = new_figure(0.9 + 0.28 * max(df.height, 1))
    ax = fig.subplots()
    labels = [f"{w} ({d})" for w, d in zip(df["word"], df["dice"])] if "dice" in df.columns else df["word"].to_list()
    ax.barh(labels[::-1], df["find_rate"].to_list()[::-1], color="#7a4f9a")
    ax.set_xlabel("share of random boards that contain the word")
    ax.set_title("The most findable Boggle words")
    return fig


def plot_misses(df: pl.DataFrame, gallows: int):
    """Lines: mean and most misses per word length, and the gallows (the misses a game allows)."""
    fig = new_figure()
    ax = fig.subplots()
    ax.plot(df["length"], df["mean_misses"], marker="o", color="#a23b3b", label="mean misses")
    ax.plot(df["length"], df["most_misses"], marker="s", color="#e0a0a0", label="most misses")
    ax.axhline(gallows, color="#888888", linestyle=":", linewidth=1, label=f"{gallows} misses: gallows complete")
    ax.set_xlabel("word length (letters)")
    ax.set_ylabel("misses")
    ax.set_title("Hangman misses by word length")
    ax.legend(frameon=False)
    integer_ticks(ax.xaxis)
    return fig


def plot_optimal(df: pl.DataFrame):
    """Mean misses per word length: the greedy solver's, and the optimal strategy's where its search proved it;
    below, the share of misses the optimal strategy saves."""
    fig = new_figure(4.6)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    proved = df.filter(pl.col("optimal_mean_misses").is_not_null())
    top.plot(df["length"], df["greedy_mean_misses"], marker="o", color="#a23b3b", label="greedy solver")
    top.plot(proved["length"], proved["optimal_mean_misses"], "s", color="#1f5f99", label="optimal strategy (proved)")
    top.set_ylabel("mean misses")
    top.set_title("Greedy against optimal Hangman guessing by word length")
    top.legend(frameon=False)
    saved = proved.filter(pl.col("greedy_mean_misses") > 0)
    share = 100 * (1 - saved["optimal_mean_misses"] / saved["greedy_mean_misses"])
    bottom.bar(saved["length"], share, color="#1f5f99")
    bottom.set_ylabel("misses saved (%)")
    bottom.set_xlabel("word length (letters); lengths without a square were not proved")
    integer_ticks(bottom.xaxis)
    return fig


def plot_hardest(df: pl.DataFrame):
    """The hardest word's misses per word length by three measures: the optimal strategy (where proved), the greedy
    solver with fair tie-breaks (expected misses), and with ties broken alphabetically."""
    fig = new_figure(3.6)
    ax = fig.subplots()
    proved = df.filter(pl.col("optimal_most").is_not_null())
    ax.plot(df["length"], df["greedy_most"], marker="o", color="#a23b3b", label="greedy, ties A-first")
    ax.plot(df["length"], df["fair_most"], marker="^", color="#c98a1b", label="greedy, fair ties (expected)")
    ax.plot(proved["length"], proved["optimal_most"], "s", color="#1f5f99", label="optimal strategy (proved)")
    ax.set_ylabel("misses on the hardest word")
    ax.set_xlabel("word length (letters); lengths without a square were not proved")
    ax.set_title("The hardest word of each length, by three measures")
    ax.legend(frameon=False)
    integer_ticks(ax.xaxis)
    return fig


def plot_openings(df: pl.DataFrame):
    """Step lines: words per best opening score, one per game."""
    return step_lines(
        df, "game", "score_from", "words", "best opening score (points)", "words", "Best opening scores per game"
    )


def png(fig, dpi: int) -> bytes:
    """A figure as PNG bytes with no timestamp or software tag, so the same data give the same bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()
