"""Helpers and fixtures the test modules share, by subject (a test module never imports another)."""
