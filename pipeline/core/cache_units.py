"""numba cache units of several files: a package whose __init__ declares it one (`UNIT = declare_unit(...)`)
has every function of its files cached under a stamp of all of them (a digest of their bytes), so an edit of any
one file recompiles the unit's kernels on their next use. numba alone keys a function's cache on its own file, so
a kernel calling a kernel of another file would keep stale machine code after an edit there; inside a unit, its
files may call each other's kernels and read each other's constants (tests/test_kernels_rule.py).

numba is imported only when a unit is declared (by importing one of its kernels)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

UNITS: set[Path] = set()  # the folders declared cache units


def declare_unit(folder: Path) -> Path:
    """Declare a package's folder one cache unit (its __init__ does, before any of its kernels is compiled)."""
    from numba.core import caching

    if UnitLocator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, UnitLocator)
    UNITS.add(folder.resolve())
    return folder.resolve()


@cache
def unit_stamp(folder: Path) -> str:
    """A digest of the names and bytes of every Python file of a cache unit's folder."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


class _UnitStamped:
    """numba's own locator of a function's cache, with the unit's stamp in place of its file's."""

    def __init__(self, inner, folder: Path):
        self._inner, self._folder = inner, folder

    def __getattr__(self, name):
        """Everything else as numba's locator does it (where the cache lives, how files are named)."""
        return getattr(self._inner, name)

    def get_source_stamp(self) -> str:
        """The stamp of the whole unit: the cache is stale when any file of the unit changed."""
        return unit_stamp(self._folder)


class UnitLocator:
    """A numba cache locator for the functions of the declared units' files (numba's CacheImpl asks each locator
    in turn; this one answers first, for those folders only)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        """numba's locator for the function, stamped by its unit, or None for a file outside every unit."""
        from numba.core import caching

        folder = Path(py_file).resolve().parent
        if folder not in UNITS:
            return None
        for other in caching.CacheImpl._locator_classes:
            if other is not cls:
                found = other.from_function(py_func, py_file)
                if found is not None:
                    return _UnitStamped(found, folder)
        return None
