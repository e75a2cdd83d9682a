"""Which source files of the package a module runs: its imports inside the package, followed statically (ast)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = "pipeline"
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def module_file(name: str) -> Path | None:
    """The source file of module `name` of the package (a package's __init__.py), or None."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = PACKAGE_DIR.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def module_name(path: Path) -> str:
    """The dotted name of a source file of the package."""
    parts = list(Path(path).resolve().relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def parents(name: str) -> list[str]:
    """The packages Python imports before module `name`: pipeline, pipeline.core for pipeline.core.store."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


@functools.cache
def imports(path: Path) -> frozenset[str]:
    """The package modules a source file imports anywhere in it (top level or inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from . import x, from ..core import y
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            found.add(origin)
            found.update(f"{origin}.{alias.name}" for alias in node.names)  # `from pkg import module`
        elif isinstance(node, ast.Call) and _is_import_module_call(node):
            found.add(node.args[0].value)  # type: ignore[attr-defined]
    return frozenset(m for m in found if module_file(m) is not None)


def _is_import_module_call(node: ast.Call) -> bool:
    """Whether a call is importlib.import_module("pipeline....") with a literal name."""
    fn = node.func
    named = (isinstance(fn, ast.Attribute) and fn.attr == "import_module") or (
        isinstance(fn, ast.Name) and fn.id == "import_module"
    )
    return named and bool(node.args) and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)


def closure(*names: str) -> list[Path]:
    """Every source file of the package that importing the modules `names` can run, sorted."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = module_file(name)
        if path is None:
            raise ValueError(f"no module {name!r} in {PACKAGE_DIR}")
        seen.add(name)
        todo.extend(parents(name))
        todo.extend(imports(path))
    return sorted({f for n in seen if (f := module_file(n)) is not None})
