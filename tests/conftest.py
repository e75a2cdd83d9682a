"""Shared test helpers: the ../shared corpora (skipped when absent) and the real CLI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
SMALL_CONFIG = ROOT / "tests" / "configs" / "small.toml"
DEFAULT_CONFIG = ROOT / "configs" / "default.toml"


def corpus(relative: str) -> Path:
    """A file under ../shared/corpora, or skip the test cleanly when ../shared is absent."""
    path = CORPORA / relative
    if not path.is_file():
        pytest.skip(f"{path} not present (../shared is only on developer machines)")
    return path


def corpus_words(relative: str) -> list[str]:
    """The upper-case words of a corpus file, as Norvig reads them: set(text.upper().split())."""
    return sorted(set(corpus(relative).read_text().upper().split()))


class Result:
    """What one CLI call printed and returned."""

    def __init__(self, exit_code: int, stdout: str, stderr: str):
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr

    def __repr__(self) -> str:
        return f"Result(exit_code={self.exit_code}, stdout={self.stdout[:500]!r}, stderr={self.stderr[:500]!r})"


@pytest.fixture
def cli():
    """Call the real `wordstats` CLI in-process: cli("anagram", "RETAINS", data_dir=..., config=...)."""
    from pipeline.cli import app

    runner = CliRunner()

    def call(*args: str, env: dict | None = None) -> Result:
        res = runner.invoke(app, [str(a) for a in args], env={"WORDSTATS_QUIET": "1", **(env or {})},
                            catch_exceptions=True)
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            raise res.exception
        return Result(res.exit_code, res.stdout, res.stderr)

    return call


@pytest.fixture
def word_file(tmp_path):
    """Write a word list file and return its path: word_file(["cat", "act"], name="tiny.txt")."""

    def make(words, name: str = "words.txt", encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.write_bytes(("\n".join(words) + "\n").encode(encoding))
        return path

    return make


@pytest.fixture
def build(cli, tmp_path):
    """Build stages for an ad hoc word list into a temporary data folder; returns that folder."""

    def make(words_or_path, *stages: str, lexicon: str = "t", config: Path = SMALL_CONFIG) -> Path:
        data = tmp_path / "out"
        if isinstance(words_or_path, (str, os.PathLike)):
            path = Path(words_or_path)
        else:
            path = tmp_path / f"{lexicon}.txt"
            path.write_text("\n".join(words_or_path) + "\n")
        res = cli("run", *stages, "--source", path, "--lexicon", lexicon, "--data-dir", data,
                  "--config", config, "--quiet")
        assert res.exit_code == 0, res
        return data

    return make
