"""The leave fit's one loop too large for numpy: each leave's quadratic form in the additive model's coefficient
covariance, over the features its slots hold (pipeline/scrabble/equity/fit.py prior_variances)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def slot_forms(where, covariance, shared):
    """For each row of feature slots: the sum of covariance over every pair of its slots, less twice the sum of
    `shared` over its slots (a slot of no feature has a row and column of zeros)."""
    rows, width = where.shape
    out = np.empty(rows)
    for r in range(rows):
        own = 0.0
        mixed = 0.0
        for a in range(width):
            i = where[r, a]
            line = 0.0
            for b in range(width):
                line += covariance[i, where[r, b]]
            own += line
            mixed += shared[i]
        out[r] = own - 2.0 * mixed
    return out


@njit(cache=True)
def slot_means(where, draw, size):
    """The sum of `draw` over the rows holding each feature, once per slot that holds it (`size` features)."""
    out = np.zeros(size)
    rows, width = where.shape
    for r in range(rows):
        for a in range(width):
            out[where[r, a]] += draw[r]
    return out
