"""Helpers and data shared by several test modules (a test module never imports another one)."""
