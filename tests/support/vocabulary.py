"""The CLI's one-voice tests' lexicon: a few dozen words (WORDS) with every stage built from them."""

from __future__ import annotations

import pytest

from tests.conftest import build_lexicon

WORDS = (
    "act cat tac dog god bird ox retains nastier stainer retinas satire striae airest terais "
    "quiz qi za zax axe ax at ta it is si tis its sit star rats tsar arts tars "
    "pest step sept pets lest lets stela steal tales teals least slate stale tesla"
).split()


@pytest.fixture(scope="module", name="data")
def data_fixture(tmp_path_factory):
    """The `data` fixture: a lexicon `t` with every stage built from WORDS."""
    root = tmp_path_factory.mktemp("vocab")
    return build_lexicon(root / "out", WORDS, lexicon="t")
