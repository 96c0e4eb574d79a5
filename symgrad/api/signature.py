"""Call signatures: what decides which specialization a call runs, and why a new one is made.

Layer: api. Input: a call's arguments. Output: their flat leaves and structure, the key of the
signature, and the one-line reason a call compiled anew (``SYMGRAD_DEBUG=1``). Also Python's
own errors for a call the function cannot take.
"""

from __future__ import annotations

import inspect as _inspect
from collections.abc import Callable

import numpy as np

from ..pytree import flatten, unflatten


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


def static_parameters(fn: Callable, argnums: tuple, argnames: tuple) -> tuple:
    """The static parameters as (positions, keywords): ``static_argnums`` and
    ``static_argnames``, each completed through ``fn``'s signature (JAX's rule: a static
    argument may be passed by position or by keyword)."""
    params = _positional_parameters(fn)
    positions = set(argnums)
    keywords = set(argnames)
    for i in argnums:
        if 0 <= i < len(params):
            keywords.add(params[i])
    positions |= {params.index(n) for n in argnames if n in params}
    return tuple(sorted(positions)), frozenset(keywords)


def _positional_parameters(fn: Callable) -> list[str]:
    """The names of ``fn``'s leading parameters that can be passed by position or keyword."""
    try:
        params = _inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    found = []
    for p in params:
        if p.kind is not p.POSITIONAL_OR_KEYWORD:
            break
        found.append(p.name)
    return found


def rebuilder(key) -> Callable:
    """``rebuild(leaves) -> (args, kwargs)`` of signature ``key``: the dynamic leaves put
    back in their structure, the static arguments the key holds in their places."""
    tree, statics, _ = key
    positional = {i: v for i, v in statics if isinstance(i, int)}
    keywords = {k: v for k, v in statics if isinstance(k, str)}

    def rebuild(leaves):
        d_args, d_kwargs = unflatten(tree, leaves)
        it = iter(d_args)
        args = [positional[i] if i in positional else next(it)
                for i in range(len(d_args) + len(positional))]
        return args, {**keywords, **d_kwargs}
    return rebuild
