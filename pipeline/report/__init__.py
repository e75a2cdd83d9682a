"""The HTML report: sections from the tables, plots, the page."""
