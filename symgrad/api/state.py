"""Reuse without staleness: the captured state a compiled function's code was made for, and
the check, before each call, that it still holds.

Layer: api. Input: a ``fingerprint.Walk`` of a ``CompiledFunction``. Output: a ``State``: the
key of this state in memory (``memory_key``) and on disk (``digest``, None when something
cannot be fingerprinted), the arrays and tensors it reaches (which a trace captures as
inputs), and ``holds()``, one generated function that checks every guard of the walk.

The principle, for every shortcut that skips tracing (this check, the warm-start key, a bound
shape-generic module, a guarded path): a key either captures everything the result depends
on, or there is no key and symgrad traces. Whatever a fresh process would compute is what a
long-running one computes: both derive the code from the same walk of the same state, and the
in-memory key is the on-disk key (plus, for objects that cannot be fingerprinted, their
identity: such a state has no on-disk key, and a new process traces).

``holds()`` costs about 35-45 ns per guard: one dict lookup or attribute read and an
identity test, one generated expression for all of them. A binding rebound to an equal value
(``SCALE = 2.0`` run again), or an array or tensor rebound to another of the same shape and
dtype, fails the identity test; ``refreshed`` then makes the same state with the new
identities, without walking (``api.reuse`` rebinds the compiled code to the new objects).
Anything else that fails is walked again: the same digest keeps the compiled code, another
one compiles for it.
"""

from __future__ import annotations

import copy
import keyword
import operator
from dataclasses import replace

import numpy as np

from .. import config
from ..frontend.core.tensor import Tensor
from ..runtime.captured import Captured, snapshot
from ..runtime.specialization import NOTHING
from .fingerprint import Guard, Walk

# The test of each guard kind (``fingerprint.Guard``) on ``h`` the holder, ``k`` the key and
# ``e`` the expected object or snapshot: one generated expression tests them all (``_check``),
# ``_ONE`` one at a time.
_TESTS = {
    "item": "{h}[{k}] is {e}",
    "cell": "{h}.cell_contents is {e}",
    "attr": "getattr({h}, {k}) is {e}",
    "type": "type({h}) is {e}",
    "list": "same_list({h}, {e})",
    "dict": "same_dict({h}, {e})",
    "set": "tuple({h}) == {e}",
    "readonly": "not {h}.flags.writeable",
    "version": "{h}[0] == {e}",
    "keys": "{h}.keys() == {e}",
    "absent": "{k} not in {h}",
    "bytes": "bytes({h}) == {e}",
    "objects": "{h}.shape == {e}[0] and same_list({h}.ravel(), {e}[1])",
}


def _never() -> bool:
    return False


def same_list(items: list, snapshot: tuple) -> bool:
    """Whether a list holds the same objects as when walked."""
    return len(items) == len(snapshot) and all(map(operator.is_, items, snapshot))


def same_dict(d: dict, snapshot: dict) -> bool:
    """Whether a dict maps the same keys, in the same order, to the same objects as when
    walked (code that iterates it sees its order)."""
    return len(d) == len(snapshot) and tuple(d) == tuple(snapshot) and \
        all(d[k] is v for k, v in snapshot.items())


def _holds(g) -> bool:
    """Whether one guard holds (an exception, such as a deleted global's KeyError, counts as
    a failure)."""
    try:
        return _ONE[g.kind](g.holder, g.key, g.expected)
    except Exception:   # noqa: BLE001
        return False


_BINDINGS = ("item", "cell", "attr")


def _bound_value(g):
    """The object a binding guard's holder now binds."""
    if g.kind == "item":
        return g.holder[g.key]
    if g.kind == "cell":
        return g.holder.cell_contents
    return getattr(g.holder, g.key)


class State:
    """A compiled function's captured state at one moment (see the module docstring)."""

    __slots__ = ("walk", "digest", "memory_key", "reachable", "opaque", "holds")

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.digest = None if walk.opaque else walk.digest
        self.reachable = walk.reachable
        self.opaque = tuple(walk.opaque)
        if walk.complete:
            self.memory_key = (walk.digest, tuple(walk.opaque_ids))
            self.holds = _check(walk.guards)
        else:       # no check covers what the function reads: nothing is reused
            self.memory_key = object()
            self.holds = _never

    def failed(self) -> str | None:
        """What no longer holds (the first failing guard's description), or None."""
        if not self.walk.complete:
            return self.opaque[-1]     # (why the walk stopped)
        return next((g.what for g in self.walk.guards if not _holds(g)), None)

    def refreshed(self) -> State | None:
        """This state again, if every guard that fails binds a value that fingerprints as
        the old one did and has no state of its own: a number or string rebound to an equal
        one, an array or tensor rebound to another of the same shape and dtype (an input:
        the compiled code reads the new one). None: walk again."""
        walk = self.walk
        if not walk.complete:
            return None
        guards, reachable, changed = list(walk.guards), dict(walk.reachable), False
        for i, g in enumerate(guards):
            if _holds(g):
                continue
            if g.kind not in _BINDINGS:
                return None
            try:
                new = _bound_value(g)
            except Exception:   # noqa: BLE001
                return None
            if not same_leaf(g.expected, new):
                return None
            guards[i] = Guard(g.kind, g.holder, g.key, new, g.what)
            found = reachable.pop(id(g.expected), None)
            if found is not None:
                reachable[id(new)] = (new, found[1])
            changed = True
        if not changed:
            return None
        fresh = copy.copy(walk)
        fresh.guards, fresh.reachable = guards, reachable
        fresh.keep = walk.keep + [g.expected for g in guards]   # (their ids stay theirs)
        return State(fresh)


def _check(guards: list):
    """One function testing every guard: True while all hold (an exception, such as a
    deleted global's KeyError, counts as a failure). The objects are its parameters'
    defaults (fast locals), string keys and attribute names are written in its code."""
    env = {"same_list": same_list, "same_dict": same_dict}
    terms, params = [], []
    for i, g in enumerate(guards):
        key = repr(g.key) if type(g.key) is str else f"k{i}"
        test = f"{{h}}.{g.key} is {{e}}" if g.kind == "attr" and _plain_name(g.key) \
            else _TESTS[g.kind]
        terms.append("(" + test.format(h=f"h{i}", k=key, e=f"e{i}") + ")")
        params += [f"h{i}=h{i}", f"e{i}=e{i}"] + ([] if type(g.key) is str else [f"k{i}=k{i}"])
        env[f"h{i}"], env[f"k{i}"], env[f"e{i}"] = g.holder, g.key, g.expected
    body = " and\n            ".join(terms) or "True"
    source = (f"def holds({', '.join(params)}):\n    try:\n        return ({body})\n"
              f"    except Exception:\n        return False\n")
    exec(source, env)   # noqa: S102  (built from the guard kinds' fixed templates)
    return env["holds"]


def _plain_name(key) -> bool:
    """Whether ``key`` can be written as ``h.key`` in the generated check (else ``getattr``)."""
    return type(key) is str and key.isidentifier() and not keyword.iskeyword(key)


def same_leaf(old, new) -> bool:
    """Whether ``new`` stands where ``old`` stood with the same fingerprint and nothing of its
    own to guard: equal numbers and strings (by repr: 0.0 and -0.0 differ), tuples of them,
    arrays and tensors of the same shape and dtype (inputs of the compiled code)."""
    kind = type(old)
    if kind is not type(new):
        return False
    if kind in (bool, int, float, complex, str, bytes, type(None)):
        return repr(old) == repr(new)
    if kind is tuple:      # (of numbers and strings only: an array in it has a path of its own)
        return len(old) == len(new) and all(
            type(o) not in (np.ndarray, tuple) and not isinstance(o, Tensor) and
            same_leaf(o, n) for o, n in zip(old, new))
    if kind is np.ndarray:
        return old.shape == new.shape and old.dtype == new.dtype and \
            old.flags.writeable and new.flags.writeable and not old.dtype.hasobject
    if isinstance(old, Tensor):
        return old.concrete is not None and new.concrete is not None and \
            tuple(old.shape) == tuple(new.shape) and old.dtype is new.dtype
    return False


def rebound(captured: Captured, captures: tuple, before: State, after: State):
    """A specialization's ``captured`` for state ``after`` (which fingerprints as ``before``
    does): its captured objects found again by their paths (``captures``: the artifact's
    (kind, path, name)); None when one has no path, or when what the trace read concretely
    is no longer the object it read."""
    if not captured:
        return captured
    by_path = {path: obj for obj, path in after.reachable.values()}
    old_paths = {id(obj): path for obj, path in before.reachable.values()}
    try:
        objects = tuple(by_path[path] for _, path, _ in captures)
        same = all(by_path[old_paths[id(t)]] is t for t, *_ in captured.reads) and \
            all(by_path[old_paths[id(a)]] is a for a, _ in captured.arrays)
    except KeyError:
        return None
    if not same:
        return None
    unchanged = all(map(operator.is_, objects, captured.objects))
    return captured if unchanged else replace(captured, objects=objects)


_ONE = {kind: eval(f"lambda h, k, e: {test.format(h='h', k='k', e='e')}",  # noqa: S307
                   {"same_list": same_list, "same_dict": same_dict})
        for kind, test in _TESTS.items()}


def captured_of(traced, state: State | None, name: str = "") -> Captured:
    """What the specialization compiled from ``traced`` reads besides its arguments (its
    captured objects, in input order) and what its reuse must check: the tensors the trace
    read as numbers, the environment and files it read, and the arrays ``state`` reaches that
    the trace did not capture (so that the code may have baked their values: NumPy code on
    them, say), by their bytes."""
    table = traced.captures
    if table is None:
        return NOTHING
    objects = tuple(e.obj for e in table.entries)
    if objects or table.volatile:
        config.debug(1, "%s: captured %s (read at each call)%s", name,
                     ", ".join(e.node.attr("name") for e in table.entries) or "nothing",
                     f"; not stored for other processes: {table.volatile[0]}"
                     if table.volatile else "")
    reads, world = table.checks()
    baked = list(table.baked.values())          # (read concretely while tracing)
    if state is not None:
        shared = {id(a) for a in _memory_of(objects)} | {id(a) for a in baked}
        baked += [a for a, _ in _arrays(state.reachable) if id(a) not in shared]
    arrays = tuple((a, snapshot(a)) for a in baked)
    return Captured(objects, reads, arrays, world, tuple(table.volatile))


def _arrays(reachable: dict) -> list:
    """The (array, path) pairs of the writeable arrays in a walk's ``reachable``."""
    return [(obj, path) for obj, path in reachable.values() if isinstance(obj, np.ndarray)]


def _memory_of(objects: tuple):
    """The arrays whose memory captured ``objects`` show (an array, its bases)."""
    for obj in objects:
        a = obj.concrete if isinstance(obj, Tensor) else obj
        while isinstance(a, np.ndarray):
            yield a
            a = a.base
