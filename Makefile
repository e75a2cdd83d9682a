# wordstats: `make all` builds every dataset of the config, `make test` runs the tests.
# The stage rules are generated (`wordstats make-rules`, into $(OUT)/.rules.mk) from the stage registry, the
# modules each stage imports and a fingerprint of the settings each stage reads, so only stale stages rerun.
# make never deletes a stage's outputs: wordstats writes them atomically, all of a stage's files together.

.DEFAULT_GOAL := all
SHELL := /bin/bash

PYTHON ?= python3
VENV ?= .venv
CONFIG ?= configs/default.toml
OUT ?= data/out
INSTALLED := $(VENV)/.installed
ENGINE_DIR := $(VENV)/wordstats
ENGINES := $(ENGINE_DIR)/wordstats_scrabble_aot.json $(ENGINE_DIR)/wordstats_boggle_aot.json
RUN := $(VENV)/bin/wordstats run --config $(CONFIG) --data-dir $(OUT)
PY := $(VENV)/bin/python

ifeq ($(wildcard $(CONFIG)),)
$(error config file $(CONFIG) not found)
endif

RULES_MK := $(OUT)/.rules.mk
MAKE_RULES := $(VENV)/bin/wordstats make-rules --config $(CONFIG) --data-dir $(OUT) --out $(RULES_MK)
NO_RULES_GOALS := clean help install test test-fast lint bench serve

.PHONY: all test test-fast lint bench clean help install serve

all: ## build every dataset of the config (default); LEXICONS="scowl enable" builds only those lexicons

help: ## list the targets
	@grep -E '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 12

install: $(INSTALLED) $(ENGINES) ## create .venv, install the project (pinned dependencies), compile the quick-start kernels

$(INSTALLED): pyproject.toml requirements.lock
	@$(PYTHON) -c 'import tomllib' 2>/dev/null || { echo "wordstats needs Python 3.11 or newer as $(PYTHON); run e.g. \`make PYTHON=python3.12\`" >&2; exit 2; }
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.lock
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

# The kernels of one-off commands compiled ahead of time, so that they start without numba. The target is the
# build's record (pipeline/core/aot.py), written even when nothing could be built: commands then use numba.
$(ENGINE_DIR)/wordstats_scrabble_aot.json: pipeline/scrabble/engine.py pipeline/scrabble/lexicon/kernels.py pipeline/scrabble/movegen/kernels/__init__.py pipeline/scrabble/movegen/kernels/bits.py pipeline/scrabble/movegen/kernels/bounds.py pipeline/scrabble/movegen/kernels/game.py pipeline/scrabble/movegen/kernels/hashed.py pipeline/scrabble/movegen/kernels/layout.py pipeline/scrabble/movegen/kernels/leaves.py pipeline/scrabble/movegen/kernels/position.py pipeline/scrabble/movegen/kernels/search.py pipeline/scrabble/movegen/kernels/walk.py pipeline/scrabble/movegen/tables.py pipeline/core/aot.py $(INSTALLED)
	$(PY) -m pipeline.core.aot scrabble $@
$(ENGINE_DIR)/wordstats_boggle_aot.json: pipeline/boggle/engine.py pipeline/boggle/kernels.py pipeline/letters/kernels.py pipeline/core/aot.py $(INSTALLED)
	$(PY) -m pipeline.core.aot boggle $@
# A build whose record or module is wrong (damaged, cut short, made on another machine) is made again.
STALE_ENGINES := $(if $(wildcard $(PY)),$(shell $(PY) -m pipeline.core.aot --stale $(ENGINES) 2>/dev/null))
$(STALE_ENGINES): FORCE

# ---- stages: generated rules (one pattern rule per stage; % is the lexicon) ----------------------------

# Written again when the config, a module or the install changes; the fingerprints it writes change only
# with the settings they hold.
$(RULES_MK): $(CONFIG) $(wildcard pipeline/*.py pipeline/*/*.py pipeline/*/*/*.py pipeline/*/*/*/*.py) $(INSTALLED)
	@$(MAKE_RULES)

ifeq ($(filter $(NO_RULES_GOALS),$(MAKECMDGOALS)),)
include $(RULES_MK)
ifneq ($(RULES_CONFIG),$(CONFIG))
$(RULES_MK): FORCE
endif
ifdef LEXICONS
all: $(ENGINES) $(filter $(foreach L,$(LEXICONS),$(OUT)/$(L)/%),$(ALL_OUTPUTS))
else
all: $(ENGINES) $(ALL_OUTPUTS)
endif
endif

.PHONY: FORCE
FORCE:

serve: $(INSTALLED) ## the teacher's page on http://127.0.0.1:8765/ (after make all; Ctrl-C to stop)
	$(VENV)/bin/wordstats serve --config $(CONFIG) --data-dir $(OUT)

# ---- checks -------------------------------------------------------------------------------------

# The tests run in TEST_WORKERS processes (pytest-xdist), a module's tests in one of them (tests/conftest.py).
TEST_WORKERS ?= 2
PYTEST := $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadgroup

test: $(INSTALLED) $(ENGINES) ## run the full test suite
	$(PYTEST)

test-fast: $(INSTALLED) $(ENGINES) ## the quick tests for the edit loop (no slow end-to-end tests)
	$(PYTEST) -m "not slow" -x

lint: $(INSTALLED) ## ruff (lint and format check) and mypy (types; settings in pyproject.toml)
	$(VENV)/bin/ruff check pipeline tests
	$(VENV)/bin/ruff format --check pipeline tests
	$(VENV)/bin/mypy

bench: $(INSTALLED) $(ENGINES) ## run the benchmarks; results go to $(OUT)/bench/*.json
	$(PY) -m tests.bench --out $(OUT)/bench

clean: ## remove generated data (keeps .venv)
	rm -rf $(OUT)
