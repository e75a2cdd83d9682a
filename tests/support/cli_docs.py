"""The CLI as the docs tests see it: every command by its full name, and a command's long options."""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def commands() -> dict[str, Any]:
    """Every command of the CLI by its full name (`wordstats boggle solve`), groups included."""
    import typer.main

    from pipeline.cli import whole_app

    found: dict[str, Any] = {}

    def walk(cmd, path: str) -> None:
        found[path] = cmd
        for name, sub in (getattr(cmd, "commands", None) or {}).items():
            if not getattr(sub, "hidden", False):
                walk(sub, f"{path} {name}")

    walk(typer.main.get_command(whole_app()), "wordstats")
    return found


def long_options(cmd) -> list[str]:
    """The options of a command as written on the command line (the long form)."""
    out = []
    for p in cmd.params:
        if getattr(p, "param_type_name", "") == "option":
            names = [o for o in p.opts + list(p.secondary_opts) if o.startswith("--")]
            out.append(names[0] if names else p.opts[0])
    return out
