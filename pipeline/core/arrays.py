"""Arrays as the kernels take them."""

from __future__ import annotations

import numpy as np


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view of an array. The kernels only read their tables, and numba compiles a kernel once per kind
    of array: an array handed over by Ray or read from Parquet is read-only, one built or unpickled in a worker is
    not, so the kernels are given read-only views everywhere and one compiled variant serves every path."""
    view = array.view()
    view.flags.writeable = False
    return view
