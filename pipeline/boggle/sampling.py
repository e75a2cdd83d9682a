"""Random Boggle boards: rolls of the dice, their scores and a summary."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.boggle.rules import Dice
from pipeline.core.arrays import read_only


def roll(dice: Dice, seed: int, count: int, start: int = 0) -> np.ndarray:
    """Boards start .. start+count-1 of the seeded sequence: the dice shuffled into the cells, each rolled."""
    from pipeline.boggle.kernels.rolls import boggle_roll

    faces, n_faces = dice.arrays()
    return boggle_roll(read_only(faces), read_only(n_faces), dice.rows * dice.cols, seed, start, count)


def summarise(scores: np.ndarray, percentiles: Sequence[float]) -> dict:
    """Mean, standard deviation, percentiles, minimum and maximum of board scores."""
    values = np.asarray(scores, dtype=np.float64)
    if values.size == 0:
        return {"boards": 0}
    return {
        "boards": int(values.size),
        "mean": round(float(values.mean()), 4),
        "std": round(float(values.std(ddof=1)) if values.size > 1 else 0.0, 4),
        "min": int(values.min()),
        "max": int(values.max()),
        "percentiles": {f"p{p:02g}": round(float(np.percentile(values, p)), 4) for p in percentiles},
        "zero_share": round(float((values == 0).mean()), 6),
    }
