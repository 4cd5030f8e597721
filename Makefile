# The two commands: `make demo` and `make test`. Each creates .venv if missing and installs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench clean install browser

# What the demo needs: pokerlab and its runtime dependencies, no extras.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

# The dev extras (tests, peers, torch, ray). torch: a CPU-only wheel where pip's own
# find-links folder offers one (--no-index looks nowhere else; its dependencies come with
# the extras); else the public index's.
$(DEV_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet --no-index --no-deps torch 2>/dev/null || true
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

install: $(DEV_STAMP)

demo: $(STAMP)
	$(BIN)/pokerlab demo

# The browser tests (tests/web) drive Debian's chromium through Playwright.
# Missing and root: install it (apt-get update first: a fresh image has empty package lists).
CHROMIUM ?= /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { [ "$$(id -u)" = 0 ] \
		&& DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
		|| echo "make test: the browser tests need $(CHROMIUM): apt-get install chromium (as root)"

test: $(DEV_STAMP) browser
	$(BIN)/python -m pytest -n 2 -q --durations=30 --doctest-modules tests pokerlab

lint: $(DEV_STAMP)
	$(BIN)/ruff check pokerlab tests benchmarks
	$(BIN)/mypy

bench: $(DEV_STAMP)
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
