"""The files of a lexicon's folder besides its tables, named once: the manifest, the commit journal, the locks,
the make fingerprints and the record of an ad hoc lexicon's sources."""

from __future__ import annotations

from pathlib import Path

MANIFEST = "manifest.json"
JOURNAL = ".commit.json"  # a stage's outputs being renamed into place: finished by the next writer or reader
DAMAGED_JOURNAL = ".commit.json.damaged"  # a journal that cannot be read is set aside as .commit.json.damaged.N
WRITER_LOCK = ".lock"  # held by the one process building a lexicon
COMMIT_LOCK = ".commit.lock"  # held exclusively while a stage's outputs are renamed, shared by readers
MANIFEST_LOCK = ".manifest.lock"  # held while the manifest is updated
FINGERPRINTS = ".make"  # each stage's settings fingerprint, per lexicon: <lexicon>/.make/<stage>.settings
SOURCE_RECORD = ".source.json"  # the word list files an ad hoc lexicon was built from


def fingerprint_path(data_dir: Path, lexicon: str, stage: str) -> Path:
    """The file holding the settings fingerprint of one stage of one lexicon (a Makefile prerequisite)."""
    return Path(data_dir) / lexicon / FINGERPRINTS / f"{stage}.settings"
