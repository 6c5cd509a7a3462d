# Table Referee: the two set-up commands are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
export FLASK_APP := app:create_app

.PHONY: run test lint bench vision-eval install install-dev demo clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt requirements.txt $(VENV)/.installed
	$(PIP) install -q -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

run: install
	$(VENV)/bin/flask db upgrade
	$(VENV)/bin/flask demo load
	$(VENV)/bin/flask run --host 127.0.0.1 --port 5000

demo: install
	$(VENV)/bin/flask db upgrade
	$(VENV)/bin/flask demo load

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict referee

test: install-dev lint
	$(PY) -m pytest

bench: install-dev
	$(PY) -m bench

vision-eval: install
	$(PY) -m vision evaluate

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
