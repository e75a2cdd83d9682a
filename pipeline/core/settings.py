"""Settings declared as data, as options are: each package's manifest lists the config settings it reads (its
table, name, type, default, range or choices and help). The config loader checks a config against them, the
readers take values and defaults from them, the stage fingerprints compare their values (an absent setting is
its default), `wordstats info --settings` lists them and the Makefile takes its defaults from them.

This module imports nothing heavy: the config loader reads it at every start."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class Section(Protocol):
    """What a setting reads its value from: a table of the config (pipeline.core.sections.Section)."""

    where: str

    def has(self, key: str) -> bool: ...
    def allow(self, *names: str) -> None: ...
    def fail(self, key: str, problem: str) -> Any: ...
    def integer(self, key: str, default: Any = ..., lo: int | None = None, hi: int | None = None) -> Any: ...
    def number(self, key: str, default: Any = ..., lo: float | None = None, hi: float | None = None) -> Any: ...
    def flag(self, key: str, default: Any = ...) -> bool: ...
    def text(self, key: str, default: Any = ..., choices: Any = None, pattern: str | None = None) -> Any: ...
    def sequence(self, key: str, default: Any = ..., of: Any = str) -> list: ...
    def section(self, key: str, default: Any = ...) -> Any: ...


KINDS = ("integer", "number", "text", "flag", "list", "table")  # "table": a sub-table its package reads itself


@dataclass(frozen=True)
class Setting:
    """One setting of the config: the TOML table it sits in ("hangman", "boggle.best"), its name, its type,
    its default (None: a value its reader derives), its range or choices, and what it does."""

    table: str
    name: str
    kind: str
    default: Any
    help: str
    lo: Any = None  # an int for an integer setting, a float for a number
    hi: Any = None
    choices: tuple[str, ...] | None = None
    of: type = str  # the items' type of a list
    make: str | None = None  # the Makefile variable whose default this is

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise TypeError(f"setting {self.key}: kind {self.kind!r} is not one of {KINDS}")

    @property
    def key(self) -> str:
        """Its full name: table and name, dotted (the name alone in a file's top table)."""
        return f"{self.table}.{self.name}" if self.table else self.name

    def read(self, sec: Section) -> Any:
        """Its value in `sec` (its table), checked, or its default when absent."""
        if self.kind == "integer":
            return sec.integer(self.name, self.default, lo=self.lo, hi=self.hi)
        if self.kind == "number":
            return sec.number(self.name, self.default, lo=self.lo, hi=self.hi)
        if self.kind == "flag":
            return sec.flag(self.name, self.default)
        if self.kind == "text":
            return sec.text(self.name, self.default, choices=self.choices)
        if self.kind == "list":
            default = None if self.default is None else list(self.default)
            if not sec.has(self.name) and default is None:
                return None
            items = tuple(sec.sequence(self.name, default, of=self.of))
            if self.lo is not None and not all(is_number(x) and self.lo <= x <= self.hi for x in items):
                sec.fail(self.name, f"expected a list of numbers from {bound(self.lo)} to {bound(self.hi)}")
            return items
        return sec.section(self.name, {}).data  # a table: its own reader checks it

    def domain(self) -> str:
        """Its range or choices, in words (empty when any value of its type goes)."""
        if self.kind == "list":
            what = "numbers" if self.of is not str else "names"
            ends = f" from {bound(self.lo)} to {bound(self.hi)}" if self.lo is not None else ""
            return f"a list of {what}{ends}"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.lo is not None and self.hi is not None:
            return f"{bound(self.lo)} to {bound(self.hi)}"
        if self.lo is not None:
            return f"at least {bound(self.lo)}"
        if self.hi is not None:
            return f"at most {bound(self.hi)}"
        return ""


def is_number(value: Any) -> bool:
    """Whether a TOML value is a number (true and false are not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def shown(value: Any) -> str:
    """A value as the config file writes it (TOML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f"{value:.1f}"
    return str(value)


def bound(value: float) -> str:
    """A range's end in words: a large power of two as 2^N."""
    if isinstance(value, int) and value >= 2**20 and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def default_of(declared: tuple[Setting, ...], key: str) -> Any:
    """The default of the setting `key` ("hangman.gallows") among `declared`."""
    return next(s for s in declared if s.key == key).default


def in_table(declared: tuple[Setting, ...], table: str) -> tuple[Setting, ...]:
    """The settings of one table."""
    return tuple(s for s in declared if s.table == table)


def read(sec: Section, declared: tuple[Setting, ...]) -> dict[str, Any]:
    """The values of one table's settings (defaults for absent ones), after refusing a field none declares."""
    here = in_table(declared, sec.where)
    sec.allow(*(s.name for s in here))
    return {s.name: s.read(sec) for s in here if s.kind != "table"}


def tables(declared: tuple[Setting, ...]) -> tuple[str, ...]:
    """The tables the settings declare, in order."""
    return tuple(dict.fromkeys(s.table for s in declared))


def resolved(raw: dict, declared: tuple[Setting, ...]) -> dict:
    """The config's tables with every declared setting's value in place, defaults for absent ones (so that a
    setting written out at its default is the same config as one left out), other fields as written."""
    out = _copy(raw)
    for s in declared:
        if s.kind == "table" or s.default is None:
            continue
        node = out
        for part in s.table.split("."):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                break
        else:
            node.setdefault(s.name, list(s.default) if isinstance(s.default, tuple) else s.default)
    return out


def _copy(value: Any) -> Any:
    """A deep copy of TOML data (tables and lists)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
