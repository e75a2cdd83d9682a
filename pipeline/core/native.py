"""The compiled extension modules (setup.py builds each `pipeline/<package>/native/` folder into
`pipeline.<package>._native` at `make install`): loaded only when built from the current sources for this
processor, so an edited C file or a copied environment is never what runs."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType

from pipeline.core import native_sources
from pipeline.core.errors import WordstatsError

PACKAGE_DIR = Path(__file__).resolve().parents[1]
REBUILD = "run `make install`"
COMPILED = "C extension"


def folder(package: str) -> Path:
    """The native folder of a package of the pipeline (`pipeline.GAME` → pipeline/GAME/native)."""
    return PACKAGE_DIR.joinpath(*package.split(".")[1:], "native")


def problem(package: str) -> str | None:
    """Why the package's extension cannot be used, or None when it is current."""
    try:
        module = importlib.import_module(f"{package}._native")
    except ImportError as exc:
        return f"the compiled {package} engine is missing ({exc}): {REBUILD}"
    if getattr(module, "SOURCE_DIGEST", None) != native_sources.digest(folder(package)):
        return f"the compiled {package} engine is older than its sources: {REBUILD}"
    if getattr(module, "PROCESSOR_DIGEST", None) != native_sources.processor():
        return f"the compiled {package} engine was built for another processor: {REBUILD}"
    return None


def packages() -> list[str]:
    """The packages of the pipeline with a native folder, by module name."""
    folders = native_sources.folders(PACKAGE_DIR)
    return [".".join(("pipeline", *f.parent.relative_to(PACKAGE_DIR).parts)) for f in folders]


def status(package: str) -> str:
    """What the package's one-off commands run, in words: its compiled extension, or why they cannot."""
    found = problem(package)
    return COMPILED if found is None else f"none ({found})"


@cache
def load(package: str) -> ModuleType:
    """The package's extension module, checked; a one-line error naming the fix when it is stale or missing."""
    found = problem(package)
    if found is not None:
        raise WordstatsError(found)
    return importlib.import_module(f"{package}._native")


def main(argv: list[str]) -> int:
    """`--current`: exit 0 when every package's extension is built from its current sources for this processor,
    else print why not and exit 1 (make then builds them again)."""
    if argv != ["--current"]:
        print("usage: python -m pipeline.core.native --current")
        return 2
    problems = [p for p in map(problem, packages()) if p is not None]
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
