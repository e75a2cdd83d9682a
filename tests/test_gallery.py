"""The gallery stage: each preset's printed words made with the tables, used by the page only while current."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.core.config import load_config
from pipeline.core.session import open_session
from pipeline.core.store import Store
from pipeline.web import views
from pipeline.wordlists.choices import Choices
from pipeline.wordlists.gallery import current_previews
from pipeline.wordlists.select import word_list
from pipeline.wordlists.settings import load_settings
from tests.conftest import DEFAULT_CONFIG, run_cli
from tests.support.datasets import default_data, private_copy

STAGES = ("ingest", "indexes", "phonics", "hangman", "hangman_children", "gallery")


@pytest.fixture(scope="module")
def config():
    """The default config."""
    return load_config(DEFAULT_CONFIG)


@pytest.fixture(scope="module")
def data(tmp_path_factory, config) -> Path:
    """The teacher lexicon built with its gallery, in a folder of this module's own."""
    shared = default_data(tmp_path_factory, {config.teacher_lexicon: STAGES})
    return private_copy(shared, (config.teacher_lexicon,), tmp_path_factory.mktemp("gallery") / "out")


@pytest.mark.slow
def test_the_table_holds_each_presets_printed_words(data, config):
    """Every preset's row is the words its printed sheet gives, in order, and the page's preview is that row."""
    store = Store(data, config.teacher_lexicon)
    stored = current_previews(store, config)
    assert stored is not None and set(stored) == set(load_settings(config).presets)
    for name, words in stored.items():
        assert words == tuple(word_list(store, config, name, Choices(), printed=True).words), name
    with open_session(config, data, None, teacher=True) as s:
        assert views.stored_previews(s) == stored
        assert views.preview(s, "hangman-easy") == list(stored["hangman-easy"])


@pytest.mark.slow
def test_a_table_made_from_other_tables_or_settings_is_not_used(data, config, tmp_path):
    """Rebuilt inputs (phonics under other phases) or other word-list settings make the table stale: no previews."""
    copy = tmp_path / "out"
    shutil.copytree(data, copy)
    assert current_previews(Store(copy, config.teacher_lexicon), config) is not None
    configs = Path(DEFAULT_CONFIG).parent
    settings = (configs / "wordlists.toml").read_text().replace('title = "', 'title = "My ', 1)
    blocklist = (configs / "../data/raw/ldnoobw-en.lst").resolve()
    settings = settings.replace('file = "../data/raw/ldnoobw-en.lst"', f'file = "{blocklist}"', 1)
    (tmp_path / "wordlists.toml").write_text(settings)
    text = Path(DEFAULT_CONFIG).read_text()
    other = tmp_path / "other.toml"
    other.write_text(text.replace('file = "wordlists.toml"', f'file = "{tmp_path / "wordlists.toml"}"', 1))
    assert load_settings(load_config(other)).presets != load_settings(config).presets
    assert current_previews(Store(copy, config.teacher_lexicon), load_config(other)) is None
    with open_session(load_config(other), copy, None, teacher=True) as s:  # the page makes its own previews
        assert views.stored_previews(s) == {}
        made = word_list(s.store, s.config, "phase-2", Choices(), printed=True).words
        assert views.preview(s, "phase-2") == list(made)
    phases = (configs / "phonics.toml").read_text().replace('"into"]', '"into", "was"]', 1)
    (tmp_path / "phonics.toml").write_text(phases)
    mine = tmp_path / "phases.toml"
    mine.write_text(text + f'\n[phonics]\nphases = "{tmp_path / "phonics.toml"}"\n')
    res = run_cli("run", "phonics", "--lexicon", config.teacher_lexicon, "--data-dir", copy, "--config", mine)
    assert res.exit_code == 0, res
    assert current_previews(Store(copy, config.teacher_lexicon), config) is None


@pytest.mark.slow
def test_another_lexicons_table_is_empty(tmp_path, config):
    """A lexicon other than the teacher's gets an empty table, and the page makes its previews on request."""
    source = tmp_path / "words.txt"
    source.write_text("cat\ndog\nsun\n")
    res = run_cli("run", "--source", source, "--lexicon", "mine", "--data-dir", tmp_path / "out", "ingest")
    assert res.exit_code == 0, res
    res = run_cli("run", "phonics", "gallery", "--lexicon", "mine", "--data-dir", tmp_path / "out")
    assert res.exit_code == 0, res
    assert current_previews(Store(tmp_path / "out", "mine"), config) is None


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncated", "other columns", "empty file"])
def test_a_damaged_table_is_not_used_and_the_page_still_previews(data, config, tmp_path, damage):
    """A gallery.parquet cut short, of other columns or empty is passed over: the page makes the previews."""
    import polars as pl

    copy = tmp_path / "out"
    shutil.copytree(data, copy)
    path = copy / config.teacher_lexicon / "gallery.parquet"
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "other columns":
        pl.DataFrame({"preset": ["phase-2"], "words": [["zzz"]], "note": [None], "x": [1]}).write_parquet(path)
    else:
        path.write_bytes(b"")
    assert current_previews(Store(copy, config.teacher_lexicon), config) is None
    with open_session(config, copy, None, teacher=True) as s:
        assert views.preview(s, "phase-2") == list(word_list(s.store, config, "phase-2", Choices(), printed=True).words)
