"""The typer app: one-line errors, --version, and the slim app a one-off command builds (its own group only, its
module alone imported)."""

import contextlib
import copy
import functools
import gc
import importlib
import os
import sys
from typing import Annotated

import typer
from typer._click.exceptions import UsageError
from typer.core import TyperGroup
from typer.models import TyperInfo

from pipeline.core.errors import NotFound, WordstatsError


@contextlib.contextmanager
def _usage_errors_on_one_line():
    """Print a usage error (bad option value, unknown option or command, missing argument) as one line, exit 2."""
    try:
        yield
    except UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare `wordstats` or `wordstats scrabble`: the help
            raise
        hint = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx is not None else ""
        typer.echo(f"error: {' '.join(exc.format_message().split())}{hint}", err=True)
        raise typer.Exit(exc.exit_code) from None


def _bare_ray(args: list[str]) -> list[str]:
    """The arguments with a bare `--ray` (no address after it) read as `--ray local`."""
    out = list(args)
    for i, arg in enumerate(out):
        if arg == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out.insert(i + 1, "local")
    return out


class _Group(TyperGroup):
    """Typer's command group, with usage errors told on one line like every other error."""

    def make_context(self, info_name, args, *rest, **kwargs):
        """Parse the command line; a usage error is one line."""
        with _usage_errors_on_one_line():
            return super().make_context(info_name, _bare_ray(args), *rest, **kwargs)

    def invoke(self, ctx):
        """Run the command; a usage error is one line."""
        with _usage_errors_on_one_line():
            return super().invoke(ctx)


class App(typer.Typer):
    """A Typer app whose commands turn a WordstatsError into one line on stderr and its exit code."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, cls=_Group, **kwargs)

    def command(self, *args, **kwargs):
        """Register a command whose user errors print as one line with their exit code."""
        register = super().command(*args, **kwargs)

        def decorator(fn):
            """Register `fn` wrapped so that its errors print as one line."""

            @functools.wraps(fn)
            def wrapper(*a, **k):
                """Call the command; user errors, a closed pipe and OS errors end it cleanly."""
                from pipeline.core.session import damaged, end_reads

                try:
                    return fn(*a, **k)
                except NotFound as exc:  # an empty result is not an error: a note, exit 0
                    typer.echo(f"note: {exc}", err=True)
                    if k.get("json") or k.get("as_json"):  # and, asked for JSON, an empty list to read
                        typer.echo("[]")
                    raise typer.Exit(0) from None
                except WordstatsError as exc:
                    typer.echo(f"error: {exc}", err=True)
                    if exc.leave_at_once:
                        sys.stdout.flush()
                        sys.stderr.flush()
                        os._exit(exc.exit_code)
                    raise typer.Exit(exc.exit_code) from None
                except BrokenPipeError:
                    sys.stderr.close()  # output piped into `head`: stop quietly
                    raise typer.Exit(0) from None
                except KeyboardInterrupt:
                    typer.echo("error: interrupted (Ctrl-C)", err=True)
                    raise typer.Exit(130) from None
                except MemoryError:
                    typer.echo("error: out of memory (ask for less: a smaller --limit, --sample or size)", err=True)
                    raise typer.Exit(2) from None
                except OSError as exc:
                    where = f"{exc.filename}: " if exc.filename else ""
                    typer.echo(f"error: {where}{exc.strerror or exc}", err=True)
                    raise typer.Exit(2) from None
                except Exception as exc:
                    if not type(exc).__module__.startswith("polars"):
                        raise
                    typer.echo(f"error: {damaged(exc)}", err=True)  # a table damaged in place: its pages fail to read
                    raise typer.Exit(2) from None
                finally:
                    end_reads()

            register(wrapper)
            return fn

        return decorator


app = App(
    name="wordstats",
    help="Datasets about word games from word lists: build them (run), then query them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    """Print the version and stop (the --version flag)."""
    if value:
        import pipeline

        typer.echo(f"wordstats {pipeline.__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_version, is_eager=True)
    ] = False,
) -> None:
    """Datasets about word games from word lists: build them (run), then query them."""


def command_name(info) -> str:
    """The name a registered command is called by (its function's name with dashes, unless named)."""
    return info.name or str(getattr(info.callback, "__name__", "")).replace("_", "-")


# The build and inspection commands: the core's own module, registered before every package's.
BUILD_COMMANDS = {"pipeline.cli.build": ("run", "make-rules", "info", "sql")}


def command_modules() -> dict[str, tuple[str, ...]]:
    """Every command module in registration order (the build commands', then each package's in the games'
    order), each with the names of the commands and command groups it registers."""
    from pipeline.core.registry import commands

    return {**BUILD_COMMANDS, **commands()}


def module_of(name: str) -> str | None:
    """The module that registers the command or command group `name`, or None (an option, a misspelt name)."""
    return next((module for module, names in command_modules().items() if name in names), None)


def whole_app() -> App:
    """The app with every command registered, listed in the declared order whatever order their modules were
    imported in."""
    modules = command_modules()
    for module in modules:
        importlib.import_module(module)
    rank = {name: i for i, names in enumerate(modules.values()) for name in names}
    app.registered_commands.sort(key=lambda c: rank.get(command_name(c), len(rank)))
    app.registered_groups.sort(key=lambda g: rank.get(str(g.name), len(rank)))
    return app


def app_for(args: list[str]) -> App:
    """The app holding only the command or command group that args[0] names, with only its module imported
    (importing every command module and building every command's options is most of a one-off command's
    start), else the whole app (help, --version, a misspelt name)."""
    first = args[0] if args else ""
    module = module_of(first)
    if module is None:
        return whole_app()
    importlib.import_module(module)
    groups = [group_for(g, args[1:]) for g in app.registered_groups if g.name == first]
    commands = [c for c in app.registered_commands if command_name(c) == first]
    if not groups and not commands:
        return whole_app()
    slim = copy.copy(app)
    slim.registered_groups, slim.registered_commands = groups, commands
    return slim


def group_for(info: TyperInfo, args: list[str]) -> TyperInfo:
    """The command group holding only the subcommand args[0] names (typer builds the options of every command
    of a group it runs), else the whole group (its help, a misspelt name)."""
    group = info.typer_instance
    if group is None or not args:
        return info
    named = [c for c in group.registered_commands if command_name(c) == args[0]]
    if not named:
        return info
    sub = copy.copy(group)
    sub.registered_commands = named
    slim = copy.copy(info)
    slim.typer_instance = sub
    return slim


def main() -> None:
    """Entry point of the `wordstats` console script."""
    # numpy's BLAS starts a thread per core as numpy is imported (50 ms on 2 cores, more on big machines);
    # wordstats' matrix work is small, so one thread (unless the user chose otherwise).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Importing the command's module (polars, typer, the options) makes tens of thousands of objects that live
    # until the process ends, and no garbage: the cyclic collector would walk them again and again as they are
    # made, and once more at exit (a fifth of a query's start). It waits meanwhile, then leaves them out of every
    # later collection.
    gc.disable()
    command = app_for(sys.argv[1:])
    gc.freeze()
    gc.enable()
    command()
