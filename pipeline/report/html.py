"""The report as one HTML page."""

from __future__ import annotations

import base64
import html
import json

from pipeline import __version__
from pipeline.report.model import Part, Section

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
    """A value as page text: thousands separators, short floats, lists joined by spaces (a set of letters run
    together: DST)."""
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
        from pipeline.core.display import list_text

        return list_text(value, fmt)
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
    rows = [
        "<tr>" + "".join(cell(part, section, c, i, v) for c, v in zip(part.result.columns, r)) + "</tr>"
        for i, r in enumerate(part.result.rows())
    ]
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def render_figures(section: str, part: Part) -> str:
    """A one-row result as big key numbers."""
    row = part.result.row(0) if part.result.height else [None] * part.result.width
    items = []
    for column, value in zip(part.result.columns, row):
        ref = f'data-ref="{section}.{part.key}" data-column="{html.escape(column)}" data-row="0"'
        items.append(
            f'<div class="figure"><span class="value num" {ref} data-value="{value!r}">'
            f'{html.escape(fmt(value))}</span><span class="label">{html.escape(column.replace("_", " "))}'
            f"</span></div>"
        )
    return f'<div class="figures">{"".join(items)}</div>'


def render_part(section: Section, part: Part, lexicon: str) -> str:
    """One query: its caption, numbers or picture, and the SQL that reproduces it."""
    out = [f"<h3>{html.escape(part.caption)}</h3>"]
    if part.show == "figures":
        out.append(render_figures(section.key, part))
    elif part.show == "plot":
        data = base64.b64encode(part.image or b"").decode("ascii")
        out.append(f'<img alt="{html.escape(part.caption)}" src="data:image/png;base64,{data}">')
        out.append(
            f"<details><summary>Data ({part.result.height} rows)</summary>{render_table(section.key, part)}</details>"
        )
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
            s.key: {
                "table": s.table,
                "parts": {
                    part.key: {
                        "sql": part.sql,
                        "columns": part.result.columns,
                        "rows": [list(r) for r in part.result.rows()],
                    }
                    for part in s.parts
                },
            }
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
        body.append(
            f'<section id="{s.key}"><h2>{e(s.title)}</h2>'
            f'<p class="source">Source: <code>{e(s.table)}</code>. {e(s.about)}</p>'
        )
        body += [render_part(s, part, lexicon) for part in s.parts]
        body.append("</section>")
    if left_out:
        items = "".join(f"<li><b>{e(k)}</b>: {e(v)}</li>" for k, v in left_out.items())
        body.append(
            f'<section id="left-out"><h2>Not in this report</h2><p class="left-out">These sections '
            f'need tables that are not built yet (run <code>make all</code>):</p><ul class="left-out">'
            f"{items}</ul></section>"
        )
    data = json.dumps(report_data(lexicon, done, left_out), ensure_ascii=True, sort_keys=True, default=str)
    data = data.replace("</", "<\\/")
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en"><head><meta charset="utf-8">',
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                f"<title>wordstats report: {e(lexicon)}</title>",
                f"<style>{STYLE}</style></head><body>",
                f"<h1>wordstats report: {e(lexicon)}</h1>",
                f'<p class="source">wordstats {e(__version__)}. Each number comes from the SQL query shown under it; '
                f"run it with <code>wordstats sql</code> to reproduce it. All results are also embedded as JSON "
                f"(<code>script#report-data</code>).</p>",
                f"<nav>{nav}</nav>",
                *body,
                f'<script type="application/json" id="report-data">{data}</script>',
                "</body></html>",
            ]
        )
        + "\n"
    )
