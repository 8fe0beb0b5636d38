# `make run` and `make test` work on a fresh clone: they create .venv, install the pinned
# dependencies, compile the translations and migrate.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: run venue venue-http demo-data test test-integration lint mutation setup lock clean

$(BIN)/.installed: requirements/dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements/dev.lock
	touch $@

setup: $(BIN)/.installed
	$(BIN)/python manage.py compilemessages --ignore=.venv -v0
	$(BIN)/python manage.py collectstatic --noinput -v0

# The embedded defaults (SQLite, tasks inline) with the demo group: what `make run` and the
# venue box serve.
demo-data: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo

run: demo-data
	$(BIN)/uvicorn babel_companion.asgi:application --host 127.0.0.1 --port 8000

# The venue box (docs/hosting.md, "The venue box (no internet)"): served to the phones on this machine's
# local network, over HTTPS with a certificate from a local CA that mkcert makes in .venue/
# (`make venue`), or over plain HTTP (`make venue-http`). PORT=... and ADDRESS=<LAN IPv4,...>
# override the port and the addresses found.
VENUE_OPTIONS = $(if $(PORT),--port $(PORT)) $(if $(ADDRESS),--address $(ADDRESS))

venue: demo-data
	$(BIN)/python -m babel_companion.venue $(VENUE_OPTIONS)

venue-http: demo-data
	$(BIN)/python -m babel_companion.venue --http $(VENUE_OPTIONS)

test: setup
	$(BIN)/python manage.py makemigrations --check --dry-run -v0
	$(BIN)/pytest -m "not integration and not browser"

# Against the machine's real services: PostgreSQL on 127.0.0.1:5432, Redis on 6379, a
# Celery worker process, and Debian's Chromium. See .ci/run for what CI installs first.
test-integration: setup
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/babel} \
	REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0} \
	REDIS_CACHE_URL=$${REDIS_CACHE_URL:-redis://127.0.0.1:6379/1} \
	$(BIN)/pytest

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file /dev/null

# Mutation testing of scoring/ with mutmut (docs/mutation.md): long, so not in `make test` or
# CI. Configured in pyproject.toml's [tool.mutmut]; its working copy is mutants/ (git-ignored).
# MUTATION_JOBS=1 on a shared machine.
MUTATION_JOBS ?= 2

mutation: setup
	$(BIN)/mutmut run --max-children $(MUTATION_JOBS)
	$(BIN)/mutmut results

# Regenerate the lock files from requirements/*.in (needs the network).
lock:
	rm -rf /tmp/babel-lock && $(PYTHON) -m venv /tmp/babel-lock
	/tmp/babel-lock/bin/pip install --quiet -r requirements/base.in
	(echo "# Pinned production dependencies: regenerate with 'make lock'"; /tmp/babel-lock/bin/pip freeze) > requirements/base.lock
	/tmp/babel-lock/bin/pip install --quiet -r requirements/dev.in
	(echo "# Pinned development dependencies (includes base): regenerate with 'make lock'"; /tmp/babel-lock/bin/pip freeze) > requirements/dev.lock

clean:
	rm -rf $(VENV) static-collected
