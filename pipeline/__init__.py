"""wordstats: datasets about word games, built from word lists."""

from importlib import metadata

try:
    __version__ = metadata.version("wordstats")
except metadata.PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"
