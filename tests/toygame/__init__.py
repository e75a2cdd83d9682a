"""A toy game, the smallest package the core takes: tests/test_toy_game.py copies it into a copy of the project
as pipeline/toy and adds its line to pipeline/games.py (docs/development.md walks through it)."""
