"""The shared core: config, errors, the store (atomic writes, provenance, manifest), stages, display, progress."""
