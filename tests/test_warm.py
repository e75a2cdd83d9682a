"""The warm-up that `make install` runs (pipeline.core.warm): its command line, the sample it builds on, the
cache's current versions and the pruning of stale ones, and a whole package's warm-up in process."""

from __future__ import annotations

import pytest

from pipeline.core import cache_units, warm


def test_the_command_line_refuses_what_it_does_not_know(capsys):
    assert warm.main([]) == 2
    assert warm.main(["no-such-game"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("usage: python -m pipeline.core.warm GAME...") for line in lines)
    assert "scrabble" in lines[0] and "boggle" in lines[0]


def test_the_sample_is_every_25th_enable_word(tmp_path):
    words = warm.sample(tmp_path).read_text().split()
    enable = warm.WORDS.read_text().split()
    assert words == enable[:: warm.EVERY] and len(words) > 6000


def test_prune_removes_only_versions_of_units_whose_sources_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_units, "cache_dir", lambda: tmp_path)
    current = warm.current_versions()
    assert current and all(folder.parent.parent == tmp_path for folder, _ in current)
    for folder, _ in current:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kernel.nbi").write_bytes(b"index")
    unit = current[0][0].parent
    stale = unit / ("0" * 16)
    stale.mkdir()
    assert warm.prune() == [stale]
    assert not stale.exists() and all(folder.is_dir() for folder, _ in current)
    assert warm.main(["--prune"]) == 0


@pytest.mark.slow
def test_a_package_warms_up_in_process(capsys):
    """The Hangman package's warm-up builds its stages on the sample and runs its commands (its kernels load from
    the cache `make install` filled)."""
    assert warm.main(["hangman"]) == 0
