"""Where tables live, atomic writes with provenance, and the per-lexicon manifest."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.core.errors import WordstatsError, first_line

DEFAULT_DATA_DIR = Path("data/out")
MANIFEST = "manifest.json"
MAX_ROWS = 2**32 - 1  # the most rows polars takes in head(n); a larger n overflows, so "the first n" caps n here


def default_data_dir(config_path: Path | None = None) -> Path:
    """Where outputs live when --data-dir is not given (see resolve_data_dir)."""
    return resolve_data_dir(None, config_path)[0]


def project_of(config_path: Path) -> Path:
    """The project folder of a config file: the parent of its `configs/` folder, else the file's folder."""
    folder = Path(config_path).resolve().parent
    return folder.parent if folder.name == "configs" else folder


def resolve_data_dir(given: Path | None, config_path: Path | None = None) -> tuple[Path, str]:
    """The data folder and how it was found: --data-dir, $WORDSTATS_DATA, or the config's project's data/out.

    Never the current folder alone: the same command finds the same tables wherever it runs."""
    if given is not None:
        return Path(given), "--data-dir"
    env = os.environ.get("WORDSTATS_DATA")
    if env:
        return Path(env), "WORDSTATS_DATA"
    if config_path is None:
        from pipeline.core.config import default_config_path

        config_path = default_config_path()
    return project_of(config_path) / DEFAULT_DATA_DIR, f"the project of {config_path}"


def sha256_file(path: Path) -> str:
    """The sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def atomic_path(target: Path):
    """Yield a temporary path beside `target`; rename it into place only if the block succeeds.

    A failure to write is an error naming `target` (never the temporary file)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WordstatsError(f"{target}: cannot create its folder {target.parent} ({exc.strerror or exc})") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise WordstatsError(f"{target}: cannot write ({exc.strerror or exc})") from None
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise WordstatsError(f"{target}: cannot write ({exc.strerror or exc})") from None
        raise


def write_bytes(target: Path, data: bytes) -> None:
    """Write bytes atomically."""
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def write_text(target: Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    write_bytes(target, text.encode("utf-8"))


def write_json(target: Path, obj: Any) -> None:
    """Write JSON atomically, keys in a stable order."""
    write_text(target, json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def write_parquet(target: Path, df: pl.DataFrame, provenance: dict[str, Any], row_group_size: int = 16384) -> None:
    """Write a DataFrame atomically as Parquet with provenance in the footer key-value metadata."""
    metadata = {f"wordstats.{k}": _meta_value(v) for k, v in sorted(provenance.items())}
    with atomic_path(target) as tmp:
        df.write_parquet(
            tmp,
            compression="zstd",
            compression_level=3,
            statistics=True,
            row_group_size=row_group_size,
            metadata=metadata,
        )


def _meta_value(value: Any) -> str:
    """A provenance value as Parquet metadata text: strings as they are, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))


def read_provenance(path: Path) -> dict[str, Any]:
    """The provenance stored in a Parquet file's footer."""
    import pyarrow.parquet as pq

    meta = pq.read_metadata(path).metadata or {}
    out = {}
    for key, value in meta.items():
        key, value = key.decode(), value.decode()
        if key.startswith("wordstats."):
            name = key.removeprefix("wordstats.")
            try:
                out[name] = json.loads(value) if name in ("inputs", "params") else value
            except json.JSONDecodeError:
                out[name] = value
    return out


class Store:
    """The folder of one lexicon's tables: data_dir/<lexicon>/<table>.<ext>."""

    def __init__(self, data_dir: Path, lexicon: str):
        from pipeline.core.config import check_lexicon_name

        self.data_dir, self.lexicon = Path(data_dir), check_lexicon_name(lexicon)
        self.root = self.data_dir / lexicon

    def path(self, name: str) -> Path:
        """The file of table `name` ('words' → words.parquet; names with an extension are kept)."""
        return self.root / (name if "." in name else f"{name}.parquet")

    def exists(self, name: str) -> bool:
        """Whether table `name` has been built."""
        return self.path(name).is_file()

    def require(self, name: str, columns: Iterable[str] = ()) -> Path:
        """The path of table `name`, or an error that says how to build it; a Parquet table must be readable
        and have `columns` (a table built by an older version may lack one)."""
        path = self.path(name)
        if not path.is_file():
            if not self.root.is_dir():
                raise WordstatsError(
                    f"no tables for lexicon {self.lexicon!r} in {self.data_dir} "
                    f"(run `make all` or `wordstats run --lexicon {self.lexicon}`)"
                )
            raise WordstatsError(
                f"{path} not found: build it with `wordstats run --lexicon {self.lexicon}` or `make all`"
            )
        if path.suffix == ".parquet":
            schema = self.schema(name)
            missing = [c for c in columns if c not in schema]
            if missing:
                raise WordstatsError(
                    f"{path} has no column {missing[0]!r} (built by an older version?): "
                    f"rebuild it with `wordstats run --lexicon {self.lexicon}`"
                )
        return path

    def schema(self, name: str) -> dict[str, pl.DataType]:
        """The columns of Parquet table `name` and their types, or an error naming a damaged file."""
        path = self.path(name)
        try:
            return dict(pl.read_parquet_schema(path))
        except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
            raise self._damaged(path, exc) from None

    def _damaged(self, path: Path, exc: Exception) -> WordstatsError:
        """The error for a Parquet file that cannot be read."""
        return WordstatsError(
            f"{path}: not a readable Parquet table ({first_line(exc)}): "
            f"rebuild it with `wordstats run --lexicon {self.lexicon}`"
        )

    def read(self, name: str, columns: list[str] | None = None) -> pl.DataFrame:
        """Read table `name` (Parquet), or only `columns` of it."""
        path = self.require(name, columns or ())
        try:
            return pl.read_parquet(path, columns=columns)
        except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
            raise self._damaged(path, exc) from None

    def scan(self, name: str, columns: Iterable[str] = ()) -> pl.LazyFrame:
        """Scan table `name` lazily; `columns` are those the caller uses (checked to be there)."""
        return pl.scan_parquet(self.require(name, columns))

    def read_json(self, name: str) -> Any:
        """Read a JSON output such as ingest_report.json."""
        return json.loads(self.require(name).read_text(encoding="utf-8"))

    def parquet_tables(self) -> dict[str, Path]:
        """Every Parquet table of this lexicon, by file stem."""
        if not self.root.is_dir():
            return {}
        return {p.stem: p for p in sorted(self.root.glob("*.parquet")) if p.is_file()}

    def manifest(self) -> dict[str, Any]:
        """The manifest: each table's rows, sha256, stage and build time."""
        path = self.root / MANIFEST
        if not path.is_file():
            return {"lexicon": self.lexicon, "tables": {}}
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise self._bad_manifest(path, str(exc)) from None
        if not isinstance(manifest, dict) or not isinstance(manifest.get("tables"), dict):
            raise self._bad_manifest(path, 'no "tables" object')
        return manifest

    def _bad_manifest(self, path: Path, why: str) -> WordstatsError:
        """The error for a manifest.json that cannot be read."""
        return WordstatsError(
            f"{path}: damaged manifest ({why}): delete it and rebuild with `wordstats run --lexicon {self.lexicon}`"
        )

    def record(self, entries: dict[str, dict[str, Any]]) -> None:
        """Add or replace manifest entries, under a lock so concurrent stages do not lose each other's."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".manifest.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            manifest = self.manifest()
            manifest["lexicon"] = self.lexicon
            manifest["tables"].update(entries)
            manifest["tables"] = dict(sorted(manifest["tables"].items()))
            write_json(self.root / MANIFEST, manifest)

    def write(self, outputs: dict[str, Any], provenance: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Write a stage's outputs (DataFrame → Parquet, dict/list → JSON, str → text) and record them."""
        entries = {}
        for name, obj in outputs.items():
            path = self.path(name)
            if isinstance(obj, pl.DataFrame):
                write_parquet(path, obj, provenance)
                rows = obj.height
            elif isinstance(obj, (dict, list)):
                write_json(path, obj)
                rows = len(obj) if isinstance(obj, list) else None
            elif isinstance(obj, (str, bytes)):
                (write_text if isinstance(obj, str) else write_bytes)(path, obj)
                rows = None
            else:
                raise TypeError(f"stage output {name} has unsupported type {type(obj).__name__}")
            entries[path.name] = {
                "rows": rows,
                "bytes": path.stat().st_size,
                "sha256": sha256_file(path),
                "stage": provenance.get("stage"),
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
        self.record(entries)
        return entries
