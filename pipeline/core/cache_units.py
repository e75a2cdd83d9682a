"""Where numba keeps the compiled kernels, keyed on their sources' bytes: numba's own on-disk cache (`cache=True`),
placed in the Python environment (NUMBA_CACHE_DIR, set by `pipeline/__init__.py`) and found by the locator below,
which numba takes from its documented NUMBA_CACHE_LOCATOR_CLASSES setting. `make install` compiles every kernel
into it ahead of first use (pipeline.core.warm).

A kernel's cache unit is its file, or the package folder whose __init__ declares one (`UNIT =
declare_unit(Path(__file__).parent)`): a kernel too large for one file is split into a package whose files call
each other's kernels and read each other's constants (tests/test_kernels_rule.py). numba alone stamps a function
with its own file, so a caller would keep stale machine code after an edit of a callee's file; here every function
of a unit is filed under a digest of all of the unit's files, so an edit of any one recompiles the unit's kernels,
and only them, on their next use. A copy of the project with the same bytes (the tests' project copies) finds the
same machine code.

This module imports numba only when numba asks it for a locator (at a kernel's definition)."""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
CACHE_ENV = "NUMBA_CACHE_DIR"
LOCATORS_ENV = "NUMBA_CACHE_LOCATOR_CLASSES"
COMPILE_LOG_ENV = "WORDSTATS_COMPILE_LOG"  # a file each compile of a kernel is written to (the tests' guard)
# numba's own locators after ours, in numba's order, for functions outside the package and its units
LOCATORS = (
    f"{__name__}.UnitLocator",
    "UserProvidedCacheLocator",
    "InTreeCacheLocator",
    "UserWideCacheLocator",
    "IPythonCacheLocator",
    "ZipCacheLocator",
)
UNITS: set[Path] = set()  # the folders declared cache units


def cache_root() -> Path:
    """Where the compiled kernels live: inside the Python environment (a virtual environment's prefix), else
    under the user's cache folder."""
    if sys.prefix != sys.base_prefix:
        return Path(sys.prefix) / "wordstats" / "numba"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "wordstats" / "numba"


def configure(environ: os._Environ | dict[str, str] = os.environ) -> None:
    """Point numba's cache at the environment's folder and at this module's locator (before numba is imported;
    settings already made by the user are kept)."""
    environ.setdefault(CACHE_ENV, str(cache_root()))
    environ.setdefault(LOCATORS_ENV, ",".join(LOCATORS))
    config = sys.modules.get("numba.core.config")
    if config is not None and environ is os.environ:  # numba came first: it reads its settings again
        config.reload_config()


def declare_unit(folder: Path) -> Path:
    """Declare a package's folder one cache unit (its __init__ does, before any of its kernels is defined)."""
    UNITS.add(folder.resolve())
    return folder.resolve()


@cache
def unit_stamp(sources: tuple[Path, ...]) -> str:
    """A digest of the names and bytes of a unit's Python files."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def unit_of(py_file: str) -> tuple[str, tuple[Path, ...]] | None:
    """A kernel file's unit, as (its name, its sources): the declared folder holding it, or the file itself when
    it lies in the package; None for a file of neither (numba's own locators take it)."""
    path = Path(py_file).resolve()
    if path.parent in UNITS:
        return unit_name(path.parent), tuple(sorted(path.parent.glob("*.py")))
    if path.is_relative_to(PACKAGE_DIR) and path.suffix == ".py":
        return unit_name(path.with_suffix("")), (path,)
    return None


def unit_name(path: Path) -> str:
    """A unit's folder name in the cache: its module name inside the package, else its folder's name and a digest
    of its place."""
    if path.is_relative_to(PACKAGE_DIR.parent):
        return ".".join(path.relative_to(PACKAGE_DIR.parent).parts)
    return f"{path.name}-{hashlib.sha256(str(path).encode()).hexdigest()[:12]}"


def cache_dir() -> Path:
    """The folder numba files this process's kernels in: its setting, else the environment's."""
    return Path(os.environ.get(CACHE_ENV) or cache_root())


def unit_folder(name: str, stamp: str) -> Path:
    """The cache folder of one version of a unit."""
    return cache_dir() / name / stamp


def _numba_locator():
    """numba's public locator of a user-provided cache folder, the base of ours."""
    from numba.core.caching import UserProvidedCacheLocator

    return UserProvidedCacheLocator


class _Locator:
    """Built on first use (numba is imported then): see UnitLocator."""

    @classmethod
    def from_function(cls, py_func, py_file):
        """The locator of a function of the package or of a declared unit, or None (numba asks the next one)."""
        found = unit_of(py_file)
        if found is None or not os.path.exists(py_file):
            return None
        name, sources = found
        locator = unit_locator_class()(py_func, py_file, unit_folder(name, unit_stamp(sources)))
        try:
            locator.ensure_cache_path()
        except OSError:  # a read-only environment: numba's other locators are asked
            return None
        return locator


@cache
def unit_locator_class():
    """numba's user-provided locator, filing a function under its unit's folder and version."""
    watch_compiles()

    class Located(_numba_locator()):  # type: ignore[misc]
        """A function's cache in its unit's versioned folder: a unit's version is the digest of its sources, so
        every entry of the folder is current."""

        def __init__(self, py_func, py_file, folder: Path):
            super().__init__(py_func, py_file)
            self._folder = str(folder)

        def get_cache_path(self) -> str:
            """The unit's folder for its current sources."""
            return self._folder

        def get_source_stamp(self) -> str:
            """The folder already names the sources' digest."""
            return Path(self._folder).name

    return Located


UnitLocator = _Locator  # what NUMBA_CACHE_LOCATOR_CLASSES names


@cache
def watch_compiles() -> None:
    """Append a line to the file WORDSTATS_COMPILE_LOG names, when it names one, for every kernel of the package
    numba compiles in this process (a cache miss), with the test running it when pytest runs one: what the tests
    check after `make install` compiled them all."""
    from numba.core import event

    class Logged(event.Listener):
        """Writes each compile of one of our kernels."""

        def on_start(self, ev):
            """A compile begins: name the function and its argument types."""
            log = os.environ.get(COMPILE_LOG_ENV)
            dispatcher = ev.data["dispatcher"]
            module = getattr(dispatcher.py_func, "__module__", "") or ""
            if log and module.split(".")[0] == "pipeline":
                with open(log, "a", encoding="utf-8") as fh:
                    test = os.environ.get("PYTEST_CURRENT_TEST", "").removesuffix(" (call)")
                    name = f"{module}.{dispatcher.py_func.__qualname__} {ev.data['args']}"
                    fh.write(f"{os.getpid()} {name}\t{test}\n")

        def on_end(self, ev):
            """Nothing to do when it ends."""

    event.register("numba:compile", Logged())
