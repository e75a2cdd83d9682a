"""The `wordstats` command line: parse arguments, call the library, print. No logic lives here.

One module per command group; each registers its commands on the app of `pipeline.cli.app`: the build and
inspection commands, then each package's command modules (declared in its manifest) in the games' order."""

import importlib

from pipeline.cli import build  # noqa: F401  (registers the commands)
from pipeline.cli.app import app, main
from pipeline.core.registry import commands

for _module in commands():
    importlib.import_module(_module)

__all__ = ["app", "main"]
