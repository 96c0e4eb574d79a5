"""Compiled functions under concurrency: threads, fork, spawn and pickling (issue 5, item 5).

- Many threads calling one compiled function at once get correct results: the generated C keeps
  no static mutable state (each thread has its own workspace) and the output pool is safe.
- Threads that miss on the same signature at once trace and build it exactly once.
- The C call releases the GIL (the native helper's call brackets it with
  Py_BEGIN_ALLOW_THREADS; `make bench-threads` measures the resulting speedup).
- A forked child runs what its parent compiled; a spawned child gets compiled functions by
  value (pickled as C text + cache key + signature) and loads them from the disk cache
  without tracing.
The oracle everywhere is a hand-derived NumPy formula.
"""

from __future__ import annotations

import multiprocessing
import pickle
import re
import threading
from pathlib import Path

import numpy as np
import pytest
import references
from references import elementwise_numpy

import symgrad as sg
from symgrad.build import cache
from symgrad.build.c import native

N_THREADS = 8

# --------------------------------------------------------------------- module-level functions
# (spawned children import this module to find them again)

TRACES: list = []


def elementwise(x, y):
    TRACES.append("elementwise")   # runs once per trace, never per compiled call
    return references.elementwise(x, y)


elementwise_vg = sg.value_and_grad(elementwise, argnums=(0, 1))


def cube_sum(x):
    TRACES.append("cube_sum")
    return (x * x * x).sum()


second_derivative = sg.grad(sg.grad(cube_sum))


@sg.compile
def scaled_cube(x, k: float):
    return (x * x * x * k).sum()


def check_elementwise(result, x, y):
    value, (dx, dy) = result
    rv, rdx, rdy = elementwise_numpy(x, y)
    np.testing.assert_allclose(value, rv, rtol=1e-12)
    np.testing.assert_allclose(dx, rdx, rtol=1e-11, atol=1e-14)
    np.testing.assert_allclose(dy, rdy, rtol=1e-11, atol=1e-14)


def inputs(seed: int, n: int):
    rng = np.random.default_rng(seed)
    return rng.uniform(-2, 2, n), rng.uniform(-2, 2, n)


def run_in_threads(target, n=N_THREADS):
    """Start ``n`` threads on ``target(i)`` released together; re-raise the first error."""
    barrier = threading.Barrier(n)
    errors: list = []

    def body(i):
        try:
            barrier.wait()
            target(i)
        except BaseException as exc:   # noqa: BLE001  (reported below, in the main thread)
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]


# ------------------------------------------------------------------------------------ threads

@pytest.mark.parametrize("n", [16, 100_000])   # small outputs; pooled outputs (>= 64 KiB)
def test_threads_calling_one_function_get_correct_results(n):
    elementwise_vg(*inputs(0, n))     # compiled before the threads start

    def work(i):
        for k in range(20):
            x, y = inputs(1000 * i + k, n)
            result = elementwise_vg(x, y)
            check_elementwise(result, x, y)

    run_in_threads(work)


def test_threads_with_parallel_loops_get_correct_results():
    # Large enough for OpenMP loops: each Python thread runs a 2-thread parallel region.
    previous = sg.get_num_threads()
    sg.set_num_threads(2)
    try:
        x, y = inputs(7, 300_000)
        expected = elementwise_vg(x, y)

        def work(i):
            for _ in range(3):
                value, (dx, dy) = elementwise_vg(x, y)
                # One thread count: the same bits as the single-caller result.
                assert value == expected[0]
                np.testing.assert_array_equal(dx, expected[1][0])
                np.testing.assert_array_equal(dy, expected[1][1])

        run_in_threads(work, 4)
        check_elementwise(expected, x, y)
    finally:
        sg.set_num_threads(previous)


def test_threads_missing_one_signature_trace_and_build_once():
    constant = float(np.random.default_rng().uniform(1, 2))   # a C text no test built before
    calls = []

    @sg.compile
    def f(x):
        calls.append(1)
        return sg.exp(x) * constant

    x = np.linspace(-1, 1, 33)
    compiles = cache.stats["compiles"]
    results: dict = {}

    def work(i):
        results[i] = f(x)

    run_in_threads(work)
    assert len(calls) == 1, f"traced {len(calls)} times"
    assert cache.stats["compiles"] - compiles == 1
    for r in results.values():
        np.testing.assert_allclose(r, np.exp(x) * constant, rtol=1e-15)


def test_different_signatures_compile_concurrently_and_correctly():
    @sg.compile
    def f(x):
        return (x * x).sum()

    sizes = [3 + i for i in range(N_THREADS)]
    results: dict = {}

    def work(i):
        x = np.arange(sizes[i], dtype=np.float64)
        results[i] = (x, f(x))

    run_in_threads(work)
    for x, r in results.values():
        assert r == np.sum(x * x)
    assert len(f.specializations) == N_THREADS


def test_the_c_call_releases_the_gil():
    x, y = inputs(0, 16)
    elementwise_vg(x, y)
    spec = elementwise_vg.last_specialization
    assert spec.fn is spec.module.native.call
    source = (Path(native.__file__).with_name("native.c")).read_text()
    body = source[source.index("static PyObject *sg_call("):]
    body = body[:body.index("\n}\n")]
    # the native helper's call: the entry runs between these two macros.
    m = re.search(r"Py_BEGIN_ALLOW_THREADS(.*?)Py_END_ALLOW_THREADS", body, re.DOTALL)
    assert m is not None and "status = fn(" in m.group(1)


# ---------------------------------------------------------------------------------- pickling

def test_pickle_round_trip_reuses_the_build_without_tracing():
    x, y = inputs(3, 50)
    check_elementwise(elementwise_vg(x, y), x, y)
    traces = len(TRACES)
    compiles = cache.stats["compiles"]
    clone = pickle.loads(pickle.dumps(elementwise_vg))
    assert clone is not elementwise_vg
    check_elementwise(clone(x, y), x, y)
    assert len(TRACES) == traces and cache.stats["compiles"] == compiles
    assert clone.c_source == elementwise_vg.c_source
    # A new signature traces the function found again by name: a new size, twice (the
    # shape-generic compile traces at two sets of sizes, api.dynamic).
    x2, y2 = inputs(4, 7)
    check_elementwise(clone(x2, y2), x2, y2)
    assert len(TRACES) == traces + 2 and len(clone.shape_generic) == 1


def test_pickle_decorated_function_and_static_arguments():
    x = np.linspace(0, 1, 5)
    assert np.isclose(scaled_cube(x, 2.0), np.sum(x ** 3) * 2.0)
    clone = pickle.loads(pickle.dumps(scaled_cube))
    assert np.isclose(clone(x, 2.0), np.sum(x ** 3) * 2.0)
    assert np.isclose(clone(x, 3.0), np.sum(x ** 3) * 3.0)


def test_pickle_nested_gradient_transform():
    x = np.array(0.7)
    assert np.isclose(second_derivative(x), 6 * 0.7)
    traces = len(TRACES)
    clone = pickle.loads(pickle.dumps(second_derivative))
    assert np.isclose(clone(x), 6 * 0.7)
    assert np.isclose(clone(np.float32(0.5)), 6 * 0.5)   # a new signature: traces again
    assert len(TRACES) == traces + 1


def test_pickled_lambda_runs_its_compiled_signatures_and_explains_new_ones():
    f = sg.compile(lambda a: a * 2 + 1)
    x = np.arange(3.0)
    f(x)
    clone = pickle.loads(pickle.dumps(f))
    np.testing.assert_array_equal(clone(x), x * 2 + 1)
    with pytest.raises(TypeError, match=r"without its Python function.*float64\[3\]"):
        clone(np.arange(4.0))


def test_unpickled_specialization_shows_its_c_and_inspect_traces_again():
    x, y = inputs(3, 50)
    elementwise_vg(x, y)
    clone = pickle.loads(pickle.dumps(elementwise_vg))
    clone(x, y)
    assert "elementwise" in clone.c_source
    spec = next(iter(clone.specializations.values()))
    with pytest.raises(RuntimeError, match="loaded from its C alone"):
        sg.api.Inspection(spec)                    # (the record holds no IR) ...
    report = sg.inspect(clone, x, y, print_=False)  # ... but inspect traces again
    assert report.c_source == clone.c_source


# ------------------------------------------------------------------------ fork and spawn

def _apply(job):
    fn, args = job
    return fn(*args)


def _spawned(job):
    """Runs in a spawned child: the compiled function arrives pickled."""
    fn, args = job
    result = fn(*args)
    return result, dict(cache.stats), len(TRACES)


def test_fork_pool_runs_compiled_functions():
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    jobs = [inputs(i, 64) for i in range(4)]
    elementwise_vg(*jobs[0])
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(_apply, [(elementwise_vg, j) for j in jobs])
    for (x, y), r in zip(jobs, results):
        check_elementwise(r, x, y)


def test_spawn_pool_loads_pickled_builds_without_tracing():
    jobs = [inputs(i, 64) for i in range(4)]
    elementwise_vg(*jobs[0])    # compiled (and cached on disk) here, in the parent
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_spawned, [(elementwise_vg, j) for j in jobs])
    for (x, y), (r, stats, traces) in zip(jobs, results):
        check_elementwise(r, x, y)
        assert stats["compiles"] == 0, "the child rebuilt what the parent had cached"
        assert traces == 0, "the child traced instead of loading the pickled C"
