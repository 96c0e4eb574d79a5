"""A plain dict that a compiled function's code reads only at constant keys (``d["w"]``,
``"w" in d``: ``api.codeinfo.keys_read``) is walked at those keys only
(``api.fingerprint.Walk._read_at``): its other items change without a new trace and are not
compared at each call, the items read are checked as before, and any other use of the dict
walks it whole. Results against NumPy formulas; traces counted."""

import inspect

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(11)


@pytest.fixture
def traces(monkeypatch):
    """The number of traces since the test started."""
    from symgrad import pipeline
    count = [0]
    real = pipeline.trace

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(pipeline, "trace", counting)
    return count


def _model(data):
    def f(x, w):
        # NumPy reads data["scale"] while tracing: its value is baked into the code
        return sg.tanh(x @ w) * float(data["scale"][0]) + ("bias" in data)
    return f


def _want(data, x, w):
    return np.tanh(x @ w) * data["scale"][0] + ("bias" in data)


def test_items_the_code_never_reads_change_without_a_trace(traces):
    data = {"scale": np.array([2.0]), "w": RNG.normal(size=(3, 4)),
            "points": RNG.normal(size=(500, 3))}
    g = sg.compile(_model(data))
    x = RNG.normal(size=(6, 3))
    np.testing.assert_allclose(g(x, data["w"]), _want(data, x, data["w"]), rtol=1e-13)
    for step in range(3):             # the data passed as arguments changes in place
        data["w"] += 0.5
        data["points"][:] = step
        np.testing.assert_allclose(g(x, data["w"]), _want(data, x, data["w"]), rtol=1e-13)
    assert traces[0] == 1
    specialization = g.last_specialization
    compared = [a for a, _ in specialization.captured.arrays]
    assert [a is data["scale"] for a in compared] == [True]


def test_the_items_read_are_still_checked(traces):
    data = {"scale": np.array([2.0]), "w": RNG.normal(size=(3, 4))}
    g = sg.compile(_model(data))
    x = RNG.normal(size=(6, 3))
    g(x, data["w"])
    data["scale"][0] = 3.0                            # changed in place: traced again
    np.testing.assert_allclose(g(x, data["w"]), _want(data, x, data["w"]), rtol=1e-13)
    data["scale"] = np.array([-1.5])                  # rebound
    np.testing.assert_allclose(g(x, data["w"]), _want(data, x, data["w"]), rtol=1e-13)
    data["bias"] = None                               # a key tested with ``in`` appears
    np.testing.assert_allclose(g(x, data["w"]), _want(data, x, data["w"]), rtol=1e-13)
    del data["bias"]                                  # the third state again: its code
    np.testing.assert_allclose(g(x, data["w"]), _want(data, x, data["w"]), rtol=1e-13)
    assert traces[0] == 4


GLOBAL_DATA = {"k": np.array([3.0]), "unread": np.zeros(10)}


def _reads_a_global(x):
    return x * float(GLOBAL_DATA["k"][0])


def test_a_global_dict_read_at_constant_keys(traces):
    g = sg.compile(_reads_a_global)
    x = np.arange(4.0)
    np.testing.assert_array_equal(g(x), x * 3.0)
    GLOBAL_DATA["unread"][:] = 7.0
    np.testing.assert_array_equal(g(x), x * 3.0)
    assert traces[0] == 1
    GLOBAL_DATA["k"][0] = 5.0
    np.testing.assert_array_equal(g(x), x * 5.0)
    assert traces[0] == 2
    GLOBAL_DATA["k"][0] = 3.0


def _globals_read(x):
    return x * float(globals()["GLOBAL_DATA"]["k"][0])


def test_a_global_dict_reached_through_globals(traces):
    g = sg.compile(_globals_read)
    x = np.arange(4.0)
    np.testing.assert_array_equal(g(x), x * 3.0)
    GLOBAL_DATA["unread"][:] = 1.0        # walked whole: its every item checked
    np.testing.assert_array_equal(g(x), x * 3.0)
    assert traces[0] == 2
    GLOBAL_DATA["unread"][:] = 0.0


def _other_uses():
    """Functions that use their dict otherwise than at constant keys: each bakes the sum of
    an item chosen at run time, so every item must be checked."""
    d = {"a": np.array([1.0]), "b": np.array([2.0])}
    name = "b"

    def variable_key(x):
        return x * float(d[name][0])

    def method(x):
        return x * float(d.get("b")[0])

    def iterated(x):
        return x * float(sum(v[0] for v in d.values()) - d["a"][0])

    def passed_on(x):
        return x * float(_second(d)[0])

    def introspected(x):
        return x * float(d["a"][0] + (inspect.getclosurevars(variable_key).nonlocals["d"]
                                      ["b"][0] - 1))
    return d, [variable_key, method, iterated, passed_on, introspected]


def _second(d):
    return d["b"]


@pytest.mark.parametrize("k", range(5))
def test_any_other_use_walks_the_dict_whole(k):
    d, fns = _other_uses()
    g = sg.compile(fns[k])
    x = np.arange(3.0)
    np.testing.assert_array_equal(g(x), x * 2.0)
    d["b"][0] = 4.0
    np.testing.assert_array_equal(g(x), x * 4.0)


def test_the_same_dict_read_whole_elsewhere_is_walked_whole():
    """One function reads ``d["a"]`` only; a helper it calls iterates ``d``: the helper's
    walk covers every item."""
    d = {"a": np.array([1.0]), "b": np.array([2.0])}

    def total():
        return sum(float(v[0]) for v in d.values())

    def f(x):
        return x * float(d["a"][0]) + total()
    g = sg.compile(f)
    x = np.arange(3.0)
    np.testing.assert_array_equal(g(x), x + 3.0)
    d["b"][0] = 10.0
    np.testing.assert_array_equal(g(x), x + 11.0)


def test_keys_read_finds_the_constant_keys():
    from symgrad.api.codeinfo import keys_read
    d, fns = _other_uses()
    assert all(keys_read(f.__code__, "d", "cell") is None for f in fns)
    assert keys_read(_globals_read.__code__, "GLOBAL_DATA", "global") is None
    f = _model({})
    assert keys_read(f.__code__, "data", "cell") == {"scale", "bias"}
    assert keys_read(_reads_a_global.__code__, "GLOBAL_DATA", "global") == {"k"}
