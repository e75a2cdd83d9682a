"""Facts about a lexicon's words that every package may read (below the games, above the core)."""
