"""The packages' manifests gathered (pipeline/games.py lists the packages, each one's manifest.py declares what
it brings): every stage in dependency order, every table's schema, the config's top-level sections and the
command-line modules. A manifest that contradicts another is a RuntimeError at first use."""

from __future__ import annotations

import dataclasses
import functools
import importlib
from typing import TYPE_CHECKING

from pipeline import games

if TYPE_CHECKING:
    from pipeline.core.manifest import Manifest, Stage, Table
    from pipeline.core.settings import Setting

# The config's own top-level fields and tables (every other one is a package's section).
CORE_SECTIONS = ("default_lexicon", "teacher_lexicon", "lexicons", "tiles", "cluster")


def manifest_module(package: str) -> str:
    """The module of a package's manifest."""
    return f"{package}.manifest"


@functools.cache
def manifests() -> tuple[Manifest, ...]:
    """The manifests of the games' list, their stages marked with their manifest, checked."""
    found = []
    for package in games.GAMES:
        module = manifest_module(package)
        declared: Manifest = importlib.import_module(module).MANIFEST
        stages = tuple(dataclasses.replace(s, manifest=module) for s in declared.stages)
        found.append(dataclasses.replace(declared, stages=stages))
    check(found)
    return tuple(found)


def stages() -> tuple[Stage, ...]:
    """Every stage, in dependency order (a stage comes after every stage whose tables it reads)."""
    return tuple(s for m in manifests() for s in m.stages)


def tables() -> dict[str, Table]:
    """Every table's declared schema, by table name."""
    return {t.name: t for m in manifests() for t in m.tables}


def sections() -> tuple[str, ...]:
    """The top-level fields and tables a config may have: the core's, then each package's sections."""
    return CORE_SECTIONS + tuple(s for m in manifests() for s in m.sections)


def settings() -> tuple[Setting, ...]:
    """Every declared setting of the config: the core's, then each package's, in the games' order."""
    from pipeline.core.declared import CORE_SETTINGS

    return CORE_SETTINGS + tuple(s for m in manifests() for s in m.settings)


def setting(key: str) -> Setting:
    """The declared setting `key` ("hangman.gallows")."""
    found = [s for s in settings() if s.key == key]
    if not found:
        raise KeyError(f"no setting {key!r} is declared")
    return found[0]


def value(config, key: str):
    """The value of the declared setting `key` in a config (its default when absent): how one package reads
    another's setting without importing it."""
    declared = setting(key)
    sec = config.section(declared.table.split(".")[0])
    for part in declared.table.split(".")[1:]:
        sec = sec.section(part, {})
    return declared.read(sec)


def commands() -> dict[str, tuple[str, ...]]:
    """The command-line modules of every package, in the games' order, each with the names of the commands (and
    command groups) it registers."""
    return {module: names for m in manifests() for module, names in m.commands.items()}


def producer(name: str) -> Stage | None:
    """The stage that writes file `name` (a table's name stands for its .parquet file), or None."""
    for s in stages():
        if name in s.outputs or f"{name}.parquet" in s.outputs:
            return s
    return None


def check(found: list[Manifest]) -> None:
    """Raise RuntimeError when manifests contradict each other: a name declared twice, a stage reading a table
    no earlier stage writes, a Parquet output without a schema, a schema no stage of its package writes."""
    names: set[str] = set()
    sections: set[str] = set(CORE_SECTIONS)
    stage_names: set[str] = set()
    schemas: set[str] = set()
    made: dict[str, Stage] = {}  # table (or file stem) → the stage that writes it
    for m in found:
        if m.name in names:
            raise RuntimeError(f"two packages are named {m.name!r}")
        names.add(m.name)
        for section in m.sections:
            if section in sections:
                raise RuntimeError(f"{m.name}: config section {section!r} is declared twice")
            sections.add(section)
        for setting in m.settings:
            top = setting.table.split(".")[0]
            if top not in m.sections:
                raise RuntimeError(f"{m.name}: setting {setting.key!r} is outside its sections {m.sections}")
        keys = [setting.key for setting in m.settings]
        if len(set(keys)) != len(keys):
            raise RuntimeError(f"{m.name}: a setting is declared twice")
        own = {t.name for t in m.tables}
        if own & schemas:
            raise RuntimeError(f"{m.name}: tables {sorted(own & schemas)} are declared twice")
        schemas |= own
        for s in m.stages:
            if s.name in stage_names:
                raise RuntimeError(f"{m.name}: stage {s.name!r} is declared twice")
            stage_names.add(s.name)
            for table in s.inputs:
                if table not in made:
                    raise RuntimeError(f"stage {s.name!r} reads {table!r}, which no stage before it writes")
            for output in s.outputs:
                stem, _, suffix = output.partition(".")
                if stem in made:
                    raise RuntimeError(f"stage {s.name!r} writes {output!r}, which stage {made[stem].name!r} writes")
                if suffix == "parquet" and stem not in own:
                    raise RuntimeError(f"{m.name}: table {stem!r} of stage {s.name!r} has no schema in its manifest")
                made[stem] = s
        written = {o.partition(".")[0] for s in m.stages for o in s.outputs}
        if own - written:
            raise RuntimeError(f"{m.name}: no stage of the package writes tables {sorted(own - written)}")
    for s in (s for m in found for s in m.stages):
        unknown = [t for t in s.optional_inputs if t not in made]
        if unknown:
            raise RuntimeError(f"stage {s.name!r} reads {unknown}, which no stage writes")
