"""The CLI's side of the vocabulary (pipeline/core/fields.py, options declared once as data): the typer option
of each Field, the shared flags as typer types, and `command`, which registers a function whose parameters are
a request dataclass's fields and the shared flags it takes, parses them, and calls it with the request and the
flags (`Flags`).

--limit N (listings; 0 = all), --sample N --seed S (random picks), --out PATH --force (files),
--length 5 or 4-6, --json (help says array or object), --csv, case-insensitive names with "did you mean"."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from pipeline.core import fields as vocabulary
from pipeline.core.display import plural  # noqa: F401  (the CLI's summaries)
from pipeline.core.errors import FieldError, WordstatsError, default_flag
from pipeline.core.fields import Field, choose_format, fields_of, limit_for
from pipeline.core.outputs import check_out  # noqa: F401  (the guard of every file a command writes)


def value_type(f: Field) -> Any:
    """The Python type typer converts a Field's value to: its kind, a list of them, maybe None."""
    kind: Any = list.__class_getitem__(f.kind) if f.many else f.kind
    required = f.required or f.default is not None or (f.argument and not f.optional)
    return kind if required else Optional.__getitem__(kind)


def typer_option(f: Field) -> Any:
    """The typer annotation of a Field: an argument, a flag (with its --no- form when negatable) or an option."""
    extra: dict[str, Any] = {"metavar": f.metavar} if f.metavar else {}
    if f.argument:
        return Annotated[value_type(f), typer.Argument(help=f.help, show_default=False, **extra)]
    names = [f.flag] + ([f.short] if f.short else [])
    if f.envvar:
        extra["envvar"] = f.envvar
    if f.negatable:
        declared = typer.Option(f"{f.flag}/--no-{f.flag[2:]}", help=f.help, show_default=f.default is not None)
        return Annotated[value_type(f), declared]
    if f.kind is bool:
        extra.pop("metavar", None)
        return Annotated[bool, typer.Option(*names, help=f.help, **extra)]
    if f.kind is int and f.eager_range:  # a fraction's range is the Field's to check
        extra.update({k: v for k, v in (("min", f.lo), ("max", f.hi)) if v is not None})
    return Annotated[value_type(f), typer.Option(*names, help=f.help, show_default=f.default is not None, **extra)]


def parameter(f: Field) -> inspect.Parameter:
    """The keyword parameter typer reads for a Field."""
    if (f.argument and f.default is None and not f.optional) or f.required:
        default: Any = inspect.Parameter.empty
    elif f.switch and f.default is None:
        default = False
    elif f.many:
        default = None  # typer's "not given"
    else:
        default = f.default
    return inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=typer_option(f))


@dataclass(frozen=True)
class Flags:
    """The shared flags a command was given (those it does not take stay at their defaults)."""

    config: Optional[Path] = None
    data_dir: Optional[Path] = None
    lexicon: Optional[str] = None
    as_json: bool = False
    as_csv: bool = False
    limit: Optional[int] = None
    out: Optional[Path] = None
    force: bool = False
    quiet: bool = False

    @property
    def format(self) -> str:
        """The output format --json / --csv choose: json, csv or table."""
        return choose_format(self.as_json, self.as_csv)

    @property
    def rows(self) -> Optional[int]:
        """How many rows a listing prints (--limit, or the terminal default)."""
        return limit_for(self.limit, self.format)

    def session(self, teacher: bool = False):
        """A scoped session on the config, data folder and lexicon of the flags (the lexicon read-locked
        inside the `with` block only)."""
        from pipeline.core.session import open_session

        return open_session(self.config, self.data_dir, self.lexicon, teacher)


SHARED = {f.name for f in (vocabulary.CONFIG, vocabulary.DATA_DIR, vocabulary.LEXICON, vocabulary.LIMIT)} | {
    "as_json",
    "as_csv",
    "out",
    "force",
    "quiet",
}


def read_batch(text: str, what: str) -> list[str]:
    """Items given on standard input: one or more a line, white space between; '#' comments."""
    items = [tok for line in text.splitlines() for tok in line.split("#", 1)[0].split()]
    if not items:
        raise WordstatsError(f"no {what} on standard input")
    return items


def batch_value(f: Field, given: Any) -> Any:
    """The items of a batch field: '-' reads them from standard input; a list argument may hold '-' too."""
    if f.many:
        return tuple(x for item in given for x in (read_batch(sys.stdin.read(), f.batch) if item == "-" else [item]))
    return tuple(read_batch(sys.stdin.read(), f.batch)) if given == "-" else (given,)


def command(
    owner: typer.Typer,
    request: type | None,
    *shared: Field,
    given: tuple[Field, ...] = (),
    name: Optional[str] = None,
):
    """Register `fn(request, flags)` as a command of `owner`: its options are the fields of the `request` (a
    dataclass declaring them), the `shared` flags (a Field that is no shared flag is passed to `fn`
    by its name: how the command shows its result) and the `given` vocabulary's fields (gathered, when given,
    into the request's `given` dict), in that order; each value is checked and parsed by its Field before the
    function runs."""
    own = fields_of(request) if request is not None else ()
    gathered = given
    taken = own + shared + gathered

    def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn` wrapped in the signature typer reads."""

        @functools.wraps(fn)
        def run(**values_given: Any) -> Any:
            """Build the request and the flags from what typer parsed, then call the command; a request field's
            error names the field by its option."""
            try:
                return call(**values_given)
            except FieldError as exc:
                flags = {f.name: f.flag for f in taken}
                raise WordstatsError(
                    exc.told(lambda name: flags.get(name) or default_flag(name)), exc.exit_code
                ) from None

        def call(**values_given: Any) -> Any:
            """Build the request and the flags from what typer parsed, then call the command."""
            values: dict[str, Any] = {}
            for f in own:
                value = values_given[f.name]
                if value is None:
                    continue  # not given: the request's default
                values[f.name] = f.value(batch_value(f, value) if f.batch else value)
            flags = Flags(**{f.name: values_given[f.name] for f in shared if f.name in SHARED})
            extra = {f.name: f.value(values_given[f.name]) for f in shared if f.name not in SHARED}
            if gathered:
                values["given"] = {f.name: values_given[f.name] for f in gathered if values_given[f.name] is not None}
            return fn(request(**values) if request is not None else None, flags, **extra)

        params = [parameter(f) for f in taken]
        run.__dict__["fields"] = taken  # every option's Field, as the tests read them
        run.__dict__["request"] = request  # the request type it builds, as the tests read it
        run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in params}
        owner.command(name or fn.__name__.replace("_", "-"))(run)
        return fn

    return decorator
