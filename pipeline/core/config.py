"""Load a TOML config into frozen dataclasses; a bad field is an error that names the file and field."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import WordstatsError, unknown
from pipeline.core.sections import MISSING, Section, parse_toml, read_regular_file
from pipeline.letters.tilesets import TileSet, read_tile_set

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA_DIR = Path("data/out")  # where outputs live, in the config's project
DEFAULT_CONFIG = Path("configs/default.toml")
MAX_WORD_LENGTH = 45  # longer entries are dropped as too_long unless a lexicon's max_length says otherwise
MAX_WORD_LENGTH_CAP = 255  # the largest max_length a lexicon may set
MAX_SOURCE_BYTES = 512 * 2**20  # a word list (file or package resource) larger than this is refused
MAX_CONFIG_BYTES = 2**20
PACKAGE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")  # used with fullmatch
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # used with fullmatch: no trailing newline


@dataclass(frozen=True)
class Source:
    """Where a word list comes from: a file path, or a data file inside an installed package."""

    label: str  # as written in the config, used in provenance (never an absolute path)
    path: Path | None = None
    package: str | None = None
    resource: str | None = None
    format: str = "text"  # "text" (one word per line or whitespace-separated) or "pickle" (a set of str)
    sha256: str | None = None

    @property
    def where(self) -> str:
        """How error messages name this source: the file path as given, or package:resource."""
        return str(self.path) if self.path is not None else self.label


@dataclass(frozen=True)
class LexiconSpec:
    """A named word list: its sources and the rules that normalise it."""

    name: str
    sources: tuple[Source, ...]
    min_length: int = 1
    max_length: int | None = None
    drop_capitalised: bool = False
    fold_accents: bool = True
    description: str = ""
    stages: tuple[str, ...] | None = None  # the stages `make all` and a bare `run` build (None: every stage)


@dataclass(frozen=True)
class Config:
    """The whole configuration: lexicons, tile sets and each stage's section."""

    path: Path
    sha256: str
    default_lexicon: str
    lexicons: dict[str, LexiconSpec]
    tiles: dict[str, TileSet]
    raw: dict = field(repr=False, default_factory=dict)
    teacher_lexicon: str = ""  # the lexicon of teachers' lists and sheets (default_lexicon when unset)
    layers: tuple[Path, ...] = ()  # the files it was read from: itself, then the configs it extends
    origins: dict[tuple[str, ...], Path] = field(repr=False, default_factory=dict)  # a value's keys → its folder

    def folder(self, *keys: str) -> Path:
        """The folder a relative path in field `keys` is relative to: that of the file (of the config or of a
        config it extends) that set the field."""
        return folder_of(self.origins, keys, self.path)

    def section(self, name: str) -> Section:
        """The raw TOML table `name` (empty when absent), for stages that read their own settings."""
        return Section(self.raw.get(name, {}), name, self.path)

    def lexicon(self, name: str) -> LexiconSpec:
        """The lexicon `name`, or an error listing the known ones."""
        if name not in self.lexicons:
            raise WordstatsError(f"{unknown(name, sorted(self.lexicons), 'lexicon')} in {self.path}")
        return self.lexicons[name]


def default_config_path() -> Path:
    """The config to use when none is given: $WORDSTATS_CONFIG, ./configs/default.toml, or the project's."""
    env = os.environ.get("WORDSTATS_CONFIG")
    if env:
        return Path(env)
    if DEFAULT_CONFIG.exists():
        return DEFAULT_CONFIG
    return PROJECT_ROOT / DEFAULT_CONFIG


def load_config(path: Path | str | None = None) -> Config:
    """Read and validate a config file (and the configs it extends)."""
    path = Path(path) if path is not None else default_config_path()
    layers = read_layers(path)
    raw, origins = merge_layers(layers)
    top = Section(raw, "", path)
    top.allow(*top_level())
    lexicons = {
        name: _lexicon(name, sec, folder_of(origins, ("lexicons", name, "sources"), path))
        for name, sec in top.sections("lexicons").items()
    }
    if not lexicons:
        top.fail("lexicons", "at least one lexicon must be declared")
    default = top.text("default_lexicon", next(iter(lexicons)))
    if default not in lexicons:
        top.fail("default_lexicon", f"{default!r} is not a declared lexicon")
    teacher = top.text("teacher_lexicon", default)
    if teacher not in lexicons:
        top.fail("teacher_lexicon", f"{teacher!r} is not a declared lexicon")
    tiles = {name: read_tile_set(name, sec) for name, sec in top.sections("tiles").items()}
    check_settings(top)
    digest = hashlib.sha256(layers[0][1]) if len(layers) == 1 else hashlib.sha256(b"".join(d for _, d, _ in layers))
    return Config(
        path=path,
        sha256=digest.hexdigest(),
        default_lexicon=default,
        teacher_lexicon=teacher,
        lexicons=lexicons,
        tiles=tiles,
        raw=raw,
        layers=tuple(p for p, _, _ in layers),
        origins=origins,
    )


# A config may overlay another: `extends = "PATH"` (relative to it) names its base, whose values it keeps unless
# it sets them; tables are merged key by key, except the top-level tables named in `replace = ["lexicons"]`,
# which it declares whole. A relative path in a value is relative to the file that set it.
EXTENDS, REPLACE = "extends", "replace"
MAX_LAYERS = 8  # a config and the configs it extends, in all


def read_layers(path: Path) -> list[tuple[Path, bytes, dict]]:
    """A config file and the configs it extends, each as (path, bytes, TOML document), the config first."""
    layers: list[tuple[Path, bytes, dict]] = []
    while True:
        data = read_regular_file(path, "config file", MAX_CONFIG_BYTES)
        raw = parse_toml(data, path, "config")
        layers.append((path, data, raw))
        top = Section(raw, "", path)
        if not top.has(EXTENDS):
            return layers
        base = path.parent / top.text(EXTENDS)
        if base.resolve() in {p.resolve() for p, _, _ in layers} or len(layers) >= MAX_LAYERS:
            top.fail(EXTENDS, f"configs extend each other in a circle (or more than {MAX_LAYERS} deep)")
        path = base


def merge_layers(layers: list[tuple[Path, bytes, dict]]) -> tuple[dict, dict[tuple[str, ...], Path]]:
    """The configs' values merged, the base first (each overlay's values replacing its base's), and for each
    value set, the folder of the file that set it."""
    merged: dict = {}
    origins: dict[tuple[str, ...], Path] = {}
    for path, _, raw in reversed(layers):
        top = Section(raw, "", path)
        whole = set(top.sequence(REPLACE, []))
        body = {k: v for k, v in raw.items() if k not in (EXTENDS, REPLACE)}
        for key in whole:
            if key not in body:
                top.fail(REPLACE, f"{key!r} is not a table of this config")
        overlay(merged, body, path.parent, origins, (), whole)
    return merged, origins


def overlay(into: dict, layer: dict, folder: Path, origins: dict, keys: tuple[str, ...], whole: set[str]) -> None:
    """Set `layer`'s values into `into`: tables merged key by key (those in `whole` replaced), other values
    replaced; each value set is noted as coming from `folder`."""
    for key, value in layer.items():
        here = keys + (key,)
        if isinstance(value, dict) and isinstance(into.get(key), dict) and not (not keys and key in whole):
            overlay(into[key], value, folder, origins, here, whole)
            continue
        for old in [k for k in origins if k[: len(here)] == here]:
            del origins[old]
        into[key] = value
        origins[here] = folder


def folder_of(origins: dict[tuple[str, ...], Path], keys: tuple[str, ...], path: Path) -> Path:
    """The folder of the file that set the field `keys` (or an enclosing table), else the config's."""
    for end in range(len(keys), 0, -1):
        if keys[:end] in origins:
            return origins[keys[:end]]
    return path.parent


def check_settings(top: Section) -> None:
    """Check every declared setting the config sets (its type and range or choices) and refuse a field of a
    declared table that no setting declares (a one-line error naming the file and the field)."""
    from pipeline.core.registry import settings
    from pipeline.core.settings import read, tables

    declared = settings()
    for table in tables(declared):
        sec = top
        for part in table.split("."):
            if not sec.has(part):
                break
            sec = sec.section(part)
        else:
            read(sec, declared)


def top_level() -> tuple[str, ...]:
    """The top-level fields and tables a config may have: the core's and each package's sections."""
    from pipeline.core.registry import sections

    return sections()


def _lexicon(name: str, sec: Section, base: Path) -> LexiconSpec:
    """The lexicon [lexicons.NAME], validated; source paths are relative to `base`."""
    if not NAME_RE.fullmatch(name):
        sec.fail("", "a lexicon name is letters, digits, '_', '-' or '.'")
    sec.allow("sources", "min_length", "max_length", "drop_capitalised", "fold_accents", "description", "stages")
    raw_sources = sec._get("sources", MISSING)
    if not isinstance(raw_sources, list) or not raw_sources:
        sec.fail("sources", "expected a non-empty list of sources")
    sources = tuple(
        _source(Section(item, f"{sec.where}.sources[{i}]", sec.file), base) for i, item in enumerate(raw_sources)
    )
    min_length = sec.integer("min_length", 1, lo=1)
    max_length = sec.integer("max_length", None, lo=min_length, hi=MAX_WORD_LENGTH_CAP)
    return LexiconSpec(
        name=name,
        sources=sources,
        min_length=min_length,
        max_length=max_length,
        drop_capitalised=sec.flag("drop_capitalised", False),
        fold_accents=sec.flag("fold_accents", True),
        description=sec.text("description", ""),
        stages=_stage_names(sec),
    )


def _stage_names(sec: Section) -> tuple[str, ...] | None:
    """A lexicon's `stages` list, checked against the stage registry (None when absent: every stage)."""
    if not sec.has("stages"):
        return None
    from pipeline.core.registry import stages

    known = [s.name for s in stages()]
    names = sec.sequence("stages")
    for name in names:
        if name not in known:
            sec.fail("stages", f"unknown stage {name!r} (stages: {', '.join(known)})")
    return tuple(names)


def _source(sec: Section, base: Path) -> Source:
    """One source of a lexicon: a file (relative to `base`) or a package resource."""
    sec.allow("path", "package", "resource", "format", "sha256")
    fmt = sec.text("format", "text", choices=("text", "pickle"))
    sha = sec.text("sha256", None, pattern=r"[0-9a-f]{64}")
    if sec.has("path"):
        if sec.has("package"):
            sec.fail("package", "give either path or package, not both")
        written = sec.text("path")
        if fmt == "pickle":
            sec.fail("format", "pickle sources must come from an installed package (package + resource), not a path")
        return Source(label=written, path=base / written, format=fmt, sha256=sha)
    package, resource = sec.text("package"), sec.text("resource")
    if not PACKAGE_RE.fullmatch(package):
        sec.fail("package", f"{package!r} is not a package name")
    parts = Path(resource).parts
    if not parts or Path(resource).is_absolute() or ".." in parts or "\\" in resource:
        sec.fail("resource", f"{resource!r} must be a path inside the package (no .., not absolute)")
    return Source(label=f"{package}:{resource}", package=package, resource=resource, format=fmt, sha256=sha)


def adhoc_lexicon(
    name: str, paths: list[Path], min_length: int | None = None, max_length: int | None = None
) -> LexiconSpec:
    """A lexicon for word lists named on the command line: every entry made only of letters, any length."""
    check_lexicon_name(name)
    if min_length is not None and max_length is not None and max_length < min_length:
        raise WordstatsError(f"--max-length {max_length} is below --min-length {min_length}")
    sources = tuple(Source(label=Path(p).name, path=Path(p)) for p in paths)
    return LexiconSpec(
        name=name,
        sources=sources,
        min_length=min_length or 1,
        max_length=max_length,
        drop_capitalised=False,
        fold_accents=True,
        description="ad hoc word list",
    )


def check_lexicon_name(name: str) -> str:
    """The name, if it is a valid lexicon name (it becomes a folder name)."""
    if not NAME_RE.fullmatch(name):
        raise WordstatsError(f"invalid lexicon name {name!r}: use at most 64 letters, digits, '_', '-' or '.'")
    return name


# ---- the data folder -------------------------------------------------------------------------------------


def default_data_dir(config_path: Path | None = None) -> Path:
    """Where outputs live when --data-dir is not given (see resolve_data_dir)."""
    return resolve_data_dir(None, config_path)[0]


def project_of(config_path: Path) -> Path:
    """The project folder of a config file: the parent of its `configs/` folder, else the file's folder."""
    folder = Path(config_path).resolve().parent
    return folder.parent if folder.name == "configs" else folder


def resolve_data_dir(given: Path | None, config_path: Path | None = None) -> tuple[Path, str]:
    """The data folder and how it was found: --data-dir, $WORDSTATS_DATA, or the config's project's data/out.

    Never the current folder alone: the same command finds the same tables wherever it runs."""
    if given is not None:
        return Path(given), "--data-dir"
    env = os.environ.get("WORDSTATS_DATA")
    if env:
        return Path(env), "WORDSTATS_DATA"
    if config_path is None:
        config_path = default_config_path()
    return project_of(config_path) / DEFAULT_DATA_DIR, f"the project of {config_path}"
