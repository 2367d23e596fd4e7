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

# Bytecode for toolwire's own modules, as `pip install` of a wheel leaves it:
# an editable install under PYTHONDONTWRITEBYTECODE (set on some CI machines)
# would compile every module again at each start (0.2 s of every command).
.PHONY: bytecode
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q toolwire harness conformance > /dev/null

venv: $(STAMP)

## demo: install toolwire and run its main job on the bundled defaults:
## the conformance run of the reference adapter over the bundled corpus
demo: bytecode
	$(BIN)/toolwire corpus validate
	$(BIN)/toolwire run --adapter reference

## lint: ruff and mypy
lint: $(STAMP)
	$(BIN)/ruff check toolwire harness conformance tests .github/toolwire-action
	$(BIN)/ruff format --check toolwire harness conformance tests .github/toolwire-action
	$(BIN)/mypy

## rule-pages: pick each rule's examples again and write docs/rules/ (after a
## change to a rule, its fix text or the corpus; tests/docs/test_rule_pages.py checks)
.PHONY: rule-pages
rule-pages: $(STAMP)
	$(BIN)/python -m tests.docs.rule_examples
	$(BIN)/python -m toolwire.conformance.pages docs/rules

## unit: the test suite alone
unit: $(STAMP)
	$(BIN)/pytest -n auto

## test: everything CI checks
test: lint unit
	$(BIN)/toolwire corpus validate

## bench: timings of the reference adapter on the bundled corpus: end to end,
## against the floor (cases loaded, adapter called, no checks), the pytest path
## and growth at 1x, 10x and 100x the corpus; then the pytest plugin's CPU
## against `toolwire run` and `pytest -n 2` against `-n 0` (docs/performance.md;
## not a test)
.PHONY: bench bench-plugin
bench: bytecode
	$(BIN)/python benchmarks/bench.py $(BENCH_ARGS)
	$(BIN)/python benchmarks/plugin_path.py

## bench-plugin: the second part of `make bench` alone
bench-plugin: bytecode
	$(BIN)/python benchmarks/plugin_path.py $(BENCH_PLUGIN_ARGS)

## bench-thirdparty: the same harness/floor ratio for reference and every
## adapter of reports/thirdparty.toml whose environment `make reports` made
.PHONY: bench-thirdparty
bench-thirdparty: bytecode
	$(BIN)/python benchmarks/ratio.py reference --third-party $(BENCH_ARGS)

## reports: regenerate reports/ (not part of `make test`): every third-party
## adapter of reports/thirdparty.toml, each extra in its own environment
## .venv-thirdparty/<extra>/ (installed from PyPI on first use), plus the
## reference adapter; then reports/index.html and reports/README.md compare them
.PHONY: reports integration
reports: $(STAMP)
	$(BIN)/python -m toolwire.harness.reports.thirdparty --reference $(REPORTS_ARGS)

## reports-history: judge every release of [history.$(HISTORY)] of
## reports/thirdparty.toml (default litellm), each in its own environment
## .venv-thirdparty/<package>-<release>/, and write the page
## reports/history/$(HISTORY)/README.md and index.html (docs/reports.md)
HISTORY ?= litellm
.PHONY: reports-history
reports-history: $(STAMP)
	$(BIN)/python -m toolwire.harness.reports.thirdparty --history $(HISTORY) $(REPORTS_ARGS)

## integration: the slow checks against real third-party code: the library
## reports above, then toolwire against three real HTTP proxies (LiteLLM proxy,
## claude-code-proxy, claude-code-router), each installed from its registry into
## .venv-integration/<name>/ and started on 127.0.0.1, in a network namespace
## of its own where the machine allows one (docs/proxies.md, "Real proxies");
## results in reports/proxy-*/
integration: reports
	$(BIN)/python -m toolwire.harness.reports.proxies $(INTEGRATION_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
