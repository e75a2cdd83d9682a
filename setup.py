"""The compiled parts of wordstats: each `pipeline/<package>/native/` folder of C sources is built by this
package's own build (setuptools and the system's C compiler, at `pip install`, so at `make install`) into the
extension module `pipeline.<package>._native`, for this machine's processor. The module carries a digest of its
sources and of the processor it was built for; `pipeline.core.native` checks both when it loads it."""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "pipeline" / "core"))
import native_sources  # noqa: E402  (the digests, without importing the package)

ROOT = Path(__file__).resolve().parent


def extension(folder: Path) -> Extension:
    """The extension module built from one native folder."""
    package = ".".join(folder.parent.relative_to(ROOT).parts)
    sources = [str(p.relative_to(ROOT)) for p in native_sources.files(folder) if p.suffix == ".c"]
    return Extension(
        f"{package}._native",
        sources,
        include_dirs=[str(folder)],
        define_macros=[
            ("SOURCE_DIGEST", f'"{native_sources.digest(folder)}"'),
            ("PROCESSOR_DIGEST", f'"{native_sources.processor()}"'),
        ],
        extra_compile_args=["-O3", "-march=native", "-std=c11", "-Wall", "-Wextra", "-Werror=implicit"],
    )


setup(ext_modules=[extension(folder) for folder in native_sources.folders(ROOT / "pipeline")])
