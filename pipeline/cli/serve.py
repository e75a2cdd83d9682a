"""The serve command: the teacher's page on this machine."""

from typing import Annotated

import typer

from pipeline.cli.app import ConfigOpt, DataDirOpt, app
from pipeline.core.errors import WordstatsError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option("--host", metavar="ADDRESS", help="Address to listen on (default 127.0.0.1: this machine only)."),
    ] = DEFAULT_HOST,
    port: Annotated[
        int, typer.Option("--port", metavar="N", help="Port to listen on.", min=1, max=65535)
    ] = DEFAULT_PORT,
    config: ConfigOpt = None,
    data_dir: DataDirOpt = None,
):
    """The teacher's page: choose, preview and print word lists and sheets in a browser (http://HOST:PORT/)."""
    import uvicorn

    from pipeline.core.config import load_config
    from pipeline.core.executor import is_loopback
    from pipeline.core.store import resolve_data_dir
    from pipeline.web.app import create_app

    cfg = load_config(config)
    folder, _ = resolve_data_dir(data_dir, cfg.path)
    if not (folder / cfg.teacher_lexicon / "words.parquet").is_file():
        raise WordstatsError(
            f"no word lists are built in {folder}: run `make all` first (or `make all LEXICONS=scowl`)"
        )
    if not is_loopback(host):
        typer.echo(
            f"warning: listening on {host}: other machines can reach this page (no login, no encryption)", err=True
        )
    typer.echo(f"the teacher's page: http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    uvicorn.run(create_app(cfg.path, folder), host=host, port=port, log_level="warning", access_log=False)
