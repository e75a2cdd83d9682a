"""A word list for people: its sheet as PDF, HTML or Markdown, or its table as CSV (pipeline/wordlists/sheets), as the
command line and the teacher's page ask for them. Importing this module loads the sheets' fonts and layouts: a
client imports it only to write or serve a sheet."""

from pipeline.wordlists.sheets import save as save
from pipeline.wordlists.sheets import to_html as to_html
from pipeline.wordlists.sheets import to_pdf as to_pdf
