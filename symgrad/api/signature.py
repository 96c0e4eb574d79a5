"""Call signatures: what decides which specialization a call runs, and why a new one is made.

Layer: api. Input: a call's arguments. Output: their flat leaves and structure, the key of the
signature, and the one-line reason a call compiled anew (``SYMGRAD_DEBUG=1``). Also Python's
own errors for a call the function cannot take.
"""

from __future__ import annotations

import inspect as _inspect
from typing import Callable

import numpy as np

from ..pytree import flatten


def fast_key(args: tuple) -> tuple:
    """The fast-path signature of positional arguments: (shape, dtype) of each ndarray, the
    type of anything else."""
    return tuple([(a.shape, a.dtype) if type(a) is np.ndarray else type(a) for a in args])


def flatten_args(args, kwargs: dict, names: Callable[[], list], paths: list | None = None):
    """``flatten((args, kwargs))``; if a dict's keys cannot be sorted, the error names the
    argument holding it (``names()`` gives the positional ones' names), not its path."""
    try:
        return flatten((tuple(args), kwargs), "", paths)
    except TypeError:
        for n, a in [*zip(names(), args), *kwargs.items()]:
            flatten(a, n)
        raise


def check_binds(fn: Callable, args: tuple, kwargs: dict, name: str) -> None:
    """Raise the TypeError Python would for calling ``fn`` with these arguments (too many or
    too few, an unknown keyword), if they do not fit its parameters."""
    try:
        sig = _inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{name}: {e}") from None


def has_keyword_parameter(fn: Callable, name: str) -> bool:
    """Whether ``fn`` (or what it wraps) declares a parameter ``name`` passable by keyword."""
    try:
        param = _inspect.signature(fn).parameters.get(name)
    except (TypeError, ValueError):
        return False
    return param is not None and param.kind in (param.POSITIONAL_OR_KEYWORD,
                                                 param.KEYWORD_ONLY)


def why(last, key, names) -> str:
    if last is None:
        return "first call"
    (t0, s0, a0), (t1, s1, a1) = last, key
    if t0 != t1:
        return f"argument structure {t0.describe()} -> {t1.describe()}"
    if s0 != s1:
        return f"static arguments {s0!r} -> {s1!r}"
    for name, x, y in zip(names, a0, a1):
        if x != y:
            what = "shape" if x[0] != y[0] else "dtype" if x[1] != y[1] else "kind"
            fmt = {"shape": lambda s: s[0], "dtype": lambda s: s[1].name,
                   "kind": lambda s: s[2]}[what]
            return f"arg {name} {what} {fmt(x)} -> {fmt(y)}"
    return "new signature"


def describe_key(key) -> str:
    _, statics, leaves = key
    args = ", ".join(f"{dt.name}{list(shape)}" for shape, dt, _ in leaves)
    return f"({args})" + (f" static {statics!r}" if statics else "")
