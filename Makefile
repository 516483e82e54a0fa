# The two commands: `make run` (demo site on 127.0.0.1:8000) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run serve docs screenshots new-admin-password lint format test test-postgres test-newest-django install migrate demo messages bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@# setuptools prints a banner about editable installs even under --quiet: a warning, silenced here.
	PYTHONWARNINGS=ignore $(BIN)/pip install --quiet -e ".[postgres,site,test,docs]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --verbosity 0

# The demo admin's password is chosen once and kept, so a browser's saved login survives restarts;
# `make new-admin-password` has the next run choose another.
DEMO_PASSWORD := .demo-admin-password

$(DEMO_PASSWORD):
	@$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(12))" > $(DEMO_PASSWORD)

demo: migrate $(DEMO_PASSWORD)
	@$(BIN)/python manage.py events_demo --site-url http://127.0.0.1:$${PORT:-8000} --admin-password "$$(cat $(DEMO_PASSWORD))"

new-admin-password:
	rm -f $(DEMO_PASSWORD)

# DEBUG on by default here: runserver then serves the admin's static files and uploaded images.
# PORT chooses the port (default 8000).
# The worker (webhook deliveries, the daily upkeep) runs beside the server and stops with it.
run: demo
	@echo "Serving the calendar on http://127.0.0.1:$${PORT:-8000}/ (admin: /admin/, API: /wp-json/), webhook worker beside it"
	@DEBUG=$${DEBUG:-true} $(BIN)/python manage.py events_worker --verbosity 0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py runserver 127.0.0.1:$${PORT:-8000}

# The site as production serves it (docs/deployment.md): static files collected and served by
# gunicorn, with the settings of gunicorn.conf.py. Uploaded images are left to the proxy in front.
serve: demo
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	GUNICORN_BIND=127.0.0.1:$${PORT:-8000} $(BIN)/gunicorn calendar_site.wsgi

# The process memories answer only on PostgreSQL, whose triggers version the tables they are valid
# for (docs/architecture-memories.md, "SQLite, and what `make test` runs"): after the suite on
# SQLite, the files that exercise them run on PostgreSQL too, when one answers at TEST_POSTGRES_URL.
MEMORY_TESTS := tests/test_memory.py tests/test_list_totals.py tests/test_stored_rows_memory.py \
	tests/test_scale_out.py tests/test_statement_reads.py tests/test_page_plan.py \
	tests/test_prepared_statements.py tests/test_rendering_store.py
TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test

test: install
	$(BIN)/python -m pytest -n 2 --dist loadfile -q
	@if $(BIN)/python -c "import sys, psycopg; psycopg.connect(sys.argv[1].rsplit('/', 1)[0] + '/postgres', connect_timeout=3).close()" "$(TEST_POSTGRES_URL)" 2>/dev/null; then \
		echo "The memory-using tests on PostgreSQL ($(TEST_POSTGRES_URL)):"; \
		DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/python -m pytest -n 2 --dist loadfile -q $(MEMORY_TESTS); \
	else \
		echo "No PostgreSQL at $(TEST_POSTGRES_URL): the process memories were not exercised (they are off on SQLite)."; \
		echo "Set TEST_POSTGRES_URL, or run make test-postgres."; \
	fi

# The same suite against PostgreSQL (the production database).
test-postgres: install
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(BIN)/python -m pytest -n 2 --dist loadfile -q

# The suite under the newest Django the app supports, 6.0, which needs Python 3.12 or later (`make
# test` runs Django 5.2 LTS, the newest release for Python 3.11). NEWEST_PYTHON names the interpreter.
NEWEST_PYTHON ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3) $(shell command -v python3.12))
NEWEST_VENV ?= .venv-django6

test-newest-django:
	@test -n "$(NEWEST_PYTHON)" || { echo "No Python 3.12 found: set NEWEST_PYTHON=/path/to/python3.12"; exit 1; }
	$(NEWEST_PYTHON) -m venv $(NEWEST_VENV)
	$(NEWEST_VENV)/bin/pip install --quiet --upgrade pip
	PYTHONWARNINGS=ignore $(NEWEST_VENV)/bin/pip install --quiet -e ".[postgres,site,test]" "Django>=6.0,<6.1"
	$(NEWEST_VENV)/bin/python -m pytest -n 2 --dist loadfile -q

messages: install
	cd events && ../$(BIN)/python ../manage.py makemessages -l zh_Hans -l zh_Hant --no-obsolete --no-wrap
	cd events && ../$(BIN)/python ../manage.py compilemessages

# Lint and layout ([tool.ruff] in pyproject.toml), as CI checks them; `make format` rewrites.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The documentation site (docs/, mkdocs.yml) into site/; a warning (a broken link) fails the build.
docs: install
	$(BIN)/mkdocs build --strict --quiet

# The editors' guide's admin screenshots (docs/images/), taken by the admin's browser test.
screenshots: install
	$(BIN)/python -m pytest -q tests/test_admin_browser.py
	mkdir -p docs/images
	cp test-artifacts/admin-event-form.png test-artifacts/admin-event-form-zh-hant.png test-artifacts/admin-event-list.png docs/images/

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) $(NEWEST_VENV) build dist site *.egg-info db.sqlite3 $(DEMO_PASSWORD)
