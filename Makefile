# One command each: `make demo` installs and generates a benchmark offline; `make test`
# installs and runs every test, the slow end-to-end ones too; `make fast` runs the others on two
# worker processes (the loop while editing); `make lint` runs ruff with the configuration in
# pyproject.toml. Each creates .venv on first use. Tests keep their compiled bytecode even where
# the environment says not to write it: rewriting every test's asserts again costs ~10 s a run.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH_INDEX ?=

.PHONY: demo test fast lint

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	# The CPU build of torch first, so nothing pulls a CUDA build (TORCH_INDEX: see README);
	# no pip cache, so an install needs only the room the environment takes.
	$(PY) -m pip install --quiet --no-cache-dir torch==2.13.0 $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(PY) -m pip install --quiet --no-cache-dir -e ".[test,ray]"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/factory generate --domain "Food and Beverage" -n 50 --seed 1

test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

fast: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -m "not slow" -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .
