"""wordstats: datasets about word games, built from word lists."""

from pipeline.core import cache_units as _cache_units

_cache_units.configure()  # numba's cache in the environment, before anything imports numba


def __getattr__(name: str):
    """`pipeline.__version__`, read from the installed package's metadata on first use (keeps start-up fast)."""
    if name != "__version__":
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    from importlib import metadata

    try:
        version = metadata.version("wordstats")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        version = "0.0.0+source"
    globals()["__version__"] = version
    return version
