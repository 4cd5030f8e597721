# The two commands: `make demo` and `make test`. Each creates .venv if missing and installs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean install browser

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

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

test: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 -q --doctest-modules tests pokerlab

lint: $(STAMP)
	$(BIN)/ruff check pokerlab tests benchmarks
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
