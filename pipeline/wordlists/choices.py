"""The choices of a word list: the vocabulary's fields given (on the command line, on the page, in a preset), each
parsed once by its field into its typed value; a preset's choices replaced by those given, field by field."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pipeline.core.errors import FieldError, WordstatsError, about, pick
from pipeline.wordlists.fields import BY_NAME, field_named

# Options that replace each other: giving one drops the others from the preset.
GROUPS = ({"common", "min_zipf"},)


def flag(name: str) -> str:
    """The command-line option of field `name` (min_zipf → --min-zipf, count → --sample)."""
    return BY_NAME[name].flag if name in BY_NAME else "--" + name.replace("_", "-")


class Choices(Mapping[str, Any]):
    """The vocabulary's fields in force by name, each a parsed value (a length a Span, a pattern a ListPattern,
    letters in capitals: pipeline/wordlists/values.py); read-only."""

    __slots__ = ("_values",)

    def __init__(self, parsed: Mapping[str, Any] | None = None):
        self._values = dict(parsed or {})

    @classmethod
    def of(cls, given: Mapping[str, Any]) -> Choices:
        """The choices given as text or plain values (a form's, a preset's, the command line's), each checked and
        parsed by its field; None and an unset switch (a bare flag left off) are not given. A value already parsed
        (another Choices' value) is read as the text that gives it."""
        out: dict[str, Any] = {}
        for name, value in given.items():
            f = field_named(name)
            if value is None or (f.switch and value is False):
                continue
            if not isinstance(value, (str, bool, int, float)):
                value = f.show(value)
            try:
                out[name] = f.value(value)
            except FieldError:
                raise
            except WordstatsError as exc:  # a parser's error that does not name its field: name it
                raise about(name, f": {exc}") from None
        return cls(out)

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Choices({self.texts()!r})"

    def text(self, name: str) -> Any:
        """Field `name`'s value as the text that gives it (a flag's and a number's as they are)."""
        value = self._values[name]
        return value if isinstance(value, (bool, int, float)) else BY_NAME[name].show(value)

    def texts(self) -> dict[str, Any]:
        """Every value as the text that gives it: a query string's, a form's, a provenance's."""
        return {name: self.text(name) for name in self._values}


NO_CHOICES = Choices()


def merge(presets: Mapping[str, Choices], preset: str | None, given: Choices) -> Choices:
    """The choices in force: the preset's (one of `presets`, by name in any case), replaced field by field by
    those given."""
    options: dict[str, Any] = dict(presets[pick(preset, presets, "preset")]) if preset is not None else {}
    if given.get("common") and "min_zipf" in given:
        raise FieldError("give {common} or {min_zipf}, not both")
    for key in given:
        for group in GROUPS:
            if key in group:
                for other in group:
                    options.pop(other, None)
    options.update(given)
    return Choices(options)
