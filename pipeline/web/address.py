"""Where the teacher's page listens, and its options (`wordstats serve`)."""

from dataclasses import dataclass

from pipeline.core.fields import option


@dataclass(frozen=True)
class Address:
    """An address (this machine only by default) and a port."""

    host: str = option(
        kind=str,
        help="Address to listen on (default 127.0.0.1: this machine only).",
        metavar="ADDRESS",
        default="127.0.0.1",
    )
    port: int = option(kind=int, help="Port to listen on.", metavar="N", lo=1, hi=65535, default=8765)
