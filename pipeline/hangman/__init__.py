"""Hangman: the solvers (compiled and plain), difficulty per word, traces."""
