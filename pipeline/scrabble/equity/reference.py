"""The reference table of leave observations: the last round's summary of a long run (`make leaves-reference`),
per leave its number of observations and the sum and sum of squares of their targets (integers, in 1/SCALE
points), from which the leaves stage fits the values in seconds (fit.leave_values)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError
from pipeline.scrabble.equity.fit import SUMMARY_SCHEMA
from pipeline.scrabble.equity.values import keys_of_texts, texts_of_keys

REFERENCE_SCHEMA = {"leave": pl.String, "count": pl.Int64, "total": pl.Int64, "squares": pl.Int64}


def reference_table(summary: pl.DataFrame) -> pl.DataFrame:
    """A summary (by leave key) as the reference stores it: the leave written out, in key order."""
    return pl.DataFrame(
        {
            "leave": texts_of_keys(summary["key"].to_numpy()),
            "count": summary["count"],
            "total": summary["total"],
            "squares": summary["squares"],
        },
        schema=REFERENCE_SCHEMA,
    )


def read_reference(path: Path) -> pl.DataFrame:
    """The summary (key, count, total, squares; sorted by key) a reference table holds; a one-line error naming
    the file when it is not one."""
    try:
        table = pl.read_parquet(path, columns=list(REFERENCE_SCHEMA))
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise WordstatsError(f"{path}: not a leaves reference table ({str(exc).splitlines()[0]})") from None
    if dict(table.schema) != REFERENCE_SCHEMA:
        raise WordstatsError(f"{path}: not a leaves reference table (columns {dict(table.schema)})")
    keys = keys_of_texts(table["leave"].to_list())
    summary = pl.DataFrame(
        {"key": keys, "count": table["count"], "total": table["total"], "squares": table["squares"]},
        schema=SUMMARY_SCHEMA,
    )
    return summary.sort("key")


def reference_provenance(origin: dict[str, Any], results: list) -> dict[str, Any]:
    """What a leaves reference table records: the run's lexicon, parameters, words (their digest, as the jobs
    hold it) and version, and the command that makes it again; nothing of this machine or config file."""
    p = origin["params"]
    last = f" --last-games {p['last_games']}" if "last_games" in p else ""
    command = (
        f"wordstats scrabble leaves --lexicon {origin['lexicon']} --variant {p['variant']} --games {p['games']} "
        f"--rounds {p['rounds']}{last} --seed {p['seed']} --prior-weight {p['prior_weight']} --reference FILE"
    )
    return {
        "stage": "leaves-reference",
        "lexicon": origin["lexicon"],
        "params": p,
        "inputs": {"words": results[-1].job.params["words"]},
        "command": command,
        "version": origin["version"],
    }
