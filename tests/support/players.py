"""The players' tests' data: ENABLE built into a data folder with the small config, and commands run on it."""

from __future__ import annotations

import pytest

from tests.conftest import ENABLE, SMALL_CONFIG, build_lexicon


@pytest.fixture(scope="module", name="data")
def data_fixture(tmp_path_factory):
    """The `data` fixture: ENABLE built into a data folder (ingest and a few-game leaves stage) with the small
    test config."""
    out = tmp_path_factory.mktemp("players") / "out"
    return build_lexicon(out, ENABLE, "ingest", "indexes", "leaves", lexicon="t")


def cli_in(cli, data, *args, input: str | None = None):
    """A command on the ENABLE test lexicon."""
    return cli(*args, "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, input=input)
