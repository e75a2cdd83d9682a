"""What has been built: lexicons, their tables, row counts."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline.core.config import Config
from pipeline.core.stages import adhoc_sources, current_manifest
from pipeline.core.store import Store


def lexicon_names(config: Config, data_dir: Path) -> list[str]:
    """Lexicons of the config, then ad hoc ones found in the data folder."""
    names = list(config.lexicons)
    if Path(data_dir).is_dir():
        names += sorted(
            p.name
            for p in Path(data_dir).iterdir()
            if p.is_dir() and p.name not in names and (p / "words.parquet").exists()
        )
    return names


def tables_overview(config: Config, data_dir: Path, only: list[str] | None = None) -> pl.DataFrame:
    """One row per lexicon and built file: rows, bytes, stage, build time (from the manifest)."""
    rows = []
    for name in only or lexicon_names(config, data_dir):
        store = Store(data_dir, name)
        spec = config.lexicons.get(name)
        adhoc = adhoc_sources(store)
        if adhoc:
            source = "ad hoc: " + ", ".join(Path(s).name for s in adhoc)
        else:
            source = ", ".join(s.label for s in spec.sources) if spec else "ad hoc"
        tables = current_manifest(store)["tables"]
        if not tables:
            rows.append(
                {
                    "lexicon": name,
                    "source": source,
                    "file": None,
                    "rows": None,
                    "bytes": None,
                    "stage": None,
                    "built_at": "not built",
                }
            )
        for file, entry in tables.items():
            if (store.root / file).exists():
                rows.append(
                    {
                        "lexicon": name,
                        "source": source,
                        "file": file,
                        "rows": entry.get("rows"),
                        "bytes": entry.get("bytes"),
                        "stage": entry.get("stage"),
                        "built_at": entry.get("built_at"),
                    }
                )
    return pl.DataFrame(
        rows,
        schema={
            "lexicon": pl.String,
            "source": pl.String,
            "file": pl.String,
            "rows": pl.Int64,
            "bytes": pl.Int64,
            "stage": pl.String,
            "built_at": pl.String,
        },
    )
