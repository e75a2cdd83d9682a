"""The serve command: the teacher's page on this machine (pipeline/web/address.py declares its options)."""

import typer

from pipeline.cli.app import app
from pipeline.cli.options import Flags, command
from pipeline.core.errors import WordstatsError
from pipeline.core.fields import CONFIG, DATA_DIR
from pipeline.web.address import Address


@command(app, Address, CONFIG, DATA_DIR)
def serve(at: Address, flags: Flags):
    """The teacher's page: choose, preview and print word lists and sheets in a browser (http://HOST:PORT/)."""
    import uvicorn

    from pipeline.core.config import load_config, resolve_data_dir
    from pipeline.core.fields import is_loopback
    from pipeline.web.app import create_app

    cfg = load_config(flags.config)
    folder, _ = resolve_data_dir(flags.data_dir, cfg.path)
    if not (folder / cfg.teacher_lexicon / "words.parquet").is_file():
        raise WordstatsError(
            f"no word lists are built in {folder}: run `make all` first (or `make all LEXICONS=scowl`)"
        )
    sock = listening_socket(at)
    if not is_loopback(at.host):
        typer.echo(
            f"warning: listening on {at.host}: other machines can reach this page (no login, no encryption)", err=True
        )
    typer.echo(f"the teacher's page: http://{at.host}:{at.port}/ (Ctrl-C to stop)", err=True)
    app_ = create_app(cfg.path, folder, hosts=page_hosts(at.host))
    from pipeline.web.protocol import TimedH11Protocol

    settings = uvicorn.Config(
        app_,
        log_level="warning",
        access_log=False,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=IDLE_SECONDS,
        http=TimedH11Protocol,
    )
    uvicorn.Server(settings).run(sockets=[sock])


MAX_CONNECTIONS = 64  # connections served at once (more are answered 503): stalled half-requests cannot pile up
IDLE_SECONDS = 5  # an idle connection is closed after this


def listening_socket(at: Address):
    """A socket bound to the address, or a one-line error before anything is printed (an empty or wildcard host,
    a port in use, a host that does not resolve)."""
    import socket

    if at.host.strip() in ("", "*"):
        raise WordstatsError(
            f"--host {at.host!r}: give an address: 127.0.0.1 for this machine, 0.0.0.0 for every interface"
        )
    try:
        infos = socket.getaddrinfo(at.host, at.port, type=socket.SOCK_STREAM)
    except OSError:
        raise WordstatsError(f"--host {at.host}: no such address on this machine's network") from None
    family, kind, proto, _, where = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(where)
    except OSError as exc:
        sock.close()
        why = "is in use" if exc.errno == 98 else f"cannot be used ({exc.strerror})"
        raise WordstatsError(f"--port {at.port}: {at.host}:{at.port} {why}") from None
    sock.listen(128)
    return sock


def page_hosts(host: str) -> tuple[str, ...] | None:
    """The names a request's Host header may give (DNS rebinding cannot reach the page), None for any (0.0.0.0)."""
    from pipeline.core.fields import is_loopback

    if host in ("0.0.0.0", "::"):
        return None
    return ("127.0.0.1", "localhost", "::1", "[::1]") if is_loopback(host) else (host,)
