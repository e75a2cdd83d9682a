"""The CLI starts and builds the ingest stage for a small list."""


def test_ingest_small_list(build):
    data = build(["cat", "act", "dog"], "ingest")
    assert (data / "t" / "words.parquet").exists()
