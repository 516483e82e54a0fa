# The two commands: `make run` (demo site on 127.0.0.1:8000) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-postgres install migrate demo messages bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[postgres,site,test]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --verbosity 0

demo: migrate
	$(BIN)/python manage.py events_demo --site-url http://127.0.0.1:$${PORT:-8000}

# DEBUG on by default here: runserver then serves the admin's static files and uploaded images.
# PORT chooses the port (default 8000).
run: demo
	@echo "Serving the calendar on http://127.0.0.1:$${PORT:-8000}/ (admin: /admin/, API: /wp-json/)"
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py runserver 127.0.0.1:$${PORT:-8000}

test: install
	$(BIN)/python -m pytest -n 2 --dist loadfile -q

# The same suite against PostgreSQL (the production database).
test-postgres: install
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(BIN)/python -m pytest -n 2 --dist loadfile -q

messages: install
	cd events && ../$(BIN)/python ../manage.py makemessages -l zh_Hans -l zh_Hant --no-obsolete --no-wrap
	cd events && ../$(BIN)/python ../manage.py compilemessages

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info db.sqlite3
