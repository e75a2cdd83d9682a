"""The report stage: report.html from every table that exists."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.registry import value
from pipeline.core.settings import read
from pipeline.core.stages import Output, StageContext
from pipeline.report.html import render
from pipeline.report.manifest import SETTINGS
from pipeline.report.model import Section, Skip, Tables
from pipeline.report.plots import png
from pipeline.report.sections import SECTIONS, overview_section


def params(config: Config, spec: LexiconSpec | None) -> dict[str, Any]:
    """The [report] settings: image resolution, rows in top-N tables, the common-word threshold, bins; and the
    [hangman] gallows (misses a game allows), which the Hangman section measures against."""
    return {**read(config.section("report"), SETTINGS), "gallows": value(config, "hangman.gallows")}


def sections(frames: dict[str, pl.DataFrame], p: dict) -> tuple[list[Section], dict[str, str]]:
    """The sections the tables support, and why each other one is left out."""
    t = Tables(frames)
    done, left_out = [overview_section(t, p)], {}
    for make in SECTIONS:
        try:
            done.append(make(t, p))
        except Skip as why:
            left_out[make.__name__.removesuffix("_section")] = str(why)
    return done, left_out


def build(inputs: dict[str, pl.DataFrame], ctx: StageContext) -> dict[str, Output]:
    """The report stage: report.html from every table that exists."""
    import matplotlib

    p = ctx.params
    done, left_out = sections(inputs, p)
    plots = [part for s in done for part in s.parts if part.plot is not None]
    with matplotlib.rc_context(
        {
            "font.family": "DejaVu Sans",
            "font.size": 10,
            "svg.hashsalt": "wordstats",
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    ):
        with ctx.progress.task("drawing plots", total=len(plots)) as bar:
            for part in plots:
                assert part.plot is not None
                part.image = png(part.plot(part.result), p["dpi"])
                bar.advance()
    return ctx.result(report=render(ctx.lexicon, done, left_out))
