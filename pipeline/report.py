"""The report stage: one self-contained HTML page with the key numbers and plots of every table that exists.

Every number and every plotted value comes from an SQL query over the tables; the page shows each query
next to its numbers (so `wordstats sql "..."` reproduces them) and embeds all results as JSON.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from dataclasses import dataclass, field
from typing import Callable

import polars as pl

from pipeline import __version__


def params(config, spec) -> dict:
    """The [report] settings: image resolution, rows in top-N tables, the common-word threshold, bins."""
    sec = config.section("report")
    sec.allow("dpi", "top", "common_zipf", "bins")
    return {
        "dpi": sec.int("dpi", 100, lo=50, hi=300),
        "top": sec.int("top", 15, lo=1, hi=100),
        "common_zipf": sec.float("common_zipf", 3.0, lo=0, hi=8),
        "bins": sec.int("bins", 40, lo=5, hi=200),
    }


# ---- the model: sections made of queries ------------------------------------------------------------

@dataclass
class Part:
    """One query of a section, its result, and how the page shows it."""

    key: str
    caption: str
    sql: str
    result: pl.DataFrame
    show: str = "table"  # "figures" (key numbers), "table", or "plot" (a picture, data folded away)
    plot: Callable[[pl.DataFrame], object] | None = None
    image: bytes | None = None


@dataclass
class Section:
    """A part of the page about one table."""

    key: str
    title: str
    table: str
    about: str
    parts: list[Part] = field(default_factory=list)


class Skip(Exception):
    """A section that cannot be drawn from the tables at hand (the reason says why)."""


class Tables:
    """The input tables, queried with polars SQL under their file stems."""

    def __init__(self, frames: dict[str, pl.DataFrame]):
        self.frames = frames
        self.ctx = pl.SQLContext({name: df.lazy() for name, df in frames.items()})

    def need(self, name: str, *columns: str) -> None:
        """Skip the section unless table `name` exists with these columns."""
        if name not in self.frames:
            raise Skip(f"{name}.parquet is not built")
        missing = [c for c in columns if c not in self.frames[name].columns]
        if missing:
            raise Skip(f"{name}.parquet has no column {', '.join(missing)}")

    def part(self, key: str, caption: str, sql: str, show: str = "table", plot=None) -> Part:
        """Run one query and wrap its result."""
        sql = " ".join(sql.split())
        return Part(key, caption, sql, self.ctx.execute(sql, eager=True), show, plot)


# ---- sections ---------------------------------------------------------------------------------------

def overview_section(t: Tables, p: dict) -> Section:
    """How many rows each table has."""
    union = " UNION ALL ".join(f"SELECT '{name}.parquet' AS table_name, count(*) AS rows FROM {name}"
                               for name in t.frames)
    s = Section("overview", "Tables", "every table", "The tables this report reads and their sizes.")
    s.parts.append(t.part("rows", "Rows per table", f"SELECT * FROM ({union}) ORDER BY table_name"))
    return s


def words_section(t: Tables, p: dict) -> Section:
    """The lexicon: size, word lengths, common words."""
    t.need("words", "word", "length", "zipf")
    z = p["common_zipf"]
    s = Section("words", "Words", "words.parquet",
                f"The lexicon after ingest. Common words have a Zipf frequency of at least {z:g} (wordfreq).")
    s.parts.append(t.part("summary", "Key numbers", f"""
        SELECT count(*) AS words, round(avg(length), 2) AS mean_length, max(length) AS longest,
               sum(CASE WHEN zipf >= {z} THEN 1 ELSE 0 END) AS common_words FROM words""", show="figures"))
    s.parts.append(t.part("lengths", "Word length distribution", f"""
        SELECT length, count(*) AS words, sum(CASE WHEN zipf >= {z} THEN 1 ELSE 0 END) AS common_words
        FROM words GROUP BY length ORDER BY length""", show="plot", plot=plot_lengths))
    s.parts.append(t.part("longest", "The longest words", f"""
        SELECT word, length, zipf FROM words ORDER BY length DESC, word LIMIT {min(p['top'], 10)}"""))
    return s


def anagrams_section(t: Tables, p: dict) -> Section:
    """Anagram families: how many, how big, the largest and the most probable."""
    t.need("anagrams", "alphagram", "length", "words", "n_words", "probability", "probability_order")
    s = Section("anagrams", "Anagram families", "anagrams.parquet",
                "One row per alphagram (the word's letters sorted); a family is an alphagram with two or more words.")
    s.parts.append(t.part("summary", "Key numbers", """
        SELECT count(*) AS alphagrams, sum(CASE WHEN n_words >= 2 THEN 1 ELSE 0 END) AS families,
               max(n_words) AS largest_family FROM anagrams""", show="figures"))
    s.parts.append(t.part("sizes", "Anagram family sizes", """
        SELECT n_words, count(*) AS alphagrams FROM anagrams GROUP BY n_words ORDER BY n_words""",
                          show="plot", plot=plot_family_sizes))
    s.parts.append(t.part("largest", "The largest families", f"""
        SELECT alphagram, n_words, words FROM anagrams ORDER BY n_words DESC, alphagram LIMIT {min(p['top'], 10)}"""))
    s.parts.append(t.part("probable7", "The most probable seven-letter racks that make words", f"""
        SELECT alphagram, words, probability_order FROM anagrams WHERE length = 7
        ORDER BY probability_order LIMIT {min(p['top'], 10)}"""))
    return s


def stems_section(t: Tables, p: dict) -> Section:
    """Bingo stems: how many, and the ones that combine with the most letters."""
    t.need("stems", "stem", "stem_length", "letters", "n_letters", "n_bingos")
    s = Section("stems", "Bingo stems", "stems.parquet",
                "Six- and seven-letter stems and the letters that turn them into bingos.")
    s.parts.append(t.part("summary", "Stems per length", """
        SELECT stem_length, count(*) AS stems, max(n_letters) AS most_letters, max(n_bingos) AS most_bingos
        FROM stems GROUP BY stem_length ORDER BY stem_length"""))
    for n in (6, 7):
        s.parts.append(t.part(f"top{n}", f"Top {n}-letter stems by combining letters", f"""
            SELECT stem, n_letters, n_bingos, letters FROM stems WHERE stem_length = {n}
            ORDER BY n_letters DESC, n_bingos DESC, stem LIMIT {p['top']}""", show="plot", plot=plot_stems))
    return s


def boggle_section(t: Tables, p: dict) -> Section:
    """Random Boggle boards: scores per dice set."""
    t.need("boggle_boards", "dice", "score", "n_words", "longest")
    best = int(t.frames["boggle_boards"]["score"].max() or 0)
    width = max(1, math.ceil((best + 1) / p["bins"]))
    s = Section("boggle", "Boggle boards", "boggle_boards.parquet",
                "Random boards rolled from each dice set and scored with the lexicon.")
    s.parts.append(t.part("summary", "Scores per dice set", """
        SELECT dice, count(*) AS boards, round(avg(score), 1) AS mean_score, median(score) AS median_score,
               max(score) AS best_score, round(avg(n_words), 1) AS mean_words,
               max(length(longest)) AS longest_word_letters
        FROM boggle_boards GROUP BY dice ORDER BY dice"""))
    s.parts.append(t.part("histogram", f"Score histogram per dice set (bins of {width} points)", f"""
        SELECT dice, CAST(floor(score / {width}) * {width} AS INTEGER) AS bin, count(*) AS boards
        FROM boggle_boards GROUP BY dice, bin ORDER BY dice, bin""", show="plot", plot=plot_histogram))
    return s


def boggle_words_section(t: Tables, p: dict) -> Section:
    """Which words turn up most often on random Boggle boards."""
    t.need("boggle_words", "word", "boards_found", "find_rate")
    s = Section("boggle_words", "Findable Boggle words", "boggle_words.parquet",
                "The share of random boards on which each word can be traced.")
    per_dice = "dice" in t.frames["boggle_words"].columns  # one rate per word and dice set
    stats = ("count(*) AS words, sum(CASE WHEN boards_found > 0 THEN 1 ELSE 0 END) AS words_ever_found, "
             "max(find_rate) AS best_find_rate")
    if per_dice:
        s.parts.append(t.part("summary", "Key numbers per dice set",
                              f"SELECT dice, {stats} FROM boggle_words GROUP BY dice ORDER BY dice"))
    else:
        s.parts.append(t.part("summary", "Key numbers", f"SELECT {stats} FROM boggle_words", show="figures"))
    dice = "dice, " if per_dice else ""
    s.parts.append(t.part("top", "The most findable words", f"""
        SELECT {dice}word, find_rate, boards_found FROM boggle_words
        ORDER BY find_rate DESC, word{', dice' if per_dice else ''} LIMIT {p['top']}""",
                          show="plot", plot=plot_findable))
    return s


def hangman_section(t: Tables, p: dict) -> Section:
    """Hangman: how many misses the reference solver makes, by word length."""
    t.need("hangman", "word", "length", "misses", "guesses", "sequence")
    s = Section("hangman", "Hangman difficulty", "hangman.parquet",
                "Misses the reference solver makes on each word (it knows the lexicon and guesses the letter "
                "least likely to miss). Six misses complete a classic gallows.")
    s.parts.append(t.part("summary", "Key numbers", """
        SELECT count(*) AS words, round(avg(misses), 2) AS mean_misses, max(misses) AS most_misses,
               sum(CASE WHEN misses <= 6 THEN 1 ELSE 0 END) AS solved_within_6_misses FROM hangman""",
                          show="figures"))
    s.parts.append(t.part("by_length", "Hangman misses by word length", """
        SELECT length, count(*) AS words, round(avg(misses), 2) AS mean_misses, max(misses) AS most_misses,
               round(avg(CASE WHEN misses <= 6 THEN 1.0 ELSE 0.0 END), 4) AS share_within_6
        FROM hangman GROUP BY length ORDER BY length""", show="plot", plot=plot_misses))
    s.parts.append(t.part("hardest", "The hardest words", f"""
        SELECT word, length, misses, guesses, sequence FROM hangman
        ORDER BY misses DESC, guesses DESC, word LIMIT {min(p['top'], 10)}"""))
    return s


def openings_section(t: Tables, p: dict) -> Section:
    """Scrabble and Words With Friends: the best opening-move score of each word."""
    t.need("openings", "word")
    columns = opening_score_columns(t.frames["openings"])
    if not columns:
        raise Skip("openings.parquet has no score columns")
    s = Section("openings", "Opening scores", "openings.parquet",
                "The best score each word earns as the first move on an empty board.")
    stats = ", ".join(f"round(avg({c}), 1) AS mean_{c}, max({c}) AS best_{c}" for c in columns)
    s.parts.append(t.part("summary", "Key numbers", f"SELECT count(*) AS words, {stats} FROM openings",
                          show="figures"))
    width = 5
    scores = " UNION ALL ".join(
        f"SELECT '{c.replace('_score', '').replace('score_', '')}' AS game, "
        f"CAST(floor({c} / {width}) * {width} AS INTEGER) AS score_from, count(*) AS words FROM openings "
        f"WHERE {c} IS NOT NULL GROUP BY score_from" for c in columns)
    s.parts.append(t.part("histogram", f"Best opening scores (bins of {width} points)",
                          f"SELECT * FROM ({scores}) ORDER BY game, score_from", show="plot", plot=plot_openings))
    first = columns[0]
    s.parts.append(t.part("top", f"The best openings ({first})", f"""
        SELECT word, {', '.join(columns)} FROM openings ORDER BY {first} DESC, word LIMIT {min(p['top'], 10)}"""))
    return s


def opening_score_columns(df: pl.DataFrame) -> list[str]:
    """The best-score columns of the openings table, one per game (names containing 'score')."""
    return [c for c, dtype in df.schema.items() if "score" in c and dtype.is_numeric()]


SECTIONS: tuple[Callable[[Tables, dict], Section], ...] = (
    words_section, anagrams_section, stems_section, boggle_section, boggle_words_section, hangman_section,
    openings_section,
)


# ---- plots -------------------------------------------------------------------------------------------

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


def step_lines(df: pl.DataFrame, by: str, x: str, y: str, xlabel: str, ylabel: str, title: str,
               legend: str | None = None):
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
    return step_lines(df, "dice", "bin", "boards", "board score (points)", "boards",
                      "Boggle score histogram per dice set", legend="dice")


def plot_findable(df: pl.DataFrame):
    """Horizontal bars: find rate of the most findable words."""
    fig = new_figure(0.9 + 0.28 * max(df.height, 1))
    ax = fig.subplots()
    labels = [f"{w} ({d})" for w, d in zip(df["word"], df["dice"])] if "dice" in df.columns else df["word"].to_list()
    ax.barh(labels[::-1], df["find_rate"].to_list()[::-1], color="#7a4f9a")
    ax.set_xlabel("share of random boards that contain the word")
    ax.set_title("The most findable Boggle words")
    return fig


def plot_misses(df: pl.DataFrame):
    """Lines: mean and most misses per word length, and the six-miss gallows."""
    fig = new_figure()
    ax = fig.subplots()
    ax.plot(df["length"], df["mean_misses"], marker="o", color="#a23b3b", label="mean misses")
    ax.plot(df["length"], df["most_misses"], marker="s", color="#e0a0a0", label="most misses")
    ax.axhline(6, color="#888888", linestyle=":", linewidth=1, label="6 misses: gallows complete")
    ax.set_xlabel("word length (letters)")
    ax.set_ylabel("misses")
    ax.set_title("Hangman misses by word length")
    ax.legend(frameon=False)
    integer_ticks(ax.xaxis)
    return fig


def plot_openings(df: pl.DataFrame):
    """Step lines: words per best opening score, one per game."""
    return step_lines(df, "game", "score_from", "words", "best opening score (points)", "words",
                      "Best opening scores per game")


def png(fig, dpi: int) -> bytes:
    """A figure as PNG bytes with no timestamp or software tag, so the same data give the same bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


# ---- the stage ----------------------------------------------------------------------------------------

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


def build(inputs: dict[str, pl.DataFrame], ctx) -> dict[str, object]:
    """The report stage: report.html from every table that exists."""
    import matplotlib

    p = ctx.params
    done, left_out = sections(inputs, p)
    plots = [part for s in done for part in s.parts if part.plot is not None]
    with matplotlib.rc_context({"font.family": "DejaVu Sans", "font.size": 10, "svg.hashsalt": "wordstats",
                                "axes.spines.top": False, "axes.spines.right": False}):
        with ctx.progress.task("drawing plots", total=len(plots)) as bar:
            for part in plots:
                part.image = png(part.plot(part.result), p["dpi"])
                bar.advance()
    return {"report.html": render(ctx.lexicon, done, left_out)}


# ---- HTML ---------------------------------------------------------------------------------------------

STYLE = """
body { font-family: "DejaVu Sans", "Helvetica", "Arial", sans-serif; margin: 0 auto; max-width: 1100px;
       padding: 1.5em 2em 4em; color: #1d1d1d; line-height: 1.45; }
h1 { margin-bottom: 0.1em; } h2 { border-bottom: 2px solid #ddd; padding-bottom: 0.2em; margin-top: 2.2em; }
h3 { margin: 1.4em 0 0.4em; font-size: 1.05em; }
.source { color: #666; font-size: 0.9em; margin-top: -0.5em; }
nav a { margin-right: 1em; }
.figures { display: flex; flex-wrap: wrap; gap: 0.8em; margin: 0.6em 0; }
.figure { background: #f3f6fa; border-radius: 8px; padding: 0.6em 1em; min-width: 9em; }
.figure .value { font-size: 1.6em; font-weight: bold; color: #1f5f99; display: block; }
.figure .label { font-size: 0.85em; color: #555; }
table { border-collapse: collapse; margin: 0.4em 0; font-size: 0.92em; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #e3e3e3; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f6f6f6; }
img { width: 100%; max-width: 860px; height: auto; display: block; margin: 0.4em 0; }
pre { background: #f7f7f2; border-left: 3px solid #c8c8a8; padding: 0.5em 0.8em; overflow-x: auto;
      white-space: pre-wrap; font-size: 0.85em; margin: 0.3em 0; }
details summary { cursor: pointer; color: #555; font-size: 0.9em; }
.left-out { color: #666; font-size: 0.9em; }
"""


def fmt(value) -> str:
    """A value as page text: thousands separators, short floats, lists joined by spaces."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value != 0 and abs(value) < 0.001:
            return f"{value:.3g}"
        return f"{value:,.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):,}"
    if isinstance(value, (list, tuple)):
        return " ".join(fmt(v) for v in value)
    return str(value)


def cell(part: Part, section: str, column: str, row: int, value, tag: str = "td") -> str:
    """A table cell; numbers carry their exact value and where it came from in data attributes."""
    text = html.escape(fmt(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        ref = f'data-ref="{section}.{part.key}" data-column="{html.escape(column)}" data-row="{row}"'
        return f'<{tag} class="num" {ref} data-value="{value!r}">{text}</{tag}>'
    return f"<{tag}>{text}</{tag}>"


def render_table(section: str, part: Part) -> str:
    """A query result as an HTML table."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in part.result.columns)
    rows = ["<tr>" + "".join(cell(part, section, c, i, v) for c, v in zip(part.result.columns, r)) + "</tr>"
            for i, r in enumerate(part.result.rows())]
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def render_figures(section: str, part: Part) -> str:
    """A one-row result as big key numbers."""
    row = part.result.row(0) if part.result.height else [None] * part.result.width
    items = []
    for column, value in zip(part.result.columns, row):
        ref = f'data-ref="{section}.{part.key}" data-column="{html.escape(column)}" data-row="0"'
        items.append(f'<div class="figure"><span class="value num" {ref} data-value="{value!r}">'
                     f'{html.escape(fmt(value))}</span><span class="label">{html.escape(column.replace("_", " "))}'
                     f"</span></div>")
    return f'<div class="figures">{"".join(items)}</div>'


def render_part(section: Section, part: Part, lexicon: str) -> str:
    """One query: its caption, numbers or picture, and the SQL that reproduces it."""
    out = [f"<h3>{html.escape(part.caption)}</h3>"]
    if part.show == "figures":
        out.append(render_figures(section.key, part))
    elif part.show == "plot":
        data = base64.b64encode(part.image or b"").decode("ascii")
        out.append(f'<img alt="{html.escape(part.caption)}" src="data:image/png;base64,{data}">')
        out.append(f"<details><summary>Data ({part.result.height} rows)</summary>"
                   f"{render_table(section.key, part)}</details>")
    else:
        out.append(render_table(section.key, part))
    command = f'wordstats sql "{part.sql}" --lexicon {lexicon}'
    out.append(f"<details><summary>Query</summary><pre><code>{html.escape(command)}</code></pre></details>")
    return "\n".join(out)


def report_data(lexicon: str, done: list[Section], left_out: dict[str, str]) -> dict:
    """Everything the page shows, as JSON: each query's SQL and result rows."""
    return {
        "lexicon": lexicon,
        "version": __version__,
        "sections": {
            s.key: {"table": s.table, "parts": {
                part.key: {"sql": part.sql, "columns": part.result.columns,
                           "rows": [list(r) for r in part.result.rows()]} for part in s.parts}}
            for s in done
        },
        "left_out": left_out,
    }


def render(lexicon: str, done: list[Section], left_out: dict[str, str]) -> str:
    """The whole page: header, contents, sections, what was left out, and the data as JSON."""
    e = html.escape
    nav = " ".join(f'<a href="#{s.key}">{e(s.title)}</a>' for s in done)
    body = []
    for s in done:
        body.append(f'<section id="{s.key}"><h2>{e(s.title)}</h2>'
                    f'<p class="source">Source: <code>{e(s.table)}</code>. {e(s.about)}</p>')
        body += [render_part(s, part, lexicon) for part in s.parts]
        body.append("</section>")
    if left_out:
        items = "".join(f"<li><b>{e(k)}</b>: {e(v)}</li>" for k, v in left_out.items())
        body.append(f'<section id="left-out"><h2>Not in this report</h2><p class="left-out">These sections '
                    f"need tables that are not built yet (run <code>make all</code>):</p><ul class=\"left-out\">"
                    f"{items}</ul></section>")
    data = json.dumps(report_data(lexicon, done, left_out), ensure_ascii=True, sort_keys=True, default=str)
    data = data.replace("</", "<\\/")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>wordstats report: {e(lexicon)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>wordstats report: {e(lexicon)}</h1>",
        f'<p class="source">wordstats {e(__version__)}. Each number comes from the SQL query shown under it; '
        f"run it with <code>wordstats sql</code> to reproduce it. All results are also embedded as JSON "
        f'(<code>script#report-data</code>).</p>',
        f"<nav>{nav}</nav>",
        *body,
        f'<script type="application/json" id="report-data">{data}</script>',
        "</body></html>",
    ]) + "\n"
