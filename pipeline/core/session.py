"""A scoped session: the config, the data folder and a lexicon's store, with the lexicon's read lock held only
inside the block (`with open_session(config, data_dir, lexicon) as s:`), for long-lived processes; and what a
client does when a command ends (`end_reads`) or a read failed inside polars (`damaged`). This module imports the
store only when a session opens (a command that reads no table starts without polars)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.config import Config, load_config, resolve_data_dir

if TYPE_CHECKING:
    from pipeline.core.errors import WordstatsError
    from pipeline.core.store import Store


@dataclass(frozen=True)
class Session:
    """What a use case works on: the config, the data folder and one lexicon's store."""

    config: Config
    data_dir: Path
    store: Store
    data_from: str = ""  # where the data folder came from: --data-dir, WORDSTATS_DATA or the config's project

    @property
    def lexicon(self) -> str:
        """The lexicon's name."""
        return self.store.lexicon


def session_store(config: Config, data_dir: Path, lexicon: str | None, teacher: bool = False) -> Store:
    """The store of `lexicon` (default: the config's teacher lexicon with `teacher`, else its default lexicon);
    a lexicon name in any case is matched to the config's or the data folder's."""
    from pipeline.core.store import Store

    name = lexicon if lexicon is not None else (config.teacher_lexicon if teacher else config.default_lexicon)
    store = Store(data_dir, name)
    if name not in config.lexicons and not store.root.is_dir():
        from pipeline.core.errors import pick
        from pipeline.core.info import lexicon_names  # the stages' module: only for a name to match

        store = Store(data_dir, pick(name, lexicon_names(config, data_dir), "lexicon"))
    return store


@contextlib.contextmanager
def open_session(
    config: Config | Path | str | None, data_dir: Path | None, lexicon: str | None, teacher: bool = False
) -> Iterator[Session]:
    """A session whose lexicon is read-locked for the block only (a build's commit waits for it, not longer); a
    read that fails inside polars is the one-line error naming the damaged table."""
    if not isinstance(config, Config):
        config = load_config(config)
    from pipeline.core.store import unreadable

    folder, data_from = resolve_data_dir(data_dir, config.path)
    store = session_store(config, folder, lexicon, teacher)
    with store.reading():
        try:
            yield Session(config, folder, store, data_from)
        except Exception as exc:
            if not type(exc).__module__.startswith("polars"):
                raise
            raise unreadable(exc, [store]) from None  # a table damaged in place: one line naming it


def end_reads() -> None:
    """What a command does when it ends: release the read locks it took and forget the lexicons it read."""
    from pipeline.core.locks import release_read_locks

    release_read_locks()


def damaged(exc: BaseException) -> WordstatsError:
    """The one-line error of a read that failed inside polars (a table damaged in place), naming the table."""
    from pipeline.core.store import unreadable

    return unreadable(exc)
