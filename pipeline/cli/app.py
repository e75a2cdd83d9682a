"""The typer app: one-line errors, shared options, the session (config, data, lexicon)."""

import contextlib
import copy
import functools
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer._click.exceptions import UsageError
from typer.core import TyperGroup

from pipeline.cli.options import CsvOpt, JsonListOpt, JsonObjectOpt, typer_option  # noqa: F401  (shared vocabulary)
from pipeline.core import fields as vocabulary
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
                from pipeline.core.locks import release_read_locks

                try:
                    return fn(*a, **k)
                except NotFound as exc:  # an empty result is not an error: a note, exit 0
                    typer.echo(f"note: {exc}", err=True)
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
                    from pipeline.core.store import unreadable  # a table damaged in place: its pages fail to read

                    typer.echo(f"error: {unreadable(exc)}", err=True)
                    raise typer.Exit(2) from None
                finally:
                    release_read_locks()
                    _forget_readers()

            register(wrapper)
            return fn

        return decorator


def _forget_readers() -> None:
    """Forget the lexicons a command read (their registry lives in the store, when it was imported at all)."""
    store = sys.modules.get("pipeline.core.store")
    if store is not None:
        store.READERS.clear()


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


# Options shared by many commands (declared once in pipeline.core.fields).
ConfigOpt = typer_option(vocabulary.CONFIG)
DataDirOpt = typer_option(vocabulary.DATA_DIR)
LexiconOpt = typer_option(vocabulary.LEXICON)
JsonOpt = JsonListOpt
QuietOpt = typer_option(vocabulary.QUIET)
RayOpt = typer_option(vocabulary.RAY)
ShardOpt = typer_option(vocabulary.SHARD_SIZE)


class Session:
    """The config, data folder and lexicon a command works on."""

    def __init__(self, config: Optional[Path], data_dir: Optional[Path], lexicon: Optional[str], teacher: bool = False):
        from pipeline.core.config import load_config
        from pipeline.core.store import Store, resolve_data_dir

        self.config = load_config(config)
        self.data_dir, self.data_from = resolve_data_dir(data_dir, self.config.path)
        default = self.config.teacher_lexicon if teacher else self.config.default_lexicon
        self.lexicon = lexicon if lexicon is not None else default
        self.store = Store(self.data_dir, self.lexicon)
        if self.lexicon not in self.config.lexicons and not self.store.root.is_dir():
            from pipeline.core.errors import pick
            from pipeline.core.info import lexicon_names

            self.lexicon = pick(self.lexicon, lexicon_names(self.config, self.data_dir), "lexicon")  # any case
            self.store = Store(self.data_dir, self.lexicon)
        self.store.read_lock()  # no stage's outputs are swapped while this command reads them


def _emit(df, as_json: bool, as_csv: bool, limit: Optional[int] = None) -> None:
    """Print a table in the format the --json / --csv flags choose, at most `limit` rows."""
    from pipeline.core.display import choose_format, emit

    emit(df, choose_format(as_json, as_csv), limit=limit)


def _run_job(s: Session, job, ray: Optional[str], quiet: bool, processes: Optional[int] = None):
    """Run a sharded job in the lexicon's jobs folder on the engine of --ray or the config; say what it did."""
    from pipeline.core import executor
    from pipeline.core.progress import Progress

    with executor.engine_session(executor.cluster_address(s.config, ray), processes) as engine:
        result = executor.run(job, s.data_dir, s.lexicon, engine, Progress(quiet))
    if not quiet:
        typer.echo(f"{result.summary()} on {engine.name}", err=True)
    return result


def _job_facts(result) -> dict:
    """What a command's output says about the job that computed it."""
    return {
        "job": result.job.job_id,
        "shards": result.computed + result.reused,
        "shards_computed": result.computed,
        "shards_reused": result.reused,
        "job_folder": str(result.folder),
    }


def command_name(info) -> str:
    """The name a registered command is called by (its function's name with dashes, unless named)."""
    return info.name or str(getattr(info.callback, "__name__", "")).replace("_", "-")


def app_for(args: list[str]) -> App:
    """The app holding only the command or command group that args[0] names (typer builds the options of every
    command it holds, some 10 ms of a one-off command's start), else the whole app (help, a misspelt name)."""
    first = args[0] if args else ""
    groups = [g for g in app.registered_groups if g.name == first]
    commands = [c for c in app.registered_commands if command_name(c) == first]
    if not groups and not commands:
        return app
    slim = copy.copy(app)
    slim.registered_groups, slim.registered_commands = groups, commands
    return slim


def main() -> None:
    """Entry point of the `wordstats` console script."""
    # numpy's BLAS starts a thread per core as numpy is imported (50 ms on 2 cores, more on big machines);
    # wordstats' matrix work is small, so one thread (unless the user chose otherwise).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    app_for(sys.argv[1:])()
