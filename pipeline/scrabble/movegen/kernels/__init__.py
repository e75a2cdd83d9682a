"""The move generator's numba kernels, one cache unit of several files.

numba's on-disk cache keys a compiled function on its own source file, so a kernel calling a kernel of another
file would keep stale machine code after an edit there. This package is therefore declared one cache unit
(pipeline.core.cache_units): its files call each other's kernels, and every function here is cached under a stamp
of all of the unit's files (a digest of their bytes), so an edit of any one of them recompiles the unit's kernels
on their next use. The
constants they read are named once, in layout.py. A kernel outside the unit never calls one inside it.

(Importing any module of the unit declares it, before its functions are compiled or read from the cache.)"""

from __future__ import annotations

from pathlib import Path

from pipeline.core.cache_units import declare_unit

UNIT = declare_unit(Path(__file__).parent)
