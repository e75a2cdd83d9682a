"""The serve command: the teacher's page on this machine (pipeline/web/address.py declares its options)."""

import typer

from pipeline.cli.app import app
from pipeline.cli.options import Flags, command
from pipeline.core.errors import WordstatsError
from pipeline.core.fields import CONFIG, DATA_DIR
from pipeline.web.address import ADDRESS, Address


@command(app, ADDRESS, CONFIG, DATA_DIR)
def serve(at: Address, flags: Flags):
    """The teacher's page: choose, preview and print word lists and sheets in a browser (http://HOST:PORT/)."""
    import uvicorn

    from pipeline.core.cluster import is_loopback
    from pipeline.core.config import load_config
    from pipeline.core.store import resolve_data_dir
    from pipeline.web.app import create_app

    cfg = load_config(flags.config)
    folder, _ = resolve_data_dir(flags.data_dir, cfg.path)
    if not (folder / cfg.teacher_lexicon / "words.parquet").is_file():
        raise WordstatsError(
            f"no word lists are built in {folder}: run `make all` first (or `make all LEXICONS=scowl`)"
        )
    if not is_loopback(at.host):
        typer.echo(
            f"warning: listening on {at.host}: other machines can reach this page (no login, no encryption)", err=True
        )
    typer.echo(f"the teacher's page: http://{at.host}:{at.port}/ (Ctrl-C to stop)", err=True)
    uvicorn.run(create_app(cfg.path, folder), host=at.host, port=at.port, log_level="warning", access_log=False)
