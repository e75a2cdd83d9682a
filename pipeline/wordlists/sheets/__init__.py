"""Classroom sheets: the student pages (title, name and date, the activity) and then a page for the teacher
(the answer key, or the words to read out, and how the list was made), as CSV, Markdown, HTML and PDF."""

from __future__ import annotations

from pathlib import Path

from pipeline.core.errors import WordstatsError
from pipeline.core.files import write_bytes, write_text
from pipeline.wordlists.sheets.content import (
    instruction,
    puzzles,
    scrambled,
    teacher_note,
)
from pipeline.wordlists.sheets.html import to_html
from pipeline.wordlists.sheets.markdown import to_markdown
from pipeline.wordlists.sheets.pdf import to_pdf

__all__ = ["instruction", "puzzles", "save", "scrambled", "teacher_note", "to_html", "to_markdown", "to_pdf"]

FORMATS = (".csv", ".md", ".html", ".htm", ".pdf")


def save(wl, path: Path) -> None:
    """Write the list to `path`; the extension picks the format (.csv, .md, .html, .pdf)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        write_text(path, wl.table.write_csv())
    elif suffix == ".md":
        write_text(path, to_markdown(wl))
    elif suffix in (".html", ".htm"):
        write_text(path, to_html(wl))
    elif suffix == ".pdf":
        write_bytes(path, to_pdf(wl))
    else:
        raise WordstatsError(f"{path}: unknown output format {suffix or '(none)'!r} (use .csv, .md, .html or .pdf)")
