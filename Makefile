# toolwire: the two commands of the quick start are `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint unit venv clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# setuptools warns that corpus folders look like packages; they ship as package data.
	PYTHONWARNINGS=ignore $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

## demo: install toolwire and run its main job on the bundled defaults:
## the conformance run of the reference adapter over the bundled corpus
demo: $(STAMP)
	$(BIN)/toolwire corpus validate
	$(BIN)/toolwire run --adapter reference

## lint: ruff and mypy
lint: $(STAMP)
	$(BIN)/ruff check harness conformance tests
	$(BIN)/ruff format --check harness conformance tests
	$(BIN)/mypy

## unit: the test suite alone
unit: $(STAMP)
	$(BIN)/pytest

## test: everything CI checks
test: lint unit
	$(BIN)/toolwire corpus validate

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
