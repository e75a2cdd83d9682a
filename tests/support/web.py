"""The teacher's page in the tests: the teacher lexicon's data folder and a real server on it (the `data` and
`server` fixtures of a module), one request to it, the Chromium to drive, its launch arguments, the page widths,
a free port."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import DEFAULT_CONFIG
from tests.support.datasets import default_data, private_copy

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]  # fmt: skip
WIDTHS = {"laptop": (1280, 900), "phone": (390, 844)}
TEACHER_STAGES = {
    "scowl": ("ingest", "indexes", "phonics", "hangman", "hangman_children")
}  # the teacher lexicon as make all builds it
SERVER_SECONDS = 900  # a test server stops by itself after this, whatever happens to the tests


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module", name="data")
def page_data_fixture(tmp_path_factory, request) -> Path:
    """The `data` fixture: the teacher lexicon built as make all builds it (words, anagram indexes, Hangman,
    phonics), in a folder of the module's own (a test may rebuild a table while the page reads it)."""
    shared = default_data(tmp_path_factory, TEACHER_STAGES)
    own = tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]) / "out"
    return private_copy(shared, tuple(TEACHER_STAGES), own)


@pytest.fixture(scope="module", name="server")
def server_fixture(data):
    """The `server` fixture: `wordstats serve` on the module's `data` folder (serving): its address."""
    with serving(data) as base:
        yield base


@contextlib.contextmanager
def serving(data: Path):
    """`wordstats serve` on 127.0.0.1 with the default config on `data`, in its own process (it ends by itself after
    SERVER_SECONDS): its address, for the block."""
    port = free_port()
    exe = str(Path(sys.executable).with_name("wordstats"))
    args = ["serve", "--port", str(port), "--data-dir", str(data), "--config", str(DEFAULT_CONFIG)]
    proc = subprocess.Popen(
        ["timeout", str(SERVER_SECONDS), exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/static/style.css", timeout=2).read()
            break
        except OSError:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.3)
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def get(base: str, path: str, method: str = "GET", body: bytes | None = None) -> tuple[int, str, bytes]:
    """(status, content type, body) of one request."""
    request = urllib.request.Request(base + path, data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read()
