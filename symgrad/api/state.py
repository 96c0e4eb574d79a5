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

``holds()`` costs about 30 ns per guard: one dict lookup or attribute read and an identity
test, one generated expression for all of them. A binding rebound to an equal value (``SCALE
= 2.0`` run again) fails the identity test; the caller then walks again, finds the same
digest, and keeps the compiled code (with the new identities).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import config
from ..frontend.tensor import Tensor
from ..runtime.captured import Captured, snapshot
from ..runtime.specialization import NOTHING
from .fingerprint import Walk

# The comparisons of each guard kind (``fingerprint.Guard``): ``h`` the holder, ``k`` the key,
# ``e`` the expected object or snapshot.
_TESTS = {
    "item": "h{i}[k{i}] is e{i}",
    "cell": "h{i}.cell_contents is e{i}",
    "attr": "h{i}.{key} is e{i}",
    "type": "type(h{i}) is e{i}",
    "list": "same_list(h{i}, e{i})",
    "dict": "same_dict(h{i}, e{i})",
    "set": "h{i} == e{i}",
    "readonly": "not h{i}.flags.writeable",
    "version": "h{i}[0] == e{i}",
}


def _never() -> bool:
    return False


def same_list(items: list, snapshot: tuple) -> bool:
    """Whether a list holds the same objects as when walked."""
    return len(items) == len(snapshot) and all(map(operator.is_, items, snapshot))


def same_dict(d: dict, snapshot: dict) -> bool:
    """Whether a dict maps the same keys to the same objects as when walked."""
    return len(d) == len(snapshot) and all(d.get(k, d) is v for k, v in snapshot.items())


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
        for g in self.walk.guards:
            if not _check([g])():
                return g.what
        return None


def _check(guards: list):
    """One function testing every guard: True while all hold (an exception, such as a
    deleted global's KeyError, counts as a failure)."""
    env = {"same_list": same_list, "same_dict": same_dict}
    terms = []
    for i, g in enumerate(guards):
        terms.append("(" + _TESTS[g.kind].format(i=i, key=g.key) + ")")
        env[f"h{i}"], env[f"k{i}"], env[f"e{i}"] = g.holder, g.key, g.expected
    body = " and\n            ".join(terms) or "True"
    source = (f"def holds():\n    try:\n        return ({body})\n"
              f"    except Exception:\n        return False\n")
    exec(source, env)   # noqa: S102  (built from the guard kinds' fixed templates)
    return env["holds"]


def captured_of(traced, state: "State | None", name: str = "") -> Captured:
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
    reads, env, files = table.checks()
    baked = list(table.baked.values())          # (read concretely while tracing)
    if state is not None:
        shared = {id(a) for a in _memory_of(objects)} | {id(a) for a in baked}
        baked += [a for a, _ in _arrays(state.reachable) if id(a) not in shared]
    arrays = tuple((a, snapshot(a)) for a in baked)
    return Captured(objects, reads, arrays, env, files, tuple(table.volatile))


def _arrays(reachable: dict) -> list:
    """The (array, path) pairs of the writeable arrays in a walk's ``reachable``."""
    return [(obj, path) for obj, path in reachable.values() if isinstance(obj, np.ndarray)]


def _memory_of(objects: tuple):
    """The arrays whose memory captured ``objects`` show (an array, its bases)."""
    for obj in objects:
        a = obj._value if isinstance(obj, Tensor) else obj
        while isinstance(a, np.ndarray):
            yield a
            a = a.base
