"""Word-list options: the command-line form of a field, checking values, merging a preset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.core.errors import WordstatsError, pick
from pipeline.wordlists.fields import BY_NAME, field_named
from pipeline.wordlists.manifest import FILE_SETTINGS

PAPERS = next(s.choices for s in FILE_SETTINGS if s.name == "paper") or ()  # the PDF paper sizes
# Options that replace each other: giving one on the command line drops the others from the preset.
GROUPS = ({"common", "min_zipf"},)


def flag(name: str) -> str:
    """The command-line option of field `name` (min_zipf → --min-zipf, count → --sample)."""
    return BY_NAME[name].flag if name in BY_NAME else "--" + name.replace("_", "-")


def check_option(name: str, value: Any) -> Any:
    """An option's value checked (a one-line error when it is not of its field's type, choices or range), a choice
    in its canonical spelling."""
    return field_named(name).validate(value)


def merge(presets: Mapping[str, Mapping[str, Any]], preset: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """The options in force: the preset's (one of `presets`, by name in any case), replaced by those given on the
    command line."""
    options: dict[str, Any] = {}
    if preset is not None:
        options = dict(presets[pick(preset, presets, "preset")])
    # None is "not given"; so is an unset flag (False), which must not undo the preset's.
    given = {k: v for k, v in given.items() if v is not None and not (field_named(k).switch and v is False)}
    for key in given:
        for group in GROUPS:
            if key in group:
                for other in group:
                    options.pop(other, None)
    if given.get("common") and "min_zipf" in given:
        raise WordstatsError("give --common or --min-zipf, not both")
    options.update({key: check_option(key, value) for key, value in given.items()})
    return options
