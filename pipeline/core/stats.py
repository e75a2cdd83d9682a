"""Statistics shared by the packages."""

from __future__ import annotations

import numpy as np
import polars as pl


def spearman(x: pl.Series | np.ndarray, y: pl.Series | np.ndarray) -> float | None:
    """Spearman's rank correlation: Pearson's correlation of the ranks (ties get their mean rank); None when
    fewer than two values or either column is constant."""
    if len(x) < 2:
        return None
    rx = pl.Series(x).rank("average").to_numpy()
    ry = pl.Series(y).rank("average").to_numpy()
    if rx.std() == 0 or ry.std() == 0:
        return None
    return float(np.corrcoef(rx, ry)[0, 1])
