# wordstats: `make all` builds every dataset of the config, `make test` runs the tests.
# Stage outputs are real files that depend on their inputs, the config and the stage's module,
# so only stale stages rerun.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
SHELL := /bin/bash

PYTHON ?= python3
VENV ?= .venv
CONFIG ?= configs/default.toml
OUT ?= data/out
INSTALLED := $(VENV)/.installed
RUN := $(VENV)/bin/wordstats run --config $(CONFIG) --data-dir $(OUT)
PY := $(VENV)/bin/python

ifeq ($(shell $(PYTHON) -c 'import tomllib' 2>/dev/null && echo ok),)
$(error wordstats needs Python 3.11 or newer as $(PYTHON); run e.g. `make PYTHON=python3.12`)
endif
ifeq ($(wildcard $(CONFIG)),)
$(error config file $(CONFIG) not found)
endif

# Lexicons declared in the config, read with the standard library's TOML parser.
LEXICONS := $(shell $(PYTHON) -c 'import sys, tomllib; print(*tomllib.load(open(sys.argv[1], "rb")).get("lexicons", {}))' $(CONFIG) 2>/dev/null)
# Each lexicon's ingest also depends on the word list files its config names (written to a small makefile;
# package sources change only with the install).
SOURCES_MK := $(OUT)/.sources.mk
# Modules every stage runs through.
CORE := $(wildcard pipeline/core/*.py pipeline/letters/*.py) $(INSTALLED)

# Files each lexicon gets; later stages add theirs here.
TABLES := words.parquet ingest_report.json

.PHONY: all test bench clean help install

# Prerequisites expand again after the whole file is read, so the stages' `TABLES +=` below count.
.SECONDEXPANSION:
all: $$(foreach L,$$(LEXICONS),$$(addprefix $$(OUT)/$$(L)/,$$(TABLES))) ## build every dataset of the config (default)

help: ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 12

install: $(INSTALLED) ## create .venv and install the project with pinned dependencies

$(INSTALLED): pyproject.toml requirements.lock
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.lock
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

# ---- stages (one pattern rule per stage; % is the lexicon) ---------------------------------------

$(OUT)/%/words.parquet $(OUT)/%/ingest_report.json &: $(CONFIG) $(wildcard pipeline/ingest/*.py) $(CORE)
	$(RUN) --lexicon $* ingest

# indexes and stems (issues 3, 4)
TABLES += anagrams.parquet prefixes.parquet hooks.parquet stems.parquet
$(OUT)/%/anagrams.parquet $(OUT)/%/prefixes.parquet $(OUT)/%/hooks.parquet &: $(OUT)/%/words.parquet $(CONFIG) pipeline/anagrams/indexes.py $(CORE)
	$(RUN) --lexicon $* indexes

$(OUT)/%/stems.parquet &: $(OUT)/%/anagrams.parquet $(CONFIG) pipeline/anagrams/stems.py pipeline/anagrams/indexes.py $(CORE)
	$(RUN) --lexicon $* stems

# boggle (issue 5)
TABLES += boggle_boards.parquet boggle_words.parquet boggle_summary.json boggle_best.parquet
$(OUT)/%/boggle_boards.parquet $(OUT)/%/boggle_words.parquet $(OUT)/%/boggle_summary.json $(OUT)/%/boggle_best.parquet &: $(OUT)/%/words.parquet $(CONFIG) $(wildcard pipeline/boggle/*.py) $(CORE)
	$(RUN) --lexicon $* boggle

# hangman (issue 6)
TABLES += hangman.parquet hangman_summary.json
$(OUT)/%/hangman.parquet $(OUT)/%/hangman_summary.json &: $(OUT)/%/words.parquet $(CONFIG) $(wildcard pipeline/hangman/*.py) $(CORE)
	$(RUN) --lexicon $* hangman

# scrabble (issue 8)
TABLES += gaddag.parquet openings.parquet selfplay.parquet selfplay_summary.json
$(OUT)/%/gaddag.parquet $(OUT)/%/openings.parquet $(OUT)/%/selfplay.parquet $(OUT)/%/selfplay_summary.json &: $(OUT)/%/words.parquet $(CONFIG) $(wildcard pipeline/scrabble/*.py) $(CORE)
	$(RUN) --lexicon $* scrabble

# report (issue 7): last, so that it can depend on every table listed above it
REPORT_INPUTS := $(filter %.parquet,$(TABLES))
TABLES += report.html
.PHONY: report

report: $(foreach L,$(LEXICONS),$(OUT)/$(L)/report.html) ## build data/out/<lexicon>/report.html (and the tables it shows)

$(OUT)/%/report.html: $(addprefix $(OUT)/%/,$(REPORT_INPUTS)) $(CONFIG) $(wildcard pipeline/report/*.py) $(CORE)
	$(RUN) --lexicon $* report

# ---- word list files named in the config ---------------------------------------------------------

$(SOURCES_MK): $(CONFIG)
	@mkdir -p $(@D)
	@$(PYTHON) -c 'import sys, tomllib, os.path as p; cfg, out = sys.argv[1:]; base = p.dirname(cfg);\
	lex = tomllib.load(open(cfg, "rb")).get("lexicons", {});\
	[print(f"{out}/{name}/words.parquet: " + " ".join(p.relpath(p.join(base, s["path"])) for s in spec.get("sources", []) if "path" in s))\
	 for name, spec in lex.items()]' $(CONFIG) $(OUT) > $@.tmp && mv $@.tmp $@

ifeq ($(filter clean help install,$(MAKECMDGOALS)),)
-include $(SOURCES_MK)
endif

# ---- checks -------------------------------------------------------------------------------------

test: $(INSTALLED) ## run the test suite
	$(VENV)/bin/pytest

bench: $(INSTALLED) ## run the benchmarks; results go to $(OUT)/bench/*.json
	$(PY) -m tests.bench --out $(OUT)/bench

clean: ## remove generated data (keeps .venv)
	rm -rf $(OUT)
