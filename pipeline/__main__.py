"""`python -m pipeline` runs the wordstats CLI."""

from pipeline.cli import main

main()
