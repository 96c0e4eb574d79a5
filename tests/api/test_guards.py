"""Python control flow on traced values, compiled by guards: each path the arguments take is
traced once, the C checks the decisions, and every call gives the eager result."""

import logging
import pickle
import threading
import warnings

import numpy as np
import pytest

import symgrad as sg
from symgrad.runtime import GuardLimitError, Paths

RNG = np.random.default_rng(11)


def seed_cell(x):
    """The autograd tutorial's data-dependent loop, verbatim."""
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    return y


def _trips(x) -> int:
    y, n = x * 2, 0
    while np.linalg.norm(y) < 1000:
        y, n = y * 2, n + 1
    return n


def _paths(f) -> list:
    (spec,) = f.signatures.specs.values()
    return spec.paths if isinstance(spec, Paths) else [spec]


def test_the_seed_cell_compiles_and_matches_eager_with_one_trace_per_trip_count():
    f = sg.compile(seed_cell)
    scales = np.geomspace(1.0, 60.0, 100)          # norms over ~6 doublings: 6 paths (< 8)
    directions = [d / np.linalg.norm(d) for d in RNG.normal(size=(100, 3))]
    inputs = [(d * s).astype(np.float32) for d, s in zip(directions, scales)]
    for x in inputs:
        want = seed_cell(sg.tensor(x)).numpy()
        np.testing.assert_array_equal(f(x), want)
    trip_counts = {_trips(x.astype(np.float64)) for x in inputs}
    assert len(trip_counts) > 2
    assert len(_paths(f)) == len(trip_counts)      # at most one trace per distinct trip count


def test_the_seed_cells_backward_inside_a_compiled_function():
    @sg.compile(max_paths=16)
    def cell(x, v):
        x = x.detach().requires_grad_()
        y = seed_cell(x)
        y.backward(v)
        return y.detach(), x.grad
    v = np.array([0.1, 1.0, 0.0001], np.float32)
    for s in np.geomspace(0.5, 40.0, 30):
        x = RNG.normal(size=3).astype(np.float32) * s
        xe = sg.tensor(x, requires_grad=True)
        ye = seed_cell(xe)
        ye.backward(sg.tensor(v))
        y, g = cell(x, v)
        np.testing.assert_array_equal(y, ye.detach().numpy())
        np.testing.assert_array_equal(g, xe.grad.numpy())


def test_every_path_of_a_three_way_branch_and_its_gradient():
    def f(x):
        s = x.sum()
        if s > 1.0:
            return (x * x).sum()
        elif s > -1.0:
            return sg.sin(x).sum()
        return sg.exp(x).sum()
    g = sg.value_and_grad(f)
    for shift in (3.0, 0.0, -3.0, 0.1, 2.5, -2.0):
        x = RNG.normal(size=2) * 0.2 + shift / 2
        xe = sg.tensor(x, requires_grad=True)
        ve = f(xe)
        ve.backward()
        value, grad = g(x)
        assert value == pytest.approx(ve.item(), rel=1e-14)
        np.testing.assert_allclose(grad, xe.grad.numpy(), rtol=1e-14)
    assert len(_paths(g)) == 3


def test_a_guard_on_an_integer_item():
    @sg.compile
    def f(x, k):
        n = k.sum().item()
        if n > 2:
            return x * n          # n stays a value of the graph
        return x - n
    x = np.ones(3)
    for k, want in (([1, 2], x * 3), ([0, 1], x - 1), ([4, 5], x * 9), ([1, 0], x - 1)):
        np.testing.assert_array_equal(f(x, np.array(k)), want)
    assert len(_paths(f)) == 2


def test_item_used_as_a_value_is_a_graph_value_not_a_constant():
    f = sg.compile(lambda x, t: x * t[0].item() + t.max().item() ** 2)
    x = np.arange(3.0)
    for t in ([1.0, 2.0], [3.0, -1.0], [0.5, 0.25]):
        np.testing.assert_allclose(f(x, np.array(t)), x * t[0] + max(t) ** 2)
    assert len(f.specializations) == 1 and not isinstance(_paths(f)[0], Paths)
    assert not _paths(f)[0].outcomes                 # no guard: one path for every value


def test_float_in_a_comparison_specializes_on_the_value():
    @sg.compile
    def f(x):
        return x * 2 if float(x.sum()) > 0 else x * 3
    np.testing.assert_array_equal(f(np.ones(2)), [2.0, 2.0])
    np.testing.assert_array_equal(f(-np.ones(2)), [-3.0, -3.0])
    np.testing.assert_array_equal(f(np.ones(2)), [2.0, 2.0])


def test_a_float_guard_holds_through_the_rounding_of_the_compiled_sum():
    """The trace sums in NumPy, the C in SIMD lanes: for this matrix the two sums differ in
    the last bit, and an exact guard failed on the arguments it was traced for (every call
    traced the path again). Within rounding it holds: one path, no limit reached."""
    a = np.abs(np.random.default_rng(11).normal(size=(3, 3)))
    for x in (a, -a):
        f = sg.compile(lambda x: (x * x).exp().sum() if float(x.sum()) > 0 else
                       (x @ x.T).sum(), max_paths=1, on_guard_limit="raise")
        want = np.exp(x * x).sum() if x.sum() > 0 else (x @ x.T).sum()
        for _ in range(3):
            np.testing.assert_allclose(f(x), want, rtol=1e-13)
        assert len(_paths(f)) == 1
    # a value beyond rounding is another value: float32 and float64, and NaN and inf exactly
    g = sg.compile(lambda x: x * float(x.sum()))
    for dt in (np.float64, np.float32):
        for v in (1.0, 1.0 + 1e-3, float("inf"), float("nan"), 1.0):
            x = np.array([v, 0.0], dt)
            with np.errstate(invalid="ignore"):     # inf * 0
                np.testing.assert_array_equal(g(x), x * x.sum())


def test_the_path_limit_warns_and_runs_eagerly_or_raises():
    def f(x):
        y, n = x, 0
        while y.sum() < 100:
            y, n = y * 2, n + 1
        return y
    g = sg.compile(f, max_paths=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for s in (50.0, 30.0, 10.0, 1.0, 0.1):
            np.testing.assert_array_equal(g(np.full(2, s)), f(sg.tensor(np.full(2, s))).numpy())
    assert len(_paths(g)) == 2
    assert any("more than 2 paths" in str(w.message) and "y.sum() < 100" in str(w.message)
               for w in caught)
    h = sg.compile(f, max_paths=1, on_guard_limit="raise")
    h(np.full(2, 60.0))
    with pytest.raises(GuardLimitError, match="more than 1 paths"):
        h(np.full(2, 1.0))


def test_guards_false_restores_the_error():
    f = sg.compile(seed_cell, guards=False)
    with pytest.raises(sg.TracerValueError, match="while y.data.norm"):
        f(np.ones(3))


def test_the_debug_log_names_the_guard_that_failed(caplog):
    f = sg.compile(seed_cell)
    f(np.ones(3))
    with caplog.at_level(logging.DEBUG, logger="symgrad"):
        f(np.full(3, 100.0))
    assert any("went the other way" in r.getMessage() and "while y.data.norm() < 1000" in
               r.getMessage() for r in caplog.records)


def test_threads_taking_different_paths_at_once():
    f = sg.compile(seed_cell, max_paths=16)
    scales = [0.5, 2.0, 8.0, 30.0, 120.0, 0.05, 4.0, 16.0]
    results, errors = {}, []

    def run(k):
        try:
            x = np.full(3, scales[k])
            for _ in range(20):
                results[k] = f(x)
        except Exception as e:   # noqa: BLE001  (reported below)
            errors.append(e)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k, s in enumerate(scales):
        np.testing.assert_array_equal(results[k], seed_cell(sg.tensor(np.full(3, s))).numpy())
    assert len(_paths(f)) == len({_trips(np.full(3, s)) for s in scales})


def test_pickling_a_function_with_several_paths():
    f = sg.compile(seed_cell)
    for s in (1.0, 10.0, 100.0):
        f(np.full(3, s))
    g = pickle.loads(pickle.dumps(f))
    assert len(_paths(g)) == 3
    for s in (1.0, 10.0, 100.0, 3.0):
        np.testing.assert_array_equal(g(np.full(3, s)), seed_cell(sg.tensor(np.full(3, s))))


def test_compiling_a_transform_sets_its_path_options():
    def f(x):
        y = x
        while y.sum() < 100:
            y = y * 2
        return y.sum()
    g = sg.compile(sg.value_and_grad(f), max_paths=1, on_guard_limit="raise")
    value, grad = g(np.full(2, 60.0))
    assert value == 120.0
    np.testing.assert_array_equal(grad, [1.0, 1.0])
    with pytest.raises(GuardLimitError):
        g(np.full(2, 1.0))
