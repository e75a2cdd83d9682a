"""Where the teacher's page listens, and its options (`wordstats serve`)."""

from typing import NamedTuple

from pipeline.core.fields import Field, Query


class Address(NamedTuple):
    """An address (this machine only by default) and a port."""

    host: str = "127.0.0.1"
    port: int = 8765


ADDRESS = Query(
    Address,
    (
        Field("host", str, "Address to listen on (default 127.0.0.1: this machine only).", metavar="ADDRESS"),
        Field("port", int, "Port to listen on.", metavar="N", lo=1, hi=65535),
    ),
)
