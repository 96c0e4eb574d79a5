# symgrad: `make demo` and `make test` work on a fresh machine (they create .venv and install).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test test-capture fuzz fuzz-staleness bench bench-quick bench-matmul bench-linalg bench-gradbench bench-gradbench-cpp bench-overhead bench-threads bench-contention bench-dynamic bench-memory \
        bench-compile bench-eager bench-programs bench-loops bench-derivatives golden optable check-cc clean venv lint module-map

# (pip builds symgrad's one C extension, symgrad/build/c/native.c: a compiler first)
$(STAMP): pyproject.toml symgrad/build/c/native.c | check-cc
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

# pytest exits 5 when it collects no tests: that must fail, not pass silently. The tests run
# in TEST_WORKERS processes (pytest-xdist; auto: one per core, TEST_WORKERS=0 for one process).
TEST_WORKERS ?= auto
# Bytecode on even where the environment turns it off (PYTHONDONTWRITEBYTECODE): the tests
# start hundreds of fresh processes, each of which would compile symgrad's modules again.
test: $(STAMP) check-cc
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) tests; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "error: no tests ran" >&2; exit 1; fi; exit $$rc

# The front end's tests again with every eager step that repeats captured at its second run
# (SYMGRAD_CAPTURE=eager): a stress test of eager capture's replays and fallbacks (.ci/run).
test-capture: $(STAMP) check-cc
	env -u PYTHONDONTWRITEBYTECODE SYMGRAD_CAPTURE=eager $(PY) -m pytest -q -p no:cacheprovider \
	  -n $(TEST_WORKERS) tests/frontend tests/programs tests/nn tests/optim; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "error: no tests ran" >&2; exit 1; fi; exit $$rc

# Long fuzzing campaigns (make test runs a fixed-seed sample of each): the numeric
# differential fuzzer, then the staleness fuzzer (pairs of programs that differ in one
# dependency, reused across calls, processes and edits), then the whole op sweep against torch
# (tests/sweep; make test runs a quarter of its samples). All run; any failing fails.
# FUZZ_ARGS="--programs 5000 --seed 1", STALENESS_ARGS="--pairs 500 --seed 1" to choose the
# sizes and the seeds; make fuzz-staleness runs the second alone.
FUZZ_ARGS ?=
STALENESS_ARGS ?=
fuzz: $(STAMP) check-cc
	status=0; $(PY) tests/fuzz_campaign.py $(FUZZ_ARGS) || status=1; \
	  $(PY) tests/staleness_campaign.py $(STALENESS_ARGS) || status=1; \
	  SYMGRAD_SWEEP=full $(PY) -m pytest -q -p no:cacheprovider tests/sweep || status=1; \
	  exit $$status

fuzz-staleness: $(STAMP) check-cc
	$(PY) tests/staleness_campaign.py $(STALENESS_ARGS)

# The benchmark suite (not part of test) runs in its own venv: symgrad plus the `bench` extra
# (torch, jax, pytensor, casadi, matplotlib). torch goes in first and alone, pinned, so that pip
# takes the local CPU wheel and never resolves another torch build for the extra.
BENCH_VENV  ?= .venv-bench
BENCH_PY    := $(BENCH_VENV)/bin/python
BENCH_STAMP := $(BENCH_VENV)/.installed
BENCH_TORCH ?= torch==2.13.0
BENCH_ARGS  ?=

$(BENCH_STAMP): pyproject.toml symgrad/build/c/native.c | check-cc
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_PY) -m pip install --quiet --upgrade pip
	$(BENCH_PY) -m pip install --quiet "$(BENCH_TORCH)"
	$(BENCH_PY) -m pip install --quiet -e ".[bench]"
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) check-cc
	$(BENCH_PY) benchmarks/run.py $(BENCH_ARGS)
	$(BENCH_PY) benchmarks/loops.py
	$(BENCH_PY) benchmarks/derivatives.py

# Loops (fori_loop, scan, while_loop): compile time, per-call time against the unrolled ODE
# and against jax.jit of the same lax.scan LSTM (JAX from .venv-bench).
bench-loops: $(BENCH_STAMP) check-cc
	$(BENCH_PY) benchmarks/loops.py

# Per-example gradients, dense and sparse Hessians, a bundle-adjustment sparse Jacobian and
# forward mode, against jax.jit, torch.func and CasADi's generated C (from .venv-bench).
bench-derivatives: $(BENCH_STAMP) check-cc
	$(BENCH_PY) benchmarks/derivatives.py

# The GradBench/ADBench problems (lse, llsq, ode, det, kmeans, saddle, particle, gmm, ba, ht,
# lstm) in torch eager, jax.jit and symgrad, one thread each, checked against torch
# (benchmarks/results/gradbench.md). BENCH_ARGS="--only lse,det --rounds 5 --full".
bench-gradbench: $(BENCH_STAMP) check-cc
	$(BENCH_PY) benchmarks/gradbench.py $(BENCH_ARGS)

# GradBench's hand-written C++ derivatives (its manual tool: det, kmeans, ba, ht) built from a
# GradBench checkout and timed beside symgrad on the same inputs, one thread, checked against
# each other (benchmarks/results/gradbench_cpp.md). GRADBENCH=path/to/gradbench (a checkout;
# its cpp/json.hpp, or JSON_HPP=path/to/nlohmann/json.hpp); BENCH_ARGS="--only det --rounds 5".
bench-gradbench-cpp: $(STAMP) check-cc
	@test -n "$(GRADBENCH)" || { echo "set GRADBENCH=path/to/a/gradbench/checkout" >&2; exit 2; }
	$(PY) benchmarks/gradbench_cpp.py --gradbench $(GRADBENCH) \
	  $(if $(JSON_HPP),--json-hpp $(JSON_HPP)) $(BENCH_ARGS)

bench-quick: $(BENCH_STAMP) check-cc
	$(BENCH_PY) benchmarks/run.py --quick $(BENCH_ARGS)

bench-matmul: $(STAMP) check-cc
	$(PY) benchmarks/matmul.py

# Compiled decomposition kernels (solve, eigh) vs NumPy's LAPACK per size, one thread each.
bench-linalg: $(STAMP) check-cc
	OPENBLAS_NUM_THREADS=1 SYMGRAD_NUM_THREADS=1 $(PY) benchmarks/linalg.py

# The empty-call floor of cffi on this machine and symgrad's per-call overhead above it.
bench-overhead: $(STAMP) check-cc
	$(PY) benchmarks/overhead.py

# Eager (define-by-run) steps against torch eager, one thread: seed loop, MLP step, op chain.
bench-eager: $(BENCH_STAMP)
	$(BENCH_PY) benchmarks/eager.py $(BENCH_ARGS)

# The torch programs of tests/programs/ under symgrad and under torch: first run and steady state.
bench-programs: $(BENCH_STAMP)
	$(BENCH_PY) benchmarks/programs.py $(BENCH_ARGS)

# Python threads calling one compiled gradient: the speedup from the C call dropping the GIL.
bench-threads: $(STAMP) check-cc
	$(PY) benchmarks/threads.py

# Each threaded bench problem with 0, 1 and 2 busy processes beside it (and 2 taking turns with
# it): one thread, the default
# (automatic) count and all CPUs (benchmarks/results/contention.md).
bench-contention: $(STAMP) check-cc
	$(PY) benchmarks/contention.py

# Shape-generic compilation: logreg and MLP at batch 1, 7, 256, 1000 from one compile, against
# one compile per batch size (benchmarks/results/dynamic.md).
bench-dynamic: $(STAMP) check-cc
	$(PY) benchmarks/dynamic.py

# The cold first call by stage (import, trace, passes, lower, codegen, build: each compiler
# process, the link, writing the sources, loading), cold and cached, medians of --runs (3), for
# the make bench problems, the fori_loop ODE, large ones (7x7 determinant, 400-step RK4, LSTM
# scan, 10-layer MLP vmap(grad)) and the unrolled scaling series; beside Dr.Jit's cold first
# call on the small ones when .venv-bench imports drjit (else the table says it was skipped).
# BENCH_ARGS="--runs 1 --only seed,det7" for a part.
bench-compile: $(STAMP) check-cc
	$(PY) benchmarks/compile.py --drjit-python $(BENCH_PY) --peers-python $(BENCH_PY) $(BENCH_ARGS)

# Rewrite the golden C of tests/codegen/golden/ (review the diff before committing it).
# The linter (ruff, its rules in pyproject.toml), run by .ci/run: must report nothing.
LINT_STAMP := $(VENV)/.lint-installed
$(LINT_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[lint]"
	touch $(LINT_STAMP)

lint: $(LINT_STAMP)
	$(VENV)/bin/ruff check symgrad tests benchmarks examples

# Rewrite the README's table of every module (from the modules' docstrings and layers).
module-map: $(STAMP)
	$(PY) tests/test_module_map.py --refresh

golden: $(STAMP)
	$(PY) tests/codegen/test_golden.py --refresh

# Reprint the ops' C expressions from their SymPy definitions into symgrad/codegen/c/optable.py
# (tests/codegen/test_exprs.py fails until this is run after an op's expression changes).
optable: $(STAMP)
	$(PY) -c "from symgrad.codegen.c.exprs import write_table; write_table('symgrad/codegen/c/optable.py')"

# Resident memory over 10^6 calls, and the peak memory of one large value_and_grad against
# NumPy and torch (torch comes from the bench venv).
bench-memory: $(BENCH_STAMP) check-cc
	$(BENCH_PY) benchmarks/memory.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) build *.egg-info
