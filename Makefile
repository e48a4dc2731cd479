# Two commands set everything up on a fresh clone: `make run` and `make test`.
PYTHON ?= python3
PORT ?= 5000
VENV := .venv
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app scorekeeper

.PHONY: run serve test check install install-test translations db bench lint

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python pyproject.toml
	@mkdir -p instance
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed package-lock.json
	$(BIN)/pip install --quiet -e '.[test]'
	# axe-core, which the accessibility test injects into every page (skipped without npm)
	if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent; fi
	touch $@

install: $(VENV)/.installed translations
install-test: $(VENV)/.installed-test translations

translations: $(VENV)/.installed
	$(BIN)/pybabel compile -d scorekeeper/translations

instance/config.py:
	umask 077; $(BIN)/python -c "import secrets; print(f'SECRET_KEY = {secrets.token_hex()!r}')" > $@

db: install instance/config.py
	$(FLASK) db upgrade

run: db
	$(FLASK) run --port $(PORT)

# production: gunicorn with gevent workers (gunicorn.conf.py), DATABASE_URL for PostgreSQL,
# behind a TLS proxy
serve: db
	$(BIN)/gunicorn --config gunicorn.conf.py 'scorekeeper:create_app()'

# The test runs keep Python's compiled files (also pytest's rewritten test modules) under
# .venv/pycache, even where PYTHONDONTWRITEBYTECODE is set: each worker would otherwise compile
# every module anew, every run.
PYTEST := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache $(BIN)/pytest

# the suite in parallel: three workers share the two cores (the browser tests wait on timers;
# a fourth only adds switching)
TEST_WORKERS ?= 3
test: install-test
	$(PYTEST) -n $(TEST_WORKERS) --dist worksteal

# the quick loop beside it: the engine, web and command-line tests on SQLite, each property
# test with a quarter of its examples; no browser, no benches, no wheel (`make test` runs
# everything)
check: install-test
	TEST_DATABASE_URL= $(PYTEST) -n $(TEST_WORKERS) --dist worksteal -m "not slow" \
		--examples 0.25 --ignore=tests/browser

bench: install-test
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/entry.py
	$(BIN)/python bench/standings.py
	$(BIN)/python bench/season.py

lint: install-test
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/mypy
