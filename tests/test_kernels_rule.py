"""A compiled (numba) function never calls a compiled function of another cache unit, and never reads a global
taken from another module of the project (a constant imported, or a module-level value computed from one): numba's
on-disk cache keys a function on its own file only, and freezes the globals it reads into the machine code, so a
change in the other file would leave a stale cache without a warning. A cache unit is a file, or a package whose
__init__.py declares one (UNIT: the package's functions are cached under a stamp of all of its files,
pipeline/scrabble/movegen/kernels, pipeline/boggle/kernels)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from pipeline.core.modules import PACKAGE_DIR, module_name

COMPILERS = {"njit", "jit", "vectorize", "guvectorize", "generated_jit", "intrinsic", "overload", "cfunc", "stencil"}


def uses_numba(tree: ast.Module) -> bool:
    """Whether a module imports numba anywhere."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "numba" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
            return True
    return False


def _compiler_name(expr: ast.expr) -> str | None:
    """The name of a decorator or wrapper call such as njit, njit(cache=True), numba.njit(...)."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return None


def compiled_functions(tree: ast.Module) -> dict[str, ast.AST]:
    """The module's compiled functions by name: decorated defs, and `name = njit(...)(f)` assignments."""
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_compiler_name(d) in COMPILERS for d in node.decorator_list):
                found[node.name] = node
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
            inner = call.func if isinstance(call.func, ast.Call) else call
            if _compiler_name(inner) in COMPILERS:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = node
    return found


def imported_names(tree: ast.Module) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """Names bound by `from M import f [as g]` (g → (M, f)) and by `import M [as m]` (m → M), anywhere."""
    names: dict[str, tuple[str, str]] = {}
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = (node.module, alias.name)
                modules.setdefault(alias.asname or alias.name, f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name] = alias.name
    return names, modules


def declares_unit(tree: ast.Module) -> bool:
    """Whether a package's __init__ declares the package one cache unit (a module-level UNIT)."""
    return any(
        isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "UNIT" for t in node.targets)
        for node in tree.body
    )


def cache_unit(module: str, units: set[str]) -> str:
    """The cache unit of a module: the cache-unit package it lies in, else the module itself."""
    return next((u for u in units if module.startswith(u + ".")), module)


def cross_file_calls(sources: dict[str, str], packages: frozenset[str] = frozenset()) -> list[str]:
    """Every use, inside a compiled function, of a compiled function defined in another cache unit.

    `sources` maps module names to their source text, `packages` names the packages among them (whose text is
    their __init__.py); the result reads "module.function uses other.callee"."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    units = {name for name in packages if name in trees and declares_unit(trees[name])}
    compiled = {name: set(compiled_functions(tree)) for name, tree in trees.items()}
    problems = []
    for name, tree in trees.items():
        if not uses_numba(tree):
            continue
        names, modules = imported_names(tree)
        for fn_name, fn in compiled_functions(tree).items():
            for node in ast.walk(fn):
                target = None
                if isinstance(node, ast.Name) and node.id in names:
                    target = names[node.id]
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    owner = modules.get(node.value.id)
                    target = (owner, node.attr) if owner else None
                elsewhere = target and cache_unit(target[0], units) != cache_unit(name, units)
                if target and elsewhere and target[1] in compiled.get(target[0], set()):
                    problems.append(f"{name}.{fn_name} uses {target[0]}.{target[1]}")
    return sorted(set(problems))


def project_module(module: str | None, level: int) -> bool:
    """Whether an import names a module of the project (pipeline.*, or a relative import)."""
    return level > 0 or (module or "").split(".")[0] == "pipeline"


def imported_globals(tree: ast.Module) -> dict[str, str]:
    """The module-level names a module binds from other modules of the project, with where each comes from:
    `from pipeline.m import C` (C → pipeline.m.C), `import pipeline.m as m` (m → pipeline.m), and every name
    assigned at module level from an expression that reads one of them (`_C = np.uint64(C)` → pipeline.m.C)."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and project_module(node.module, node.level):
            origin = "." * node.level + (node.module or "")
            for alias in node.names:
                found[alias.asname or alias.name] = f"{origin}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if project_module(alias.name, 0):
                    found[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            sources = [found[n.id] for n in ast.walk(node.value) if isinstance(n, ast.Name) and n.id in found]
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and sources:
                        found[name.id] = sources[0]
    return found


def absolute(origin: str, module: str, package: bool) -> str:
    """The absolute module of an origin as imported_globals writes it (`.layout.END` from within a package)."""
    level = len(origin) - len(origin.lstrip("."))
    if not level:
        return origin.rpartition(".")[0]
    parts = module.split(".") if package else module.split(".")[:-1]
    base = ".".join(parts[: len(parts) - level + 1])
    return f"{base}.{origin[level:]}".rpartition(".")[0]


def foreign_globals(sources: dict[str, str], packages: frozenset[str] = frozenset()) -> list[str]:
    """Every global a compiled function reads that comes from a module of the project in another cache unit
    (directly or through a module-level value computed from it): "module.function reads NAME (from origin)"."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    units = {name for name in packages if name in trees and declares_unit(trees[name])}
    problems = []
    for name, tree in trees.items():
        if not uses_numba(tree):
            continue
        unit = cache_unit(name, units)
        foreign = {
            k: origin
            for k, origin in imported_globals(tree).items()
            if cache_unit(absolute(origin, name, name in packages), units) != unit
        }
        for fn_name, fn in compiled_functions(tree).items():
            local = {a.arg for a in ast.walk(fn) if isinstance(a, ast.arg)}
            local |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            for node in ast.walk(fn):
                if isinstance(node, ast.Name) and node.id in foreign and node.id not in local:
                    problems.append(f"{name}.{fn_name} reads {node.id} (from {foreign[node.id]})")
    return sorted(set(problems))


@functools.cache
def package_sources() -> dict[str, str]:
    """Every module of the package by dotted name, with its source text."""
    return {module_name(p): p.read_text(encoding="utf-8") for p in sorted(PACKAGE_DIR.rglob("*.py"))}


def packages() -> frozenset[str]:
    """The dotted names of the package's packages."""
    return frozenset(module_name(p) for p in PACKAGE_DIR.rglob("__init__.py"))


def test_no_compiled_function_calls_one_of_another_file():
    sources = package_sources()
    inits = packages()
    named = [n for n in sources if n not in inits and (n.rpartition(".")[2].endswith("kernels") or ".kernels." in n)]
    kernels = [n for n in named if compiled_functions(ast.parse(sources[n]))]  # (a unit's layout holds constants)
    assert {"boggle", "hangman", "scrabble"} <= {n.split(".")[1] for n in kernels}
    assert all(uses_numba(ast.parse(sources[n])) for n in kernels)  # the rule really looks at the kernels
    assert cross_file_calls(sources, inits) == []


def test_no_compiled_function_reads_a_global_of_another_module():
    assert foreign_globals(package_sources(), packages()) == []


def test_the_proof_kernels_read_the_solvers_node_layout():
    """The proof's kernels live in the solver's cache unit and read its node layout from nodes.py: no copy of it."""
    tree = ast.parse((PACKAGE_DIR / "boggle" / "kernels" / "prove.py").read_text())
    assigned = {
        t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)
    }
    imported = {a.name for node in tree.body if isinstance(node, ast.ImportFrom) for a in node.names}
    layout = {"NODE_CLASS_SHIFT", "NODE_CLASS_MASK", "NODE_FIRST_SHIFT"}
    assert not {name for name in assigned if name.startswith("NODE_")} and layout <= imported


@pytest.mark.parametrize(
    "kernel",
    [
        "from numba import njit\nfrom pipeline.a import C\n@njit(cache=True)\ndef f(x):\n    return x + C\n",
        "import numpy as np\nfrom numba import njit\nfrom pipeline.a import C\n_C = np.uint64(C)\n@njit\ndef f(x):\n"
        "    return x >> _C\n",
        "from numba import njit\nimport pipeline.a as a\n@njit\ndef f(x):\n    return x + a.C\n",
        "from numba import njit\nfrom .a import C\n@njit\ndef f(x):\n    return x + C\n",
    ],
)
def test_the_check_finds_a_global_read_from_another_module(kernel):
    constants = "C = 3\n"
    assert foreign_globals({"pipeline.a": constants, "pipeline.b": kernel}) != []


def test_the_check_allows_own_constants_locals_and_python_callers():
    own = "import numpy as np\nfrom numba import njit\nC = 3\n_C = np.uint64(C)\n@njit\ndef f(x):\n    return x + _C\n"
    shadowed = "from numba import njit\nfrom pipeline.a import C\n@njit\ndef f(C):\n    return C\n"
    python = "from numba import njit\nfrom pipeline.a import C\ndef f(x):\n    return x + C\n"
    python += "@njit\ndef g(x):\n    return x\n"
    assert foreign_globals({"pipeline.b": own, "pipeline.c": shadowed, "pipeline.d": python}) == []


def test_each_game_has_its_own_kernels_module():
    games = ["boggle", "hangman", "scrabble"]
    for game in games:
        files = sorted((PACKAGE_DIR / game).rglob("*kernels.py")) + sorted((PACKAGE_DIR / game).rglob("kernels/*.py"))
        assert files, game
        others = [g for g in games if g != game]
        assert not any(f"pipeline.{other}" in path.read_text() for path in files for other in others)


@pytest.mark.parametrize(
    "caller",
    [
        "from numba import njit\nfrom pipeline.a import helper\n@njit(cache=True)\ndef f(x):\n    return helper(x)\n",
        "import numba\nimport pipeline.a as a\n@numba.njit\ndef f(x):\n    return a.helper(x) + 1\n",
        "from numba import njit\nfrom pipeline.a import helper as h\ndef g(x):\n    return x\nf = njit(g)\n"
        "@njit\ndef k(x):\n    return h(x)\n",
    ],
)
def test_the_check_finds_a_call_into_another_file(caller):
    callee = "from numba import njit\n@njit(cache=True, inline='always')\ndef helper(x):\n    return x * 2\n"
    assert cross_file_calls({"pipeline.a": callee, "pipeline.b": caller}) != []


def test_the_check_allows_python_code_calling_another_file_kernel():
    callee = "from numba import njit\n@njit(cache=True)\ndef helper(x):\n    return x * 2\n"
    caller = "import numba\nfrom pipeline.a import helper\ndef f(x):\n    return helper(x)\n"
    same_file = callee + "@njit\ndef g(x):\n    return helper(x)\n"
    assert cross_file_calls({"pipeline.a": same_file, "pipeline.b": caller}) == []


def test_the_check_takes_a_declared_cache_unit_as_one_file():
    callee = "from numba import njit\n@njit(cache=True)\ndef helper(x):\n    return x * 2\n"
    caller = (
        "from numba import njit\nfrom pipeline.u.a import helper\n@njit(cache=True)\ndef f(x):\n    return helper(x)\n"
    )
    unit = "from pathlib import Path\nUNIT = Path(__file__).parent\n"
    inside = {"pipeline.u": unit, "pipeline.u.a": callee, "pipeline.u.b": caller}
    assert cross_file_calls(inside, frozenset({"pipeline.u"})) == []
    assert cross_file_calls({**inside, "pipeline.u": ""}, frozenset({"pipeline.u"})) != []  # not declared
    outside = {**inside, "pipeline.v": caller}
    assert cross_file_calls(outside, frozenset({"pipeline.u"})) == ["pipeline.v.f uses pipeline.u.a.helper"]


def test_module_paths_are_named_like_imports():
    assert module_name(PACKAGE_DIR / "boggle" / "kernels" / "prove.py") == "pipeline.boggle.kernels.prove"
    assert module_name(PACKAGE_DIR / "core" / "__init__.py") == "pipeline.core"
    assert Path(PACKAGE_DIR).name == "pipeline"


def test_the_check_allows_a_constant_of_the_same_cache_unit():
    """Inside a package declared one cache unit, a kernel may read its layout module's constants; outside, not."""
    kernel = "from numba import njit\nfrom .layout import C\n@njit\ndef f(x):\n    return x + C\n"
    sources = {"pipeline.u": "UNIT = True\n", "pipeline.u.layout": "C = 3\n", "pipeline.u.walk": kernel}
    assert foreign_globals(sources, frozenset({"pipeline.u"})) == []
    assert foreign_globals({**sources, "pipeline.u": ""}, frozenset({"pipeline.u"})) != []


CORE_UNIT_INIT = """from pathlib import Path
from pipeline.core.cache_units import declare_unit
UNIT = declare_unit(Path(__file__).parent)
"""
CALLEE = "from numba import njit\n@njit(cache=True)\ndef g(x):\n    return x + {}\n"
CALLER = "from numba import njit\nfrom {0}.b import g\n@njit(cache=True)\ndef f(x):\n    return g(x) * 10\n"


@pytest.mark.slow
@pytest.mark.parametrize("declared", [True, False])
def test_an_edit_anywhere_in_a_core_cache_unit_recompiles_its_kernels(tmp_path, declared):
    """A package declared one cache unit through pipeline/core/cache_units.py sees an edit of any of its files
    in the kernels that call across them (numba alone keeps the caller's stale machine code)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    package = tmp_path / ("unit" if declared else "plain")
    package.mkdir()
    (package / "__init__.py").write_text(CORE_UNIT_INIT if declared else "")
    (package / "a.py").write_text(CALLER.format(package.name))
    # -B: no bytecode files, whose times (to the second) could let the second step import the first step's b.py
    run = [sys.executable, "-B", "-c", f"import sys; sys.path[:0] = [{str(tmp_path)!r}, {str(ROOT)!r}]; "
           f"from {package.name}.a import f; print(f(1))"]  # fmt: skip
    answers = []
    for step in (1, 2):
        (package / "b.py").write_text(CALLEE.format(step))
        done = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        answers.append(int(done.stdout))
    assert answers == ([20, 30] if declared else [20, 20])


def test_the_hangman_search_kernels_are_one_declared_cache_unit():
    from pipeline.core.cache_units import UNITS
    from pipeline.hangman import optimal_kernels

    assert optimal_kernels.UNIT in UNITS and optimal_kernels.UNIT == (PACKAGE_DIR / "hangman" / "optimal_kernels")
    assert len(list(optimal_kernels.UNIT.glob("*.py"))) > 1
    assert all(len(p.read_text().splitlines()) <= 600 for p in optimal_kernels.UNIT.glob("*.py"))
