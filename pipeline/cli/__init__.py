"""The `wordstats` command line: parse arguments, call the library, print. No logic lives here.

One module per command group; each registers its commands on the app of `pipeline.cli.app` when imported: the
build and inspection commands, then each package's command modules (declared in its manifest with the names of
their commands). `main` imports only the module of the command called (`app_for`); `whole_app` imports them all."""

from pipeline.cli.app import app, main, whole_app

__all__ = ["app", "main", "whole_app"]
