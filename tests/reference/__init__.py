"""Slow, obviously correct references that the tests and the benchmarks check the engines against."""
