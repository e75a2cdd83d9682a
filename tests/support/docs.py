"""Reading docs/tables.md: its sections and the `| column | type | meaning |` table of each."""

from __future__ import annotations

import re

from tests.conftest import ROOT

DOCS = ROOT / "docs"
TABLES_MD = DOCS / "tables.md"


def sections(text: str, level: str = "##") -> dict[str, str]:
    """A Markdown page's sections of one heading level, by heading text (backticks removed)."""
    parts = re.split(rf"^{level} (.+)$", text, flags=re.M)
    return {parts[i].strip().strip("`"): parts[i + 1] for i in range(1, len(parts), 2)}


def column_rows(section: str) -> list[tuple[str, str]]:
    """The (column, type) pairs of the first `| column | type | meaning |` table in a section."""
    rows, inside = [], False
    for line in section.splitlines():
        if not line.startswith("|"):
            if inside:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:2] == ["column", "type"]:
            inside = True
        elif inside and not set(cells[0]) <= set("-: "):
            rows.append((cells[0].strip("`"), cells[1]))
    return rows
