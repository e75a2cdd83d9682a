"""The house: how the package's code is laid out, before a commit and now. Python files under pipeline/, their
lines, the largest file, the longest function, and the import circles among the package's modules (module-level
imports only: an import inside a function runs when it is called, not when the module loads), and the game
packages (pipeline/games.py) that import another.

`python -m tests.bench house` writes data/out/bench/house.json; BEFORE names the commit compared with (read with
`git archive` into a temporary folder, never checked out). tests/test_house.py holds the package to the limits."""

from __future__ import annotations

import ast
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "pipeline"
BEFORE = "72fdba2"  # the commit the house is compared with


def python_files(package: Path) -> list[Path]:
    """Every Python source file under a package folder, sorted."""
    return sorted(p for p in package.rglob("*.py") if "__pycache__" not in p.parts)


def line_count(path: Path) -> int:
    """The lines of a file (as `wc -l` counts them, a last line without a newline included)."""
    return len(path.read_text(encoding="utf-8").splitlines())


def module_of(path: Path, package: Path) -> str:
    """The dotted module name of a file of the package (a package's __init__.py is the package)."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.stmt) -> bool:
    """Whether a statement is `if TYPE_CHECKING:` (its imports never run)."""
    test = node.test if isinstance(node, ast.If) else None
    return isinstance(test, ast.Name | ast.Attribute) and ast.unparse(test).endswith("TYPE_CHECKING")


def module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The import statements a module runs when it loads: at top level or in top-level if/try/with/class blocks,
    never inside a function, nor under `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and _type_checking(node):
            todo.extend(node.orelse)
        elif isinstance(node, ast.If | ast.Try | ast.With | ast.ClassDef | ast.For | ast.While):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    todo.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])
    return found


def import_graph(package: Path, lazy: bool = False) -> dict[str, set[str]]:
    """Each module of the package → the modules of the package it imports when it loads (with `lazy`, also
    inside its functions)."""
    files = {module_of(p, package): p for p in python_files(package)}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        statements = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
        for node in statements if lazy else module_level_imports(tree):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in files)
                continue
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                edges.add(sub if sub in files else origin)
        graph[name] = {m for m in edges if m in files and m != name}
    return graph


def game_packages(package: Path) -> tuple[str, ...]:
    """The packages pipeline/games.py lists, by their last names (ingest, anagrams, ...); none without it."""
    games = package / "games.py"
    if not games.exists():
        return ()
    for node in ast.parse(games.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "GAMES" for t in node.targets):
            return tuple(name.rpartition(".")[2] for name in ast.literal_eval(node.value))
    return ()


def games_importing_games(package: Path) -> dict[str, list[str]]:
    """Each pair of game packages where one imports the other, lazy imports included: "a -> b" → the modules of
    a that import b."""
    games = set(game_packages(package))
    found: dict[str, set[str]] = {}
    for module, imported in import_graph(package, lazy=True).items():
        mine = module.split(".")[1] if "." in module else ""
        for other in imported:
            theirs = other.split(".")[1] if "." in other else ""
            if mine in games and theirs in games and theirs != mine:
                found.setdefault(f"{mine} -> {theirs}", set()).add(module)
    return {pair: sorted(modules) for pair, modules in sorted(found.items())}


CLIENTS = ("cli", "web")  # the packages that only parse, call the use cases and render
GAME_FACES = ("api", "render")  # what a client may import of a game
CORE_FACES = ("api", "config", "display", "errors", "fields", "outputs", "progress", "registry", "session")


def is_face(module: str, games: set[str]) -> bool:
    """Whether a client may import `module`: a client's own, the package itself (its version), a game's api or
    render, or one of core's public faces."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in CLIENTS:
        return True
    if parts[1] == "core":
        return len(parts) == 3 and parts[2] in CORE_FACES
    return parts[1] in games and len(parts) == 3 and parts[2] in GAME_FACES


def clients_past_faces(package: Path) -> dict[str, list[str]]:
    """Each module of a client (pipeline/cli, pipeline/web) that imports more than the faces (lazy imports
    included) → those modules."""
    games = set(game_packages(package))
    found = {}
    for module, imported in import_graph(package, lazy=True).items():
        parts = module.split(".")
        if len(parts) > 1 and parts[1] in CLIENTS:
            past = sorted(m for m in imported if not is_face(m, games))
            if past:
                found[module] = past
    return dict(sorted(found.items()))


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected set of two or more modules (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(start: str) -> None:
        """Tarjan's depth-first search from `start`, iteratively (no recursion limit)."""
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    circles.append(sorted(members))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(circles)


def functions(path: Path, package: Path) -> list[tuple[int, str]]:
    """Every function and method of a file: (lines, module:qualified name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = module_of(path, package)
    found: list[tuple[int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        """Collect the functions under `node`, named by the classes and functions around them."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                found.append((child.end_lineno - child.lineno + 1, f"{module}:{name}"))  # type: ignore[operator]
                walk(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


def house(package: Path) -> dict:
    """The figures of one tree's package folder."""
    files = python_files(package)
    lines = {p.relative_to(package.parent).as_posix(): line_count(p) for p in files}
    largest = max(lines.items(), key=lambda kv: (kv[1], kv[0]))
    longest = max((f for p in files for f in functions(p, package)), key=lambda f: (f[0], f[1]))
    circles = import_circles(import_graph(package))
    lazy = import_circles(import_graph(package, lazy=True))
    crossing = games_importing_games(package)
    past = clients_past_faces(package)
    return {
        "files": len(files),
        "lines": sum(lines.values()),
        "largest_file": {"path": largest[0], "lines": largest[1]},
        "over_600_lines": sorted(path for path, n in lines.items() if n > 600),
        "longest_function": {"name": longest[1], "lines": longest[0]},
        "import_circles": len(circles),
        "circles": circles,
        "import_circles_with_lazy_imports": len(lazy),
        "lazy_circles": lazy,
        "games_importing_games": len(crossing),
        "game_imports": crossing,
        "client_modules_past_the_faces": len(past),
        "clients_past_the_faces": past,
    }


def tree_at(commit: str, folder: Path) -> Path:
    """The package folder as it was at `commit`, unpacked into `folder` (git archive: no checkout)."""
    archive = folder / "tree.tar"
    with open(archive, "wb") as out:
        subprocess.run(["git", "archive", commit, PACKAGE], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder / PACKAGE


def run() -> dict:
    """The house before BEFORE's commit and now (this checkout's working tree)."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    with tempfile.TemporaryDirectory(prefix="house-") as tmp:
        before = house(tree_at(BEFORE, Path(tmp)))
    return {"before": {"commit": BEFORE, **before}, "after": {"commit": commit.stdout.strip(), **house(ROOT / PACKAGE)}}
