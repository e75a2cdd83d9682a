"""The Boggle tests' shared data: the Moby word list and its dictionary under the small config's standard rules."""

from __future__ import annotations

import pytest

from pipeline.boggle.dictionary import compile_dictionary
from pipeline.boggle.settings import boggle_config
from pipeline.core.config import load_config
from tests.conftest import ROOT, SMALL_CONFIG

MOBY = ROOT / "data" / "raw" / "moby-words.txt"
CONFIG = boggle_config(load_config(SMALL_CONFIG))
STANDARD = CONFIG.rules("standard")


@pytest.fixture(scope="module", name="moby_words")
def moby_words_fixture():
    """The `moby_words` fixture: the Moby word list, upper case."""
    return MOBY.read_text().upper().split()


@pytest.fixture(scope="module", name="moby")
def moby_fixture(moby_words):
    """The `moby` fixture: the Moby words' dictionary under standard rules."""
    return compile_dictionary(moby_words, STANDARD)
