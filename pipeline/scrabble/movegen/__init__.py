"""Scrabble move generation: the GADDAG move generator's numba kernels (one cache unit), the tables they read
(built once per lexicon and variant), and every legal play or the best ones of a position."""
