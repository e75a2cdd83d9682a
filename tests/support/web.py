"""The teacher's page in the tests: the Chromium to drive, its launch arguments, the page widths, a free port."""

from __future__ import annotations

import shutil
import socket

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]  # fmt: skip
WIDTHS = {"laptop": (1280, 900), "phone": (390, 844)}


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
