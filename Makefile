# The two commands of the README: `make run` and `make test`. Both install what they need
# into .venv first, so they work on a fresh machine with only python3 (3.11+).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/umf_archive

.PHONY: run test install install-dev lint typecheck pytest bench worker lock clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Dependencies come from the lock files, every version pinned and every file checked by
# its hash (the Dockerfile installs the same requirements.lock); the project itself is then
# installed on top, without resolving anything again.
$(VENV)/.stamp-run: pyproject.toml requirements.lock | $(VENV)/bin/python
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.stamp-dev: pyproject.toml requirements-dev.lock $(VENV)/.stamp-run
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.lock
	touch $@

install: $(VENV)/.stamp-run
install-dev: $(VENV)/.stamp-dev

## make run: migrate, load the demo user and conversations, serve on 127.0.0.1:$(PORT).
## SQLite and in-process tasks unless DATABASE_URL / CELERY_BROKER_URL are set.
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo --url http://127.0.0.1:$(PORT)/
	UMF_TASKS_IN_BACKGROUND=$${UMF_TASKS_IN_BACKGROUND:-true} $(PY) manage.py runserver 127.0.0.1:$(PORT)

## make test: ruff, mypy and the whole pytest suite against PostgreSQL.
test: install-dev
	@DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PY) scripts/check_database.py
	@sh scripts/ensure_chromium.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
ifeq ($(strip $(PYTEST_ARGS)),)
	@# Two runs: the pure-Python format tests, then the rest in fresh workers (one run of
	@# both took half as long again on a 2-core machine: 10.7 min against 7.1).
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(VENV)/bin/pytest tests/providers
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(VENV)/bin/pytest --ignore=tests/providers
	@# Search must mean the same on SQLite (make run's default): its shared test once more.
	DATABASE_URL=sqlite:///$(CURDIR)/.test-search.sqlite3 $(VENV)/bin/pytest -n 0 -p no:cacheprovider tests/conversations/selectors/test_search_semantics.py
else
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(VENV)/bin/pytest $(PYTEST_ARGS)
endif

lint: install-dev
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

typecheck: install-dev
	$(VENV)/bin/mypy .

pytest: install-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(VENV)/bin/pytest $(PYTEST_ARGS)

## make bench: the benchmarks in bench/ (PostgreSQL).
bench: install-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PY) bench/api_roundtrip.py

## make worker: a Celery worker (set CELERY_BROKER_URL). Threads, since replays wait on
## providers; on PostgreSQL a pooled connection per thread (DATABASE_POOL_MAX_SIZE).
WORKER_CONCURRENCY ?= 32
worker: install
	DATABASE_POOL_MAX_SIZE=$${DATABASE_POOL_MAX_SIZE:-$$(( $(WORKER_CONCURRENCY) + 2 ))} \
		$(VENV)/bin/celery -A umfsite worker --loglevel=info --pool=threads \
		--concurrency=$(WORKER_CONCURRENCY)

## make lock: pin the dependencies of pyproject.toml again (the versions already locked are
## kept unless pyproject.toml rules them out; UPGRADE=--upgrade takes the newest).
LOCK := $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" --quiet $(UPGRADE)
lock: install-dev
	$(LOCK) -o requirements.lock
	$(LOCK) --extra dev -c requirements.lock -o requirements-dev.lock

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
