"""A dict that a compiled function reads at constant keys and also reaches some other way: a
change to any of its items is seen at the next call (compiled again), never a stale result.

Session 34 followed such dicts at their constant keys only (from the bytecode); a helper
found these ways to reach the other items that the bytecode does not show, each of which
returned the old value, and the change was reverted. They stay here so that a narrower walk
of dicts cannot come back without answering them. Expected values: the plain Python function.
"""

import importlib
import inspect

import numpy as np

import symgrad as sg

X = np.arange(3.0)


def _changes_are_seen(f, change):
    compiled = sg.compile(f)
    np.testing.assert_array_equal(compiled(X), f(X))
    before = f(X)
    change()
    after = f(X)
    assert not np.array_equal(before, after)        # (the change matters to the result)
    np.testing.assert_array_equal(compiled(X), after)


def test_a_key_chosen_at_run_time_before_in_in_a_closure():
    d, name = {"b": 1}, "a"

    def f(x):
        return x * (2.0 if (name or "b") in d else 3.0)
    _changes_are_seen(f, lambda: d.update(a=1))


CONDITIONAL = {"b": 1.0}
FLAG = True


def test_a_conditional_key_tested_with_in_on_a_global():
    def f(x):
        return x * (2.0 if ("a" if FLAG else "b") in CONDITIONAL else 3.0)
    _changes_are_seen(f, lambda: CONDITIONAL.update(a=0.0))


NAMED = {"a": 1.0, "b": 2.0}


def _namespace():
    return globals()


def test_a_global_named_only_as_a_string():
    def f(x):
        return x * sum(_namespace()["NAMED"].values())
    _changes_are_seen(f, lambda: NAMED.update(b=10.0))


def _peek(fn):
    return inspect.getclosurevars(fn).nonlocals["data"]


def test_a_helper_reading_the_closure_by_introspection():
    data = {"a": 1.0, "b": 2.0}

    def f(x):
        return x * data["a"] + _peek(f)["b"]
    _changes_are_seen(f, lambda: data.update(b=7.0))


THROUGH_MODULE = {"a": 1.0, "b": 2.0}


def test_the_module_reached_as_an_object():
    def f(x):
        return x * THROUGH_MODULE["a"] + sum(importlib.import_module(__name__)
                                             .THROUGH_MODULE.values())
    _changes_are_seen(f, lambda: THROUGH_MODULE.update(b=7.0))


THROUGH_GLOBALS = {"a": 1.0, "b": 2.0}


def test_globals_reached_through_a_string_attribute():
    def f(x):
        namespace = getattr(f, "__globals__")  # noqa: B009  (the name as a string: the point)
        return x * THROUGH_GLOBALS["a"] + namespace["THROUGH_GLOBALS"]["b"]
    _changes_are_seen(f, lambda: THROUGH_GLOBALS.update(b=7.0))


NS = globals
THROUGH_ALIAS = {"a": 1.0, "b": 2.0}


def test_an_alias_of_globals():
    def f(x):
        return x * THROUGH_ALIAS["a"] + NS()["THROUGH_ALIAS"]["b"]
    _changes_are_seen(f, lambda: THROUGH_ALIAS.update(b=7.0))
