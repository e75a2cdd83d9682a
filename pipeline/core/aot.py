"""Kernels compiled ahead of time (numba's pycc), so that one-off commands start without importing numba.

A game declares an Engine: the kernels it exports (by name and module), the constants of those modules that
callers read, and where the argument types each kernel is compiled for are given. `make install` builds each
engine into the Python environment (`python -m pipeline.core.aot NAME [PATH]`, numba's pycc and the system's C
compiler, for this machine's processor), beside a record of its sources' digest and the module's sha256.
`kernels(engine)` hands out that build when its record matches the current sources and its bytes match the
record; otherwise (no compiler, an edited kernel, a damaged file) the numba kernels themselves, compiled on first
use: the same results, a slower start.

This module imports neither numba nor numpy until it builds."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace

PACKAGE_DIR = Path(__file__).resolve().parents[1]
ENGINES = {"scrabble": "pipeline.scrabble.engine", "boggle": "pipeline.boggle.engine"}  # name → its module
COMPILERS = ("cc", "gcc", "clang")  # what a build looks for (pycc links with the system's compiler)
AHEAD_OF_TIME = "ahead of time"
ON_FIRST_USE = "numba, on first use"


@dataclass(frozen=True)
class Engine:
    """A game's kernels for one-off commands: (function, kernel module) pairs, (constant, kernel module) pairs,
    and the engine's own module, whose argument_types() gives each function's numba argument types."""

    name: str
    exports: tuple[tuple[str, str], ...]
    constants: tuple[tuple[str, str], ...]
    module: str

    @property
    def module_name(self) -> str:
        """The extension module's name."""
        return f"wordstats_{self.name}_aot"

    def sources(self) -> list[Path]:
        """The files the build is made from: the kernel modules, the engine's module and this one."""
        modules = sorted({m for _, m in self.exports} | {m for _, m in self.constants} | {self.module})
        return [module_path(m) for m in modules] + [Path(__file__).resolve()]

    def build_path(self) -> Path:
        """Where `make install` puts the build: inside the Python environment."""
        return Path(sys.prefix) / "wordstats" / f"{self.module_name}.so"


def module_path(module: str) -> Path:
    """The source file of a module of the pipeline package (without importing it)."""
    return PACKAGE_DIR.joinpath(*module.split(".")[1:]).with_suffix(".py")


def record_path(path: Path) -> Path:
    """A build's record beside it: the source key it was built from and the sha256 of the module's bytes."""
    return path.with_suffix(".json")


def source_key(engine: Engine) -> int:
    """A 63-bit digest of the engine's sources: a build whose key differs is stale."""
    digest = hashlib.sha256()
    for path in engine.sources():
        digest.update(path.read_bytes())
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def load_build(engine: Engine, path: Path, key: int | None = None) -> SimpleNamespace | None:
    """The engine's build at `path` if it exists, is whole (its bytes match its record) and was made from
    sources of digest `key` (by default the current sources'), else None."""
    try:
        record = json.loads(record_path(path).read_text())
        data = path.read_bytes()
    except (OSError, ValueError):
        return None
    want = source_key(engine) if key is None else key
    if not isinstance(record, dict) or record.get("source_key") != want:
        return None
    if record.get("sha256") != hashlib.sha256(data).hexdigest():
        return None
    spec = importlib.util.spec_from_file_location(engine.module_name, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:
        return None
    if int(module.source_key()) != want:
        return None
    values = module.constants()
    return SimpleNamespace(
        compiled=AHEAD_OF_TIME,
        **{name: getattr(module, name) for name, _ in engine.exports},
        **{name: int(v) for (name, _), v in zip(engine.constants, values, strict=True)},
    )


def numba_kernels(engine: Engine) -> SimpleNamespace:
    """The engine's functions and constants from the numba modules themselves."""
    return SimpleNamespace(
        compiled=ON_FIRST_USE,
        **{name: getattr(importlib.import_module(m), name) for name, m in engine.exports + engine.constants},
    )


@cache
def kernels(engine: Engine) -> SimpleNamespace:
    """The engine's functions and constants: its build when current, else the numba kernels."""
    return load_build(engine, engine.build_path()) or numba_kernels(engine)


def compile_engine(engine: Engine, path: Path) -> None:
    """Compile the engine's functions, constants and source key into the extension module at `path` (the
    module and its record each replaced whole; a build cut short leaves a record that does not match)."""
    import numpy as np
    from numba.core.errors import NumbaPendingDeprecationWarning
    from numba.pycc import CC

    types = importlib.import_module(engine.module).argument_types()
    values = np.array([getattr(importlib.import_module(m), n) for n, m in engine.constants], dtype=np.int64)
    key = source_key(engine)

    def constants():
        """The values of the engine's constants, in their order."""
        return values.copy()

    def built_from():
        """The source key of the sources this module was built from."""
        return key

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        cc = CC(engine.module_name)
        cc.output_dir = tmp
        cc.output_file = path.name
        cc.target_cpu = "host"  # built where it runs: use the machine's instructions (popcount, ...)
        cc.verbose = False
        for name, module in engine.exports:
            dispatcher = getattr(importlib.import_module(module), name)
            args = types[name]
            dispatcher.compile(args)
            result = dispatcher.overloads[tuple(args)].signature.return_type
            cc.export(name, result(*args))(dispatcher.py_func)
        cc.export("constants", "int64[::1]()")(constants)
        cc.export("source_key", "int64()")(built_from)
        cc.compile()
        built, record = Path(tmp) / path.name, Path(tmp) / "record.json"
        record.write_text(json.dumps({"source_key": key, "sha256": hashlib.sha256(built.read_bytes()).hexdigest()}))
        os.replace(built, path)
        os.replace(record, record_path(path))


def engine_named(name: str) -> Engine:
    """The engine of a game, by name."""
    return importlib.import_module(ENGINES[name]).ENGINE


def main(argv: list[str]) -> int:
    """`NAME [PATH]`: build engine NAME to PATH (by default its build_path); without a C compiler, say so."""
    if not argv or argv[0] not in ENGINES:
        print(f"usage: python -m pipeline.core.aot {{{'|'.join(ENGINES)}}} [PATH]", file=sys.stderr)
        return 2
    engine = engine_named(argv[0])
    path = Path(argv[1]) if len(argv) > 1 else engine.build_path()
    if not any(shutil.which(cc) for cc in COMPILERS):
        print(f"no C compiler ({', '.join(COMPILERS)}): the {engine.name} kernels stay compiled on first use (numba)")
        return 0
    try:
        compile_engine(engine, path)
    except Exception as exc:  # the compiler and linker fail in many ways; one line says which
        print(
            f"error: compiling the {engine.name} kernels ahead of time failed: {str(exc).splitlines()[0]}",
            file=sys.stderr,
        )
        return 1
    print(f"compiled the {engine.name} kernels ahead of time → {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
