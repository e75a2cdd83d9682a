"""Kernels compiled ahead of time (numba's pycc), so that one-off commands start without importing numba.

A game declares an Engine: the kernels it exports (by name and module), the constants of those modules that
callers read, and the dtype and dimensions of every argument. `make install` builds each engine into the Python
environment (`python -m pipeline.core.aot NAME [PATH]`: numba's pycc and the system's C compiler, for this
machine's processor) and writes a record beside it: the digest of its sources, the module's sha256 and the
processor's. `kernels(engine)` hands out that build when its record matches the current sources, its bytes and
this processor; otherwise (no compiler, an edited kernel, a damaged file, another machine) the numba kernels
themselves, compiled on first use: the same results, a slower start. The build's functions check their
arguments (dtype, dimensions, C order), as numba's would, and raise TypeError; `unchecked` holds them bare,
for a caller that built every argument itself.

This module imports neither numba nor numpy until it builds or hands out a build."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pipeline.core import registry

PACKAGE_DIR = Path(__file__).resolve().parents[1]
ENGINES = registry.engines()  # game name → the module holding its ENGINE (declared in the game's manifest)
COMPILERS = ("cc", "gcc", "clang")  # what a build looks for (pycc links with the system's compiler)
AHEAD_OF_TIME = "ahead of time"
ON_FIRST_USE = "numba, on first use"
MAX_BUILD_BYTES = 64 << 20  # a build is about 1 MB; anything far larger is not one
ELF_MAGIC = b"\x7fELF"
CACHE_UNITS = "pipeline.core.cache_units"  # what declares a unit: a source of every engine that has one


@dataclass(frozen=True)
class Bundle:
    """An argument that is a named tuple of arguments (a kernel's tables bundled into one): its class, by module
    and name, and its fields' arguments in order."""

    module: str
    name: str
    fields: tuple[Argument, ...]

    def kind(self) -> Any:
        """The named tuple class."""
        return getattr(importlib.import_module(self.module), self.name)


Argument = tuple[str, int] | Bundle  # a numpy dtype name and a number of dimensions (0: a scalar), or a bundle


@dataclass(frozen=True)
class Engine:
    """A game's kernels for one-off commands: (function, kernel module, its arguments) triples, (constant,
    kernel module) pairs, the engine's own module, and the packages that are one numba cache unit (their
    kernels call each other's: every file of such a package, and the module that declares units, is a source of
    the build)."""

    name: str
    exports: tuple[tuple[str, str, tuple[Argument, ...]], ...]
    constants: tuple[tuple[str, str], ...]
    module: str
    units: tuple[str, ...] = ()

    @property
    def module_name(self) -> str:
        """The extension module's name."""
        return f"wordstats_{self.name}_aot"

    def sources(self) -> list[Path]:
        """The files the build is made from: the kernel modules, the engine's module and this one."""
        bundles = {a.module for _, _, args in self.exports for a in args if not isinstance(a, tuple)}
        modules = {m for _, m, _ in self.exports} | {m for _, m in self.constants} | {self.module} | bundles
        files = {module_path(m) for m in modules}
        files |= {p for unit in self.units for p in module_path(f"{unit}.__init__").parent.glob("*.py")}
        files |= {module_path(CACHE_UNITS)} if self.units else set()
        return sorted(files) + [Path(__file__).resolve()]

    def build_path(self) -> Path:
        """Where `make install` puts the build: inside the Python environment."""
        return Path(sys.prefix) / "wordstats" / f"{self.module_name}.so"


def module_path(module: str) -> Path:
    """The source file of a module of the pipeline package (without importing it)."""
    return PACKAGE_DIR.joinpath(*module.split(".")[1:]).with_suffix(".py")


def record_path(path: Path) -> Path:
    """A build's record beside it (what make builds): the source key, the module's sha256, the processor; or,
    when nothing could be built, why."""
    return path.with_suffix(".json")


def source_key(engine: Engine) -> int:
    """A 63-bit digest of the engine's sources: a build whose key differs is stale."""
    digest = hashlib.sha256()
    for path in engine.sources():
        digest.update(path.read_bytes())
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def processor() -> str:
    """A digest of this processor's model and instruction sets (a build runs only where it was made)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            lines = [next(line for line in info if line.startswith(key)) for key in ("model name", "flags")]
    except (OSError, StopIteration):
        lines = [platform.machine(), platform.processor()]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


NOT_BUILT = "not built: run `make install`"
DAMAGED = "damaged build: run `make install`"


def read_record(path: Path) -> dict | str:
    """A build's record, or why it cannot be read (a regular file of at most a few kilobytes, JSON, an object)."""
    data = read_regular(record_path(path), 1 << 16)
    if data is None:
        return NOT_BUILT
    try:
        record = json.loads(data)
    except ValueError:
        return "damaged build record: run `make install`"
    return record if isinstance(record, dict) else "damaged build record: run `make install`"


def read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file of at most `limit` bytes, or None: its type and size are checked on the
    open file before anything is read (a pipe never blocks, a device is never read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
        return data if len(data) == info.st_size else None
    except OSError:
        return None
    finally:
        os.close(fd)


def build_problem(engine: Engine, path: Path, key: int | None = None) -> str | None:
    """Why the engine's build at `path` must not be used, or None when it is whole (a regular file of its
    record's size and sha256, every part of it inside the file), was made on this processor and from sources of
    digest `key` (by default the current sources')."""
    problem, _ = checked_build(engine, path, key)
    return problem


def checked_build(engine: Engine, path: Path, key: int | None = None) -> tuple[str | None, bytes | None]:
    """(why the build at `path` must not be used, None) or (None, its bytes, verified)."""
    record = read_record(path)
    if isinstance(record, str):
        return record, None
    if record.get("source_key") is None:
        return f"not built: {record.get('reason', 'unknown')}", None
    if record.get("source_key") != (source_key(engine) if key is None else key):
        return "the build is older than its sources: run `make install`", None
    if record.get("processor") != processor():
        return "built on another processor: run `make install`", None
    size = record.get("bytes")
    if not isinstance(size, int) or not 0 < size <= MAX_BUILD_BYTES:
        return "damaged build record: run `make install`", None
    data = read_regular(path, size)
    if data is None or len(data) != size or record.get("sha256") != hashlib.sha256(data).hexdigest():
        return DAMAGED, None
    if not elf_whole(data):
        return DAMAGED, None
    return None, data


def elf_whole(data: bytes) -> bool:
    """Whether bytes are a 64-bit little-endian ELF file whose program headers, sections and the segments they
    describe all lie inside it (the dynamic loader maps them; a part past the end would fault)."""
    import struct

    if len(data) < 64 or data[:4] != ELF_MAGIC or data[4] != 2 or data[5] != 1:
        return False
    phoff, shoff = struct.unpack_from("<QQ", data, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 54)
    if phoff + phnum * phentsize > len(data) or shoff + shnum * shentsize > len(data):
        return False
    for i in range(phnum):
        offset, _, _, filesz = struct.unpack_from("<QQQQ", data, phoff + i * phentsize + 8)
        if offset + filesz > len(data):
            return False
    for i in range(shnum):
        kind = struct.unpack_from("<I", data, shoff + i * shentsize + 4)[0]
        offset, size = struct.unpack_from("<QQ", data, shoff + i * shentsize + 24)
        if kind != SHT_NOBITS and offset + size > len(data):
            return False
    return True


SHT_NOBITS = 8  # an ELF section that takes no bytes of the file (.bss)


def status(engine: Engine, path: Path | None = None) -> str:
    """What a one-off command will use, in words: the build, or numba and why."""
    problem = build_problem(engine, path or engine.build_path())
    return AHEAD_OF_TIME if problem is None else f"numba ({problem})"


def load_build(engine: Engine, path: Path, key: int | None = None) -> SimpleNamespace | None:
    """The engine's build at `path` when checked_build finds nothing wrong with it, else None; what is loaded
    is a private copy of the bytes checked, so a file changed meanwhile is never what runs."""
    want = source_key(engine) if key is None else key
    problem, data = checked_build(engine, path, want)
    if problem is not None or data is None:
        return None
    try:
        module = load_extension(engine.module_name, data, path)
    except ImportError:  # e.g. built against another numpy
        return None
    if int(module.source_key()) != want:
        return None
    bare = {name: getattr(module, name) for name, _, _ in engine.exports}
    values = module.constants()
    return SimpleNamespace(
        compiled=AHEAD_OF_TIME,
        unchecked=SimpleNamespace(**bare),
        **{name: checked(bare[name], name, args) for name, _, args in engine.exports},
        **{name: int(v) for (name, _), v in zip(engine.constants, values, strict=True)},
    )


def load_extension(name: str, data: bytes, path: Path):
    """Import extension module `name` from `data` (the checked bytes of the file at `path`), through an
    anonymous in-memory file where the system has them, else from `path`."""
    if not hasattr(os, "memfd_create"):
        return _import_from(name, path)
    fd = os.memfd_create(name)
    os.write(fd, data)
    _LOADED.append(fd)  # kept open: the loader tells libraries apart by path, so a number is never reused
    return _import_from(name, Path(f"/proc/self/fd/{fd}"))


_LOADED: list[int] = []  # the in-memory files builds were loaded from, for the life of the process


def _import_from(name: str, path: Path):
    """Import extension module `name` from the file at `path`."""
    import importlib.machinery

    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        raise ImportError(f"{path}: not an extension module")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def checked(function, name: str, arguments: tuple[Argument, ...]):
    """`function` (compiled ahead of time: it reads whatever memory it is given) behind a check of its
    arguments' dtypes, dimensions and order, raising TypeError as numba's dispatcher would."""

    def call(*args):
        if len(args) != len(arguments):
            raise TypeError(f"{name}() takes {len(arguments)} arguments, not {len(args)}")
        for i, (a, argument) in enumerate(zip(args, arguments)):
            problem = mismatch(a, argument)
            if problem is not None:
                raise TypeError(f"{name}(): argument {i}{problem}")
        return function(*args)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = function.__doc__
    return call


def mismatch(value: Any, argument: Argument) -> str | None:
    """Why a value cannot be passed as `argument` (" must be ..., not ..."), or None when it can."""
    import numpy as np

    if not isinstance(argument, tuple):  # a Bundle (of this module, or of __main__ when run as a script)
        kind = argument.kind()
        if not isinstance(value, kind):
            return f" must be a {kind.__name__}, not {describe_value(value)}"
        for field, item, wanted in zip(kind._fields, value, argument.fields, strict=True):
            problem = mismatch(item, wanted)
            if problem is not None:
                return f" {field}{problem}"
        return None
    dtype, ndim = np.dtype(argument[0]), argument[1]
    if ndim == 0:
        ok = isinstance(value, (int, np.integer, bool, np.bool_)) if dtype.kind in "biu" else False
    else:
        ok = type(value) is np.ndarray and value.dtype == dtype and value.ndim == ndim and value.flags.c_contiguous
    return None if ok else f" must be {describe(dtype, ndim)}, not {describe_value(value)}"


def describe(dtype, ndim: int) -> str:
    """An argument type in words."""
    return f"a {dtype} scalar" if ndim == 0 else f"a C-ordered {ndim}-d {dtype} array"


def describe_value(value) -> str:
    """A value's type in words."""
    import numpy as np

    if isinstance(value, np.ndarray):
        order = "C-ordered" if value.flags.c_contiguous else "strided"
        return f"a {order} {value.ndim}-d {value.dtype} array"
    return type(value).__name__


def numba_kernels(engine: Engine) -> SimpleNamespace:
    """The engine's functions and constants from the numba modules themselves."""
    functions = {name: getattr(importlib.import_module(m), name) for name, m, _ in engine.exports}
    return SimpleNamespace(
        compiled=ON_FIRST_USE,
        unchecked=SimpleNamespace(**functions),
        **functions,
        **{name: getattr(importlib.import_module(m), name) for name, m in engine.constants},
    )


@cache
def kernels(engine: Engine) -> SimpleNamespace:
    """The engine's functions and constants: its build when current, else the numba kernels."""
    return load_build(engine, engine.build_path()) or numba_kernels(engine)


def numba_types(arguments: tuple[Argument, ...]) -> tuple:
    """The numba types of arguments (C-ordered arrays; a bundle a named tuple of its fields' types)."""
    import numpy as np
    from numba import from_dtype, types

    out = []
    for argument in arguments:
        if not isinstance(argument, tuple):  # a Bundle
            out.append(types.NamedTuple(numba_types(argument.fields), argument.kind()))
        else:
            dtype, ndim = np.dtype(argument[0]), argument[1]
            out.append(from_dtype(dtype) if ndim == 0 else types.Array(from_dtype(dtype), ndim, "C"))
    return tuple(out)


def compile_engine(engine: Engine, path: Path) -> None:
    """Compile the engine's functions, constants and source key into the extension module at `path` (the
    module and its record each replaced whole; a build cut short leaves a record that does not match)."""
    import numpy as np
    from numba.core.errors import NumbaPendingDeprecationWarning
    from numba.pycc import CC

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
        cc.target_cpu = "host"  # built where it runs (the record names the processor): its instructions
        cc.verbose = False
        for name, module, arguments in engine.exports:
            dispatcher = getattr(importlib.import_module(module), name)
            args = numba_types(arguments)
            dispatcher.compile(args)
            result = dispatcher.overloads[tuple(args)].signature.return_type
            cc.export(name, result(*args))(dispatcher.py_func)
        cc.export("constants", "int64[::1]()")(constants)
        cc.export("source_key", "int64()")(built_from)
        cc.compile()
        built = Path(tmp) / path.name
        data = built.read_bytes()
        if not elf_whole(data):
            raise RuntimeError(f"{built}: the compiler wrote an incomplete module")
        os.replace(built, path)
        record = {"source_key": key, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        write_record(path, {**record, "processor": processor()})


def write_record(path: Path, record: dict) -> None:
    """Replace a build's record whole."""
    target = record_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=target.parent, delete=False, suffix=".tmp") as f:
        json.dump(record, f)
    os.replace(f.name, target)


def engine_named(name: str) -> Engine:
    """The engine of a game, by name."""
    return importlib.import_module(ENGINES[name]).ENGINE


def build(engine: Engine, path: Path) -> str:
    """Build the engine to `path` in a child process (a compiler that aborts cannot take make down with it);
    on any failure leave a record saying why, so that commands use numba and make sees the target made."""
    if not any(shutil.which(cc) for cc in COMPILERS):
        reason = f"no C compiler ({', '.join(COMPILERS)})"
    else:
        child = subprocess.run(
            [sys.executable, "-m", "pipeline.core.aot", "--child", engine.name, str(path)],
            capture_output=True,
            text=True,
        )
        if child.returncode == 0:
            return f"compiled the {engine.name} kernels ahead of time → {path}"
        lines = (child.stderr or child.stdout).strip().splitlines() or [f"exit code {child.returncode}"]
        reason = f"the compiler failed: {lines[-1]}"
    write_record(path, {"source_key": None, "reason": reason})
    return f"warning: {engine.name} kernels not compiled ahead of time ({reason}); commands use numba"


def needs_build(engine: Engine, path: Path) -> bool:
    """Whether `make install` must build the engine again: its record or its file is missing or wrong, or it
    was built elsewhere or from other sources (a record of a build that could not be made is kept: make
    tries again when the sources change)."""
    record = read_record(path)
    if not isinstance(record, str) and record.get("source_key") is None:
        return False
    return build_problem(engine, path) is not None


def stale_records(records: list[str]) -> list[str]:
    """The records (make's targets, wordstats_NAME_aot.json) whose engine needs a build."""
    out = []
    for record in records:
        name = Path(record).stem.removeprefix("wordstats_").removesuffix("_aot")
        if name in ENGINES and needs_build(engine_named(name), Path(record).with_suffix(".so")):
            out.append(record)
    return out


def main(argv: list[str]) -> int:
    """`NAME [PATH]`: build engine NAME to PATH (by default its build_path); never fails make. `--stale
    RECORD...`: print the records whose build `make install` must make again."""
    if argv[:1] == ["--stale"]:
        print(" ".join(stale_records(argv[1:])))
        return 0
    child = argv[:1] == ["--child"]
    argv = argv[1:] if child else argv
    if not argv or argv[0] not in ENGINES:
        print(f"usage: python -m pipeline.core.aot {{{'|'.join(ENGINES)}}} [PATH]", file=sys.stderr)
        return 2
    engine = engine_named(argv[0])
    path = Path(argv[1]).with_suffix(".so") if len(argv) > 1 else engine.build_path()
    if child:
        compile_engine(engine, path)
        return 0
    print(build(engine, path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
