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


# Argument types whose signature is their type alone (a NumPy scalar maps to one spec
# whatever its value, like a Python number): calls with them take the fast path.
FAST_SCALARS = frozenset({float, int, bool, np.float64, np.float32, np.int64, np.int32,
                          np.bool_})


_ndarray = np.ndarray


def fast_key(args: tuple) -> tuple:
    """The fast-path signature of positional arguments: (shape, dtype) of each ndarray, the
    type of anything else. (Written out for one and two arguments: the hot path of every
    compiled call; a comprehension costs ~0.1 us more.)"""
    n = len(args)
    if n == 1:
        a, = args
        return ((a.shape, a.dtype) if type(a) is _ndarray else type(a),)
    if n == 2:
        a, b = args
        return ((a.shape, a.dtype) if type(a) is _ndarray else type(a),
                (b.shape, b.dtype) if type(b) is _ndarray else type(b))
    return tuple([(a.shape, a.dtype) if type(a) is _ndarray else type(a) for a in args])


def signature_key(tree, statics: tuple, specs: list) -> tuple:
    """A signature's key (``SignatureCache.specs``): structure, static values (and their
    types: ``static_types``), each leaf's spec."""
    return (tree, statics, tuple((s.shape, s.dtype, s.python) for s in specs))


def fast_path_key(args: tuple) -> tuple | None:
    """The key a call with these positional arguments finds its specialization under on the
    fast path (``fast_key`` or ``tree_key``), or None: not a fast-path call."""
    if all(type(a) is np.ndarray or type(a) in FAST_SCALARS for a in args):
        return fast_key(args)
    found = tree_key(args)
    return None if found is None else found[0]


# Heads the keys of ``tree_key`` (a ``fast_key`` never starts with it).
_TREE = ("tree",)


def tree_key(args: tuple) -> tuple | None:
    """The fast-path signature of positional arguments that hold containers (tuples, lists,
    dicts, namedtuples, None) of ndarrays and ``FAST_SCALARS``, and their leaves in
    ``flatten``'s order (a dict's by sorted key); None for anything else (the full path then
    says what is wrong, if anything).

    One walk, no paths or names: a call with a dict of parameters costs about what the same
    arrays passed flat do (``make bench-overhead``). The key holds all that the full
    signature key (``CompiledFunction.specialize``) does for such arguments: each container's
    type and length, a dict's keys and their types (``{1: x}`` and ``{True: x}`` are equal
    keys of different calls), a namedtuple's class, each leaf's shape and dtype or type, in
    a prefix code (each entry says how many follow it), so different structures never share
    a key."""
    key: list = [_TREE]
    leaves: list = []
    try:
        for a in args:
            if not _walk(a, key, leaves):
                return None
    except TypeError:      # a dict whose keys do not sort
        return None
    return tuple(key), leaves


def _walk(o, key: list, leaves: list) -> bool:
    t = type(o)
    if t is np.ndarray:
        key.append((o.shape, o.dtype))
        leaves.append(o)
    elif t in FAST_SCALARS:
        key.append(t)
        leaves.append(o)
    elif t is dict:
        names = tuple(sorted(o))
        key.append((dict, names, tuple(map(type, names))))
        for k in names:
            if not _walk(o[k], key, leaves):
                return False
    elif t is tuple or t is list or isinstance(o, tuple) and hasattr(o, "_fields"):
        key.append((t, len(o)))
        for v in o:
            if not _walk(v, key, leaves):
                return False
    elif o is None:
        key.append(None)
    else:
        return False
    return True


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
        a, b = _shown(s0), _shown(s1)
        return f"static arguments {a!r} -> {b!r}" if a != b else \
            f"static argument types {_type_names(s0[-1][1])} -> {_type_names(s1[-1][1])}"
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
    return f"({args})" + (f" static {_shown(statics)!r}" if statics else "")


def static_types(statics: tuple) -> tuple:
    """The types of static values ((name or position, value) pairs), through tuples: the
    last entry of a signature key's statics, ``(None, static_types(...))``. Equal values of
    other types (1, 1.0, True) are another signature, as the function may tell them apart
    (``str(k)``); JAX compares static arguments by equality alone."""
    return tuple(_type_tree(v) for _, v in statics)


def _type_tree(v):
    t = type(v)
    return (t, tuple(_type_tree(x) for x in v)) if isinstance(v, tuple) else t


def _type_names(types: tuple) -> str:
    """``static_types``' entry as text: ``(int, tuple[float, bool])``."""
    def name(t) -> str:
        return f"{t[0].__name__}[{', '.join(map(name, t[1]))}]" if isinstance(t, tuple) \
            else t.__name__
    return f"({', '.join(map(name, types))})"


def _shown(statics: tuple) -> tuple:
    """A key's static values without their types' entry (for messages)."""
    return tuple(p for p in statics if p[0] is not None)


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
