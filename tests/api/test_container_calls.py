"""Compiled calls whose arguments are containers (dicts, tuples, lists, namedtuples, None) of
arrays and numbers: after the first call of a structure they take the fast path
(``signature.tree_key``: one walk, no signature lookup), and every call gives the numbers
the same function gives in NumPy, whatever changed between calls (a leaf's shape or dtype,
a key, a container's type, the order a dict was filled in). Equal keys or static values of
other types (1, 1.0, True) are other signatures: the function may tell them apart."""

from __future__ import annotations

import collections
import functools
import warnings

import numpy as np
import pytest

import symgrad as sg

Pair = collections.namedtuple("Pair", "w b")


def model(params, x):
    """A two-layer model over a dict of parameters."""
    h = sg.tanh(x @ params["w1"] + params["b1"])
    return ((h @ params["w2"]) ** 2).sum()


def params_of(rng, n=3, dtype=np.float64):
    return {"w1": rng.standard_normal((n, 4)).astype(dtype), "b1": rng.standard_normal(4)
            .astype(dtype), "w2": rng.standard_normal((4, 2)).astype(dtype)}


def reference(params, x):
    h = np.tanh(x @ params["w1"] + params["b1"])
    return ((h @ params["w2"]) ** 2).sum()


@pytest.fixture
def no_lookup(monkeypatch):
    """After it is called, a call that leaves the fast path fails."""
    def arm(f):
        def lookup(*args, **kwargs):
            raise AssertionError("the call left the fast path")
        monkeypatch.setattr(f, "specialize", lookup)
    return arm


def test_a_dict_of_parameters_takes_the_fast_path_with_the_values_of_each_call(no_lookup):
    rng = np.random.default_rng(0)
    f = sg.compile(model)
    p, x = params_of(rng), rng.standard_normal((5, 3))
    assert f(p, x) == pytest.approx(reference(p, x), rel=1e-12)
    no_lookup(f)
    for _ in range(3):    # new values, the same structure: the fast path reads them
        p, x = params_of(rng), rng.standard_normal((5, 3))
        assert f(p, x) == pytest.approx(reference(p, x), rel=1e-12)
    # filled in another order: the same leaves in flatten's (sorted) order
    q = {k: p[k] for k in reversed(list(p))}
    assert f(q, x) == pytest.approx(reference(p, x), rel=1e-12)


def test_gradients_of_a_dict_of_parameters_on_the_fast_path(no_lookup):
    rng = np.random.default_rng(1)
    g = sg.compile(sg.grad(model))
    p, x = params_of(rng), rng.standard_normal((5, 3))
    g(p, x)
    no_lookup(g)
    p = params_of(rng)
    got = g(p, x)
    assert sorted(got) == sorted(p)
    eps = 1e-6
    for k in p:   # central differences in float64, one entry per parameter
        i = (0,) * p[k].ndim
        up = {**p, k: p[k].copy()}
        down = {**p, k: p[k].copy()}
        up[k][i] += eps
        down[k][i] -= eps
        fd = (reference(up, x) - reference(down, x)) / (2 * eps)
        assert got[k][i] == pytest.approx(fd, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("change", ["shape", "dtype", "key", "list", "namedtuple", "scalar"])
def test_a_changed_structure_leaves_the_fast_path_and_is_right(change):
    f = sg.compile(lambda ps, c: sum((v * c).sum() for v in (ps.values() if isinstance(
        ps, dict) else ps)))
    a, b = np.arange(3.0), np.arange(4.0)
    base = {"a": a, "b": b}
    assert f(base, 2.0) == 2 * (a.sum() + b.sum())
    if change == "shape":
        args, want = ({"a": np.arange(5.0), "b": b}, 2.0), 2 * (10 + b.sum())
    elif change == "dtype":
        args, want = ({"a": a.astype(np.float32), "b": b}, 2.0), 2 * (a.sum() + b.sum())
    elif change == "key":
        args, want = ({"a": a, "c": b}, 2.0), 2 * (a.sum() + b.sum())
    elif change == "list":
        args, want = ([a, b], 2.0), 2 * (a.sum() + b.sum())
    elif change == "namedtuple":
        args, want = (Pair(a, b), 2.0), 2 * (a.sum() + b.sum())
    else:
        args, want = (base, 3), 3 * (a.sum() + b.sum())
    assert f(*args) == pytest.approx(want)
    assert f(base, 2.0) == 2 * (a.sum() + b.sum())      # the first signature, still served
    assert f(*args) == pytest.approx(want)


def test_tuples_lists_namedtuples_and_none_on_the_fast_path(no_lookup):
    def fn(pair, extra, nothing, x):
        w, b = pair
        assert nothing is None
        return (x * w + b).sum() + sum(e.sum() for e in extra)
    f = sg.compile(fn)
    x = np.arange(4.0)
    calls = [(Pair(np.ones(4), np.full(4, 2.0)), [np.ones(2)], None, x),
             ((np.ones(4), np.full(4, 2.0)), (np.ones(2),), None, x)]
    for args in calls:
        f(*args)
    no_lookup(f)
    for scale in (1.0, 3.0):
        for pair, extra, nothing, x in calls:
            pair = type(pair)(*(v * scale for v in pair)) if isinstance(pair, Pair) else \
                tuple(v * scale for v in pair)
            want = (x * pair[0] + pair[1]).sum() + sum(e.sum() for e in extra)
            assert f(pair, extra, nothing, x) == pytest.approx(want)


def test_out_with_a_dict_argument(no_lookup):
    f = sg.compile(lambda p, x: (x * p["a"], x + p["b"]))
    x = np.arange(3.0)
    f({"a": np.ones(3), "b": np.ones(3)}, x)
    no_lookup(f)
    outs = (np.empty(3), np.empty(3))
    got = f({"a": np.full(3, 2.0), "b": np.full(3, 5.0)}, x, out=outs)
    assert got is outs
    np.testing.assert_array_equal(outs[0], 2 * x)
    np.testing.assert_array_equal(outs[1], x + 5)


def test_a_tensor_leaf_or_a_dict_subclass_takes_the_full_path():
    f = sg.compile(lambda p: (p["a"] * 2).sum())
    a = np.arange(3.0)
    assert f({"a": a}) == 6.0
    assert f({"a": sg.tensor(a)}) == 6.0
    assert f(collections.OrderedDict(a=a + 1)) == 12.0
    assert f({"a": a + 2}) == 18.0


def test_unsortable_dict_keys_are_named_on_every_call():
    f = sg.compile(lambda p: sum(v.sum() for v in p.values()))
    f({"a": np.ones(2)})
    for _ in range(2):
        with pytest.raises(TypeError, match="must be sortable"):
            f({1: np.ones(2), "a": np.ones(2)})


def test_equal_dict_keys_of_other_types_are_other_signatures():
    f = sg.compile(lambda d: [v * len(str(k)) for k, v in d.items()][0])
    x = np.ones(2)
    for key in (1, True, 1.0, 1, True):    # str(k): "1", "True", "1.0"
        np.testing.assert_array_equal(f({key: x}), x * len(str(key)))


def test_equal_static_values_of_other_types_are_other_signatures():
    f = sg.compile(lambda x, k: x * len(str(k)), static_argnums=1)
    x = np.ones(2)
    for k in (1, True, 1.0, (1, 2), (1.0, 2), 1):
        np.testing.assert_array_equal(f(x, k), x * len(str(k)))
    g = functools.partial(f, x)
    np.testing.assert_array_equal(g(True), x * 4)


@pytest.mark.parametrize("result", [
    {"b": 1, "a": (2, [3, None])}, Pair(1, {"x": 2}), (1,), Pair(w=(1,), b=2),
    {True: 1, 2: 2}, {(1, 2): 3, (0, 5): 4}, [], (), {}, {"w": Pair((), [])},
])
def test_the_generated_unflattener_rebuilds_what_unflatten_does(result):
    from symgrad.pytree import flatten, unflatten, unflattener
    leaves, tree = flatten(result)
    got, want = unflattener(tree)(leaves), unflatten(tree, leaves)
    assert got == want and type(got) is type(want)
    assert repr(got) == repr(want)    # the same types all the way down, dicts in key order


def test_results_in_dicts_and_namedtuples_keep_their_structure():
    """(A namedtuple class the function reads is fingerprinted whole: no warning that its
    field accessors cannot be checked.)"""
    f = sg.compile(lambda p: {"sum": Pair(p["a"].sum(), p["b"] * 2), "tuple_key": (p["a"],)})
    a, b = np.arange(3.0), np.ones(2)
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = f({"a": a, "b": b})
        assert list(got) == ["sum", "tuple_key"] and type(got["sum"]) is Pair
        assert got["sum"].w == 3.0
        np.testing.assert_array_equal(got["sum"].b, 2 * b)
        np.testing.assert_array_equal(got["tuple_key"][0], a)
