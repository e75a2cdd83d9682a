"""Build the move generator's kernels ahead of time (numba's pycc): `python -m pipeline.scrabble.aot [PATH]`
writes an extension module that `scrabble best`, `play` and `judge` load without importing numba (see engine).

Each exported kernel is compiled for the argument types the Python side passes it; its return type is the one
numba infers for those arguments."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from pipeline.scrabble.engine import CONSTANTS, EXPORTS, MODULE_NAME, build_path, record_path, source_key

COMPILERS = ("cc", "gcc", "clang")  # what the build looks for (numba's pycc links with the system's compiler)


def argument_types() -> dict[str, tuple]:
    """The numba types of each exported kernel's arguments, as gaddag.py and movegen.py pass them."""
    from numba import types as t

    def array(dtype, ndim: int):
        """A C-contiguous array type."""
        return t.Array(dtype, ndim, "C")

    arcs = array(t.uint32, 1)
    i64 = t.int64
    return {
        "board_plays": (
            arcs,
            array(t.int64, 1),  # tilesets
            array(t.int8, 2),  # board tiles
            array(t.boolean, 2),  # board blanks
            array(t.int64, 1),  # rack counts
            array(t.int64, 1),  # letter values
            array(t.int64, 3),  # letter multipliers, both orientations
            array(t.int64, 3),  # word multipliers
            i64,  # centre row
            i64,  # centre column
            i64,  # bingo bonus
            i64,  # rack size
            i64,  # keep
            array(t.int32, 2),  # out
            array(t.uint64, 1),  # long words' hashes
            array(t.uint64, 1),  # letter hashes
            array(t.int8, 2),  # long words
            array(t.int64, 1),  # their hash table
        ),
        "long_words": (arcs, i64, array(t.uint64, 1)),
        "gaddag_contains": (arcs, array(t.int64, 1)),
        "arc_tilesets": (arcs,),
    }


def compile_module(path: Path) -> None:
    """Compile the exported kernels, the constants and the source key into the extension module at `path`
    (written whole or not at all)."""
    import numpy as np
    from numba.core.errors import NumbaPendingDeprecationWarning
    from numba.pycc import CC

    from pipeline.scrabble import gaddag_kernels as gk

    values = np.array([getattr(gk, name) for name in CONSTANTS], dtype=np.int64)
    key = source_key()

    def constants():
        """The values of engine.CONSTANTS, in that order."""
        return values.copy()

    def source_key_of_build():
        """engine.source_key() of the sources this module was built from."""
        return key

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        cc = CC(MODULE_NAME)
        cc.output_dir = tmp
        cc.output_file = path.name
        cc.target_cpu = "host"  # built where it runs: use the machine's instructions (popcount, ...)
        cc.verbose = False
        types = argument_types()
        for name in EXPORTS:
            args = types[name]
            dispatcher = getattr(gk, name)
            cc.export(name, _return_type(dispatcher, args)(*args))(dispatcher.py_func)
        cc.export("constants", "int64[::1]()")(constants)
        cc.export("source_key", "int64()")(source_key_of_build)
        cc.compile()
        built = Path(tmp) / path.name
        record = Path(tmp) / "record.json"
        record.write_text(json.dumps({"source_key": key, "sha256": hashlib.sha256(built.read_bytes()).hexdigest()}))
        os.replace(built, path)  # the old record does not match the new bytes: a build cut here is not used
        os.replace(record, record_path(path))


def _return_type(dispatcher, args: tuple):
    """The return type numba infers for the kernel called with `args`."""
    dispatcher.compile(args)
    return dispatcher.overloads[tuple(args)].signature.return_type


def main(argv: list[str]) -> int:
    """Build to the path given, or to engine.build_path(); without a C compiler, say so and build nothing."""
    path = Path(argv[0]) if argv else build_path()
    if not any(shutil.which(cc) for cc in COMPILERS):
        print(f"no C compiler ({', '.join(COMPILERS)}): the move generator stays compiled on first use (numba)")
        return 0
    try:
        compile_module(path)
    except Exception as exc:  # the compiler and linker fail in many ways; one line says which
        print(f"error: compiling the move generator ahead of time failed: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
    print(f"compiled the move generator ahead of time → {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
