# symgrad: `make demo` and `make test` work on a fresh machine (they create .venv and install).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench check-cc clean venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

venv: $(STAMP)

check-cc:
	@command -v $${SYMGRAD_CC:-$${CC:-cc}} >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || \
	  { echo "error: no C compiler found. Install one (Debian/Ubuntu: apt-get install gcc;" \
	         "macOS: xcode-select --install) or set SYMGRAD_CC." >&2; exit 1; }

demo: $(STAMP) check-cc
	$(PY) examples/demo.py

# pytest exits 5 when it collects no tests: that must fail, not pass silently.
test: $(STAMP) check-cc
	$(PY) -m pytest -q -p no:cacheprovider tests; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "error: no tests ran" >&2; exit 1; fi; exit $$rc

bench: $(STAMP) check-cc
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info
