"""Leave values: what keeping a set of tiles (a leave) is worth, in points relative to keeping nothing.

A leave is written with its letters sorted and blanks (?) last; as the kernels read it, it is a key: the number
whose base-RADIX digits are its tile codes + 1 in ascending order (movegen/kernels/leaves.py computes the same
keys). LeaveValues is the one type that holds them: a leaves table (leave, value) in memory, or leaves.parquet
read as needed."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from pipeline.core.arrays import read_only
from pipeline.core.errors import WordstatsError
from pipeline.letters.alphabet import BLANK, LETTERS

TILES = LETTERS + BLANK  # leave order: letters, then blanks
RADIX = len(TILES) + 1  # a leave's key: its tile codes + 1, sorted, as digits of a number in this base
MAX_LEAVE = 6  # leaves of more tiles are worth 0 (a leave of 7 is a pass)


def leave_key(tiles: Iterable[str]) -> str:
    """A leave as stored: letters sorted, blanks last ('?' for a blank)."""
    return "".join(sorted(tiles, key=lambda ch: (ch == BLANK, ch)))


def keys_of_texts(leaves: list[str]) -> np.ndarray:
    """The keys of leaves written as text (letters sorted, blanks last), vectorised."""
    if not leaves:
        return np.zeros(0, dtype=np.int64)
    raw = np.array(leaves, dtype=f"S{MAX_LEAVE + 1}").view(np.uint8).reshape(len(leaves), MAX_LEAVE + 1)
    lookup = np.full(256, -1, dtype=np.int64)
    for code, ch in enumerate(TILES):
        lookup[ord(ch)] = code
    return keys_of(lookup[raw])


def keys_of(codes: np.ndarray) -> np.ndarray:
    """The key of each row of sorted codes: sum of (code + 1) * RADIX**position."""
    weights = RADIX ** np.arange(codes.shape[1], dtype=np.int64)
    return ((codes + 1) * weights[None, :]).sum(axis=1)


def texts_of_codes(codes: np.ndarray) -> list[str]:
    """Rows of sorted tile codes (-1 padding) as leave text (letters, then ? for blanks)."""
    letters = np.frombuffer(TILES.encode() + b"\0", dtype=np.uint8)  # code -1: nothing
    chars = letters[codes].astype(np.uint8)
    return [s.decode() for s in np.ascontiguousarray(chars).view(f"S{codes.shape[1]}").ravel()]


def texts_of_keys(keys: np.ndarray) -> list[str]:
    """Leave keys as leave text."""
    digits = (keys[:, None] // RADIX ** np.arange(MAX_LEAVE + 1, dtype=np.int64)[None, :]) % RADIX
    return texts_of_codes(digits - 1)


def rack_leaves(rack: str) -> list[str]:
    """Every leave a rack can keep (sub-multisets, the empty one and the whole rack included)."""
    kinds = [(ch, rack.count(ch)) for ch in dict.fromkeys(leave_key(rack))]
    out = [""]
    for ch, have in kinds:
        out = [k + ch * n for k in out for n in range(have + 1)]
    return sorted({leave_key(k) for k in out})


class LeaveValues:
    """The value of each leave: 0 for the empty leave and for any leave not listed (seven tiles or more, or one
    never fitted). Held as a leaves table (leave, value), or read from leaves.parquet: only the leaves asked
    for (a rack has at most 128), until the kernels want them all as sorted keys and values."""

    def __init__(self, table: pl.DataFrame | None = None, path: Path | None = None):
        self._table, self.path = table, path
        self.known: dict[str, float] = {"": 0.0}  # the leaves looked up so far

    @classmethod
    def of(cls, values: dict[str, float]) -> LeaveValues:
        """Leave values given as {leave: value}."""
        table = pl.DataFrame(
            {"leave": list(values), "value": [float(v) for v in values.values()]},
            schema={"leave": pl.String, "value": pl.Float64},
        )
        return cls(table.filter(pl.col("leave") != ""))

    @classmethod
    def stored(cls, path: Path) -> LeaveValues:
        """The leave values of a leaves.parquet file, read as needed."""
        return cls(None, path)

    def table(self) -> pl.DataFrame:
        """Every leave listed, with its value (leave, value)."""
        if self._table is None:
            if self.path is not None:
                self._table = pl.read_parquet(self.path, columns=["leave", "value"])
            else:  # sent to another process as the kernels' arrays alone (__getstate__)
                keys, values = self.__dict__["arrays"]
                self._table = pl.DataFrame({"leave": texts_of_keys(keys), "value": values})
        return self._table

    def __getstate__(self) -> dict:
        """What a job sends to its workers: the kernels' arrays (once made) and the file, not the table."""
        state = dict(self.__dict__)
        if "arrays" in state:
            state["_table"], state["known"] = None, {"": 0.0}
        return state

    def __setstate__(self, state: dict) -> None:
        """Received in a worker: the kernels' arrays read-only, as made here and as Ray hands them over (one
        compiled variant of every kernel that reads them; pipeline.core.arrays)."""
        if "arrays" in state:
            state["arrays"] = tuple(read_only(a) for a in state["arrays"])
        self.__dict__.update(state)

    def lookup(self, leaves: list[str]) -> dict[str, float]:
        """{leave: value} for `leaves` (written with letters sorted, blanks last)."""
        missing = [k for k in leaves if k not in self.known]
        if missing:
            source = self.table().lazy() if self._table is not None or self.path is None else pl.scan_parquet(self.path)
            found = source.filter(pl.col("leave").is_in(missing)).select("leave", "value").collect()
            self.known.update(zip(found["leave"].to_list(), found["value"].to_list()))
            self.known.update((k, 0.0) for k in missing if k not in self.known)
        return {k: self.known[k] for k in leaves}

    @cached_property
    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The leaves as the kernels read them: sorted keys (int64) and their values (float64)."""
        table = self.table()
        keys = keys_of_texts(table["leave"].to_list())
        order = np.argsort(keys, kind="stable")
        return read_only(np.ascontiguousarray(keys[order])), read_only(
            np.ascontiguousarray(table["value"].to_numpy()[order])
        )

    def value(self, counts: np.ndarray) -> float:
        """The value of a leave given as 27 tile counts (A-Z, then blanks)."""
        from pipeline.scrabble.movegen.kernels.leaves import leave_value

        keys, values = self.arrays
        return float(leave_value(keys, values, np.asarray(counts, dtype=np.int64), MAX_LEAVE))

    def digest(self) -> str:
        """A hash of the values as the kernels read them (what a job that plays with them is keyed on)."""
        keys, values = self.arrays
        digest = hashlib.sha256(keys.tobytes())
        digest.update(values.tobytes())
        return digest.hexdigest()


def load_leaves(store, variant) -> LeaveValues:
    """The leave values of a built leaves.parquet, for `variant`'s tile set."""
    from pipeline.core.files import read_provenance

    path = store.require("leaves", ["leave", "value"])
    made_for = (read_provenance(path).get("params") or {}).get("variant")
    if made_for not in (None, variant.name):
        raise WordstatsError(f"{path} holds leave values for variant {made_for!r}, not {variant.name!r}")
    return LeaveValues.stored(path)
