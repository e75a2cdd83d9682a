"""Scrabble's lexicon graph: the playable words, their GADDAG (built by numba kernels, stored by the gaddag
stage as gaddag.parquet) and its look-ups."""
