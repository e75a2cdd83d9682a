"""Compile every numba kernel before its first use: `make install` runs `python -m pipeline.core.warm GAME` for
each package that declares a warm-up (its manifest's `warmup`: the commands to run), which builds the package's
stages on a small sample of ENABLE with the smallest settings (configs/warm.toml) and runs those commands on it,
so that numba compiles each kernel with the argument types real runs give it and files it in the environment's
cache (pipeline.core.cache_units). Later runs, stages, benchmarks and tests load the machine code from there.

`python -m pipeline.core.warm --prune` removes the cache's versions of units whose sources changed since."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from pipeline.core import cache_units, registry
from pipeline.core.config import PROJECT_ROOT

WARM_CONFIG = PROJECT_ROOT / "configs" / "warm.toml"
WORDS = PROJECT_ROOT / "data" / "raw" / "enable1.txt"
EVERY = 25  # every 25th ENABLE word: some 7,000 words, every length and letter
LEXICON = "warm"


def sample(folder: Path) -> Path:
    """A small word list from ENABLE, written into `folder`."""
    path = folder / f"{LEXICON}.txt"
    path.write_text("\n".join(WORDS.read_text().split()[::EVERY]) + "\n")
    return path


def run(argv: list[str]) -> None:
    """Run one wordstats command in this process (so that every kernel it compiles stays compiled for the
    next); a failure is an error of the warm-up."""
    import contextlib
    import io

    from pipeline.cli.app import app_for

    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            app_for(argv)(argv, prog_name="wordstats", standalone_mode=False)
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise RuntimeError(f"wordstats {' '.join(argv)} failed (exit code {exc.code})") from None


def tool(argv: list[str]) -> None:
    """Run a reference tool (`python -m MODULE ARGS`) in this process; a failure is an error of the warm-up."""
    import contextlib
    import importlib
    import io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = importlib.import_module(argv[0]).main(argv[1:])
    if code not in (0, None):
        raise RuntimeError(f"python -m {' '.join(argv)} failed (exit code {code})")


def warm(game: str) -> None:
    """Build a package's stages on the sample lexicon and run its warm-up commands."""
    manifest = next(m for m in registry.manifests() if m.name == game)
    with tempfile.TemporaryDirectory(prefix=f"wordstats-warm-{game}-") as tmp:
        data = Path(tmp) / "out"
        shared = ["--lexicon", LEXICON, "--data-dir", str(data), "--config", str(WARM_CONFIG)]
        stages = [s.name for s in manifest.stages]
        run(["run", *stages, "--source", str(sample(Path(tmp))), *shared, "--quiet"])
        for command in manifest.warmup:
            if command[0] == "-m":
                tool([arg.format(lexicon=LEXICON, data=data, tmp=tmp) for arg in command[1:]])
            else:
                run([*command, *shared])


def prune() -> list[Path]:
    """Remove the cache's versions of the package's units that are not those of the current sources; returns
    what was removed."""
    root = cache_units.cache_dir()
    current = {folder for folder, _ in current_versions()}
    removed = []
    for unit in sorted(root.glob("pipeline.*")):
        for version in sorted(unit.iterdir()):
            if version.is_dir() and version not in current:
                shutil.rmtree(version, ignore_errors=True)
                removed.append(version)
    return removed


def current_versions() -> list[tuple[Path, str]]:
    """(cache folder, unit name) of every kernel unit of the package as its sources are now."""
    from pipeline.core.modules import PACKAGE_DIR

    root = cache_units.cache_dir()
    out = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if "numba" not in path.read_text(encoding="utf-8"):
            continue
        unit_init = path.parent / "__init__.py"
        declared = unit_init.is_file() and "declare_unit(" in unit_init.read_text(encoding="utf-8")
        if declared:
            cache_units.declare_unit(path.parent)
        found = cache_units.unit_of(str(path))
        if found is not None:
            name, sources = found
            out.append((root / name / cache_units.unit_stamp(sources), name))
    return out


def main(argv: list[str]) -> int:
    """`GAME...`: warm each package's kernels; `--prune`: drop stale versions."""
    if argv == ["--prune"]:
        for path in prune():
            print(f"removed {path}")
        return 0
    known = {m.name for m in registry.manifests() if m.warmup or any(s for s in m.stages)}
    unknown = [g for g in argv if g not in known]
    if not argv or unknown:
        print(f"usage: python -m pipeline.core.warm GAME... ({', '.join(sorted(known))}) | --prune", file=sys.stderr)
        return 2
    os.environ.setdefault("WORDSTATS_QUIET", "1")
    for game in argv:
        warm(game)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
