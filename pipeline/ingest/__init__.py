"""The ingest stage: read word lists safely, normalise, count what is dropped."""
