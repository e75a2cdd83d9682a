"""The house rules: no file of the package over 600 lines, no import circle among its modules (module-level
imports; an import inside a function runs only when it is called), no game package importing another but
the pairs listed, clients (the command line, the page) that import only what the games and the core show
them, and use cases whose errors name request fields, not options. The figures: tests/bench/bench_house.py."""

from __future__ import annotations

import ast
import re

import pytest

from tests.bench.bench_house import (
    ROOT,
    clients_past_faces,
    games_importing_games,
    import_circles,
    import_graph,
    line_count,
    python_files,
)

MAX_LINES = 600
PACKAGE = ROOT / "pipeline"


def test_no_file_is_over_600_lines():
    lines = {p.relative_to(ROOT).as_posix(): line_count(p) for p in python_files(PACKAGE)}
    assert len(lines) > 100 and "pipeline/core/store.py" in lines  # the rule really looks at the package
    assert {path: n for path, n in lines.items() if n > MAX_LINES} == {}


def test_no_import_circles():
    """None among the imports a module runs when it loads, nor counting those inside functions and those only
    type checkers read (`if TYPE_CHECKING:`): the modules form layers."""
    graph = import_graph(PACKAGE)
    assert "pipeline.core.store" in graph["pipeline.core.stages"]  # the graph really follows the imports
    assert import_circles(graph) == []
    every = import_graph(PACKAGE, lazy=True)
    assert "pipeline.core.schemas" in every["pipeline.core.catalog"]  # a lazy import is followed too
    assert import_circles(every) == []


def test_no_game_imports_another():
    """A game package imports no other game package, lazy imports included: what several games read (the letters,
    the children's pool, the playability order) lives below them, in pipeline/letters and pipeline/words, and
    a setting of another package is read through the registry."""
    assert games_importing_games(PACKAGE) == {}


def test_clients_only_call_the_games_api_and_render_and_cores_faces():
    """The command line and the page import of a game only its `api` and `render`, and of the core only its
    public faces (tests/bench/bench_house.py CORE_FACES), lazy imports included."""
    assert clients_past_faces(PACKAGE) == {}


def test_one_provenance():
    """Every use case's result carries the one Provenance of pipeline/core/results.py: no package declares
    another."""
    import ast

    declared = [
        p.relative_to(ROOT).as_posix()
        for p in python_files(PACKAGE)
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name == "Provenance"
    ]
    assert declared == ["pipeline/core/results.py"]


def test_the_check_finds_a_client_reaching_past_the_faces(tmp_path):
    games = 'GAMES = ("pkg.a",)\n'
    files = {"pkg/__init__.py": "", "pkg/games.py": games, "pkg/a/__init__.py": "", "pkg/cli/__init__.py": ""}
    files |= {"pkg/a/api.py": "", "pkg/a/render.py": "", "pkg/a/kernels.py": "", "pkg/core/__init__.py": ""}
    files |= {"pkg/core/session.py": "", "pkg/core/store.py": ""}
    calls = "from pkg.a import api, render\nfrom pkg.core.session import x\n"
    reaches = "def f():\n    from pkg.a.kernels import k\n    from pkg.core import store\n"
    files |= {"pkg/cli/ok.py": calls, "pkg/cli/bad.py": reaches}
    assert clients_past_faces(write(tmp_path, files)) == {"pkg.cli.bad": ["pkg.a.kernels", "pkg.core.store"]}


def test_the_check_finds_a_game_importing_another(tmp_path):
    games = 'GAMES = ("pkg.a", "pkg.b")\n'
    lazy = "def f():\n    from pkg.b.x import g\n    return g\n"
    files = {"pkg/__init__.py": "", "pkg/games.py": games, "pkg/a/__init__.py": "", "pkg/b/__init__.py": ""}
    files |= {"pkg/a/y.py": lazy, "pkg/b/x.py": "from pkg.core import h\n", "pkg/core.py": "h = 1\n"}
    assert games_importing_games(write(tmp_path, files)) == {"a -> b": ["pkg.a.y"]}


def write(folder, files: dict[str, str]):
    """A package of the given files (path → text) under `folder`, returned as the package's folder."""
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    return folder / "pkg"


@pytest.mark.parametrize(
    "b",
    [
        "from pkg import a\n",
        "import pkg.a\n",
        "from . import a\n",
        "from .a import f\n",
        "try:\n    from pkg.a import f\nexcept ImportError:\n    pass\n",
    ],
)
def test_the_check_finds_a_circle(tmp_path, b):
    package = write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from pkg.b import g\n", "pkg/b.py": b})
    assert import_circles(import_graph(package)) == [["pkg.a", "pkg.b"]]


def test_the_check_leaves_out_lazy_and_type_checking_imports(tmp_path):
    lazy = "def g():\n    from pkg.a import f\n    return f\n"
    typing = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import f\n"
    for b in (lazy, typing):
        package = write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from pkg.b import g\n", "pkg/b.py": b})
        assert import_circles(import_graph(package)) == []
        assert import_circles(import_graph(package, lazy=True)) == [["pkg.a", "pkg.b"]]


def test_a_longer_circle_is_one_circle(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/d.py": "import pkg.a\n"}
    files |= {f"pkg/{x}.py": f"from pkg import {y}\n" for x, y in (("a", "b"), ("b", "c"), ("c", "a"))}
    assert import_circles(import_graph(write(tmp_path, files))) == [["pkg.a", "pkg.b", "pkg.c"]]


DECLARING = ("option", "Field", "replace")  # calls that declare an option: their help may name options


def texts_given(call: ast.Call) -> list[str]:
    """The text a call is handed directly: its string arguments, the literal parts of its f-strings and of the
    strings it adds together."""
    out = []
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        parts = [arg]
        while parts:
            part = parts.pop()
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                out.append(part.value)
            elif isinstance(part, ast.JoinedStr):
                parts.extend(part.values)
            elif isinstance(part, ast.BinOp):
                parts.extend((part.left, part.right))
    return out


def options_spoken(path) -> list[str]:
    """The texts a module hands to a call (an error, a memory or output check) that name a command-line option (a
    text starting with --, or with -- after a space), with their lines; a command to run, in backquotes, may name
    its options, and an option's declaration its neighbours."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        name = getattr(node, "func", None)
        name = getattr(name, "id", None) or getattr(name, "attr", "")
        if isinstance(node, ast.Call) and name not in DECLARING:
            for text in (re.sub(r"`[^`]*`?", "", s) for s in texts_given(node)):
                if text.startswith("--") or " --" in text:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text}")
    return found


def test_use_cases_name_fields_not_options():
    """No use case (each game's api.py) speaks the command line's language in an error: a request field's error
    is a FieldError naming the field in braces, which the command line tells as --flag and the page by the
    field's label (pipeline/core/errors.py)."""
    use_cases = sorted(PACKAGE.glob("*/api.py")) + sorted(PACKAGE.glob("*/*/api.py"))
    assert len(use_cases) >= 6
    assert [line for path in use_cases for line in options_spoken(path)] == []
