# `make run` and `make test` work on a fresh clone: they create .venv, install the pinned
# dependencies, compile the translations and migrate.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: run test test-integration lint setup lock clean

$(BIN)/.installed: requirements/dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements/dev.lock
	touch $@

setup: $(BIN)/.installed
	$(BIN)/python manage.py compilemessages --ignore=.venv -v0
	$(BIN)/python manage.py collectstatic --noinput -v0

run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/uvicorn babel_companion.asgi:application --host 127.0.0.1 --port 8000

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

# Regenerate the lock files from requirements/*.in (needs the network).
lock:
	rm -rf /tmp/babel-lock && $(PYTHON) -m venv /tmp/babel-lock
	/tmp/babel-lock/bin/pip install --quiet -r requirements/base.in
	(echo "# Pinned production dependencies: regenerate with 'make lock'"; /tmp/babel-lock/bin/pip freeze) > requirements/base.lock
	/tmp/babel-lock/bin/pip install --quiet -r requirements/dev.in
	(echo "# Pinned development dependencies (includes base): regenerate with 'make lock'"; /tmp/babel-lock/bin/pip freeze) > requirements/dev.lock

clean:
	rm -rf $(VENV) static-collected
