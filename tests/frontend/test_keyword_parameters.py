"""``keywords.parameters`` reads a plain function's parameters from its code object (fast, at
import); it must agree with ``inspect.signature`` (the oracle) on every function symgrad wraps
and on every kind of parameter."""

from __future__ import annotations

import functools
import inspect
import sys

import pytest

import symgrad  # noqa: F401  (loads every front-end module)
from symgrad.frontend.functions import keywords

KINDS = inspect.Parameter


def oracle(fn):
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    return ({p.name for p in params},
            [p.name for p in params if p.kind in (KINDS.POSITIONAL_ONLY,
                                                  KINDS.POSITIONAL_OR_KEYWORD)],
            next((p.name for p in params if p.kind is KINDS.VAR_POSITIONAL), None),
            any(p.kind is KINDS.VAR_KEYWORD for p in params))


def front_end_functions():
    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("symgrad.") and module is not None:
            for value in vars(module).values():
                for fn in (value, getattr(value, "__wrapped__", None)):
                    if inspect.isfunction(fn):
                        found[id(fn)] = fn
    from symgrad.frontend.core.tensor import Tensor
    for value in vars(Tensor).values():
        if inspect.isfunction(value):
            found[id(value)] = value
    return list(found.values())


def test_agrees_with_inspect_on_every_front_end_function():
    functions = front_end_functions()
    assert len(functions) > 1000
    wrong = [f"{fn.__module__}.{fn.__qualname__}" for fn in functions
             if keywords.parameters(fn) != oracle(fn)]
    assert not wrong, wrong[:20]


def _closure(a, b=1):
    def inner():
        return a + b        # a and b are cell variables: still the first co_varnames
    return inner


def _everything(a, b, /, c, d=2, *rest, e, f=3, **extra):
    g = a
    return g


def _no_varargs(a, *, b, **kw):
    local = 1
    return local


def _only_kw(*, size):
    return size


@functools.wraps(_no_varargs)
def _wrapped(*args, **kwargs):
    return _no_varargs(*args, **kwargs)


def _signed(*args):
    return args


_signed.__signature__ = inspect.Signature([KINDS("x", KINDS.POSITIONAL_OR_KEYWORD)])


class _Callable:
    def __call__(self, x, *sizes):
        return x


@pytest.mark.parametrize("fn", [_closure, _everything, _no_varargs, _only_kw, _wrapped,
                                _signed, _Callable(), functools.partial(_everything, 1),
                                lambda *size: size, lambda: 0, len, print])
def test_agrees_with_inspect_on_every_kind_of_parameter(fn):
    assert keywords.parameters(fn) == oracle(fn)


def test_what_it_reads():
    assert keywords.parameters(_everything) == (
        {"a", "b", "c", "d", "rest", "e", "f", "extra"}, ["a", "b", "c", "d"], "rest", True)
    assert keywords.parameters(_no_varargs) == ({"a", "b", "kw"}, ["a"], None, True)
    assert keywords.parameters(_wrapped) == keywords.parameters(_no_varargs)
