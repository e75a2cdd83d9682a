"""A stage's settings fingerprint: the config sections, tile sets and lexicon rules it reads, and its parameters."""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pipeline.core.config import Config, LexiconSpec
from pipeline.core.errors import WordstatsError

if TYPE_CHECKING:
    from pipeline.core.manifest import Stage


class Reads:
    """What a stage read from the config: top-level sections, tile sets, and whether it read the lexicon."""

    def __init__(self) -> None:
        self.sections: set[str] = set()
        self.tiles: set[str] = set()
        self.lexicon = False

    def covers(self, other: Reads) -> bool:
        """Whether everything `other` read was read here too."""
        return other.sections <= self.sections and other.tiles <= self.tiles and (self.lexicon or not other.lexicon)


class _TrackedDict(dict):
    """A dict that notes each key looked up (membership tests and iteration count as reading)."""

    def __init__(self, data: dict, seen: set[str]):
        super().__init__(data)
        self._seen = seen

    def __getitem__(self, key: Any) -> Any:
        self._seen.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        """The value of `key` (noted as read), or `default`."""
        self._seen.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._seen.add(key)  # type: ignore[arg-type]
        return super().__contains__(key)

    def __iter__(self) -> Iterator[Any]:
        self._seen.update(self.keys())
        return super().__iter__()


class _TrackedSpec:
    """A lexicon spec that notes when any of its fields is read."""

    def __init__(self, spec: LexiconSpec, reads: Reads):
        self._spec, self._reads = spec, reads

    def __getattr__(self, name: str) -> Any:
        self._reads.lexicon = True
        return getattr(self._spec, name)


def tracked(config: Config, spec: LexiconSpec | None, reads: Reads) -> tuple[Config, LexiconSpec | None]:
    """A config and lexicon spec that record in `reads` what is read from them."""
    watched = dataclasses.replace(
        config, raw=_TrackedDict(config.raw, reads.sections), tiles=_TrackedDict(config.tiles, reads.tiles)
    )
    return watched, (_TrackedSpec(spec, reads) if spec is not None else None)  # type: ignore[return-value]


def settings(config: Config, spec: LexiconSpec | None, reads: Reads, params: dict[str, Any]) -> dict[str, Any]:
    """The settings a stage depends on: the sections and tile sets it read (every declared setting at its value,
    an absent one at its default: writing a default out changes nothing), its lexicon's rules, its params."""
    from pipeline.core.registry import settings as declared
    from pipeline.core.settings import resolved

    raw = resolved(config.raw, declared())
    tiles = {name: dataclasses.asdict(config.tiles[name]) for name in sorted(reads.tiles) if name in config.tiles}
    return {
        "sections": {name: raw[name] for name in sorted(reads.sections) if name in raw},
        "tiles": tiles,
        "lexicon": _spec_dict(spec) if reads.lexicon and spec is not None else None,
        "params": params,
    }


def _spec_dict(spec: LexiconSpec) -> dict[str, Any]:
    """A lexicon spec as plain data: its rules and its sources (labels and pinned hashes, not absolute paths)."""
    out = dataclasses.asdict(spec)
    out.pop("description")  # words do not depend on it
    out["sources"] = [{"label": s.label, "format": s.format, "sha256": s.sha256} for s in spec.sources]
    return out


def text(settings: dict[str, Any]) -> str:
    """The fingerprint file's content: the settings as stable JSON."""
    return json.dumps(settings, indent=1, sort_keys=True, ensure_ascii=False, default=str) + "\n"


def stage_settings(stage: Stage, config: Config, spec: LexiconSpec | None) -> tuple[dict[str, Any], Reads]:
    """A stage's parameters (recorded in provenance), and what they read from the config."""
    reads = Reads()
    watched, watched_spec = tracked(config, spec, reads)
    return importlib.import_module(stage.module).params(watched, watched_spec), reads


def stage_fingerprint(stage: Stage, config: Config, spec: LexiconSpec | None) -> str:
    """The settings a stage depends on for one lexicon, as text (a config error becomes part of it)."""
    try:
        params, reads = stage_settings(stage, config, spec)
    except WordstatsError as exc:
        return text({"error": str(exc)})
    return text(settings(config, spec, reads, params))
