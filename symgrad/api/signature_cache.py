"""A compiled function's code for one captured state: every table that serves a call, in one
object with its locks.

Layer: api. ``CompiledFunction`` keeps one ``SignatureCache`` per captured state (``api.reuse``
swaps them whole when the state changes) and ``api.dynamic`` reads and fills the
shape-generic tables through it. What it holds:

- ``specs``: signature key (``CompiledFunction.specialize``) -> ``Specialization``, or
  ``runtime.Paths`` when the trace took decisions on values;
- ``fast``: the fast path's key (the positional arguments' shapes and dtypes, or number types)
  -> ``Specialization``;
- ``generic``: shape-generic pattern (``dynamic.pattern``) -> its ``runtime.Generic`` modules;
  ``not_generic``: patterns that failed to compile shape-generic; ``fixed_dims``: the (leaf,
  axis) dims a generic trace found compared with a constant (``dynamic=True`` leaves them
  static);
- ``bound``: signature key -> a specialization bound from a generic module, oldest first, at
  most ``MAX_BOUND`` (each keeps its own workspace and output pools).

``building(key)`` is the lock one signature's trace and build hold: threads that miss on the
same signature at once wait for one build; different signatures build in parallel. The build
locks are the function's, shared by the caches of all its states (``SignatureCache(like=...)``):
a trace may change the captured state it reads (a list it appends to), and the threads waiting
for it must find its result in the cache of the state they see then.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..runtime import Paths

# Sizes bound at once per compiled function and state, at most: a stream of new sizes would
# otherwise grow memory without end. The oldest binding is dropped (a later call of its size
# binds it again: no compile).
MAX_BOUND = 16


class SignatureCache:
    __slots__ = ("specs", "fast", "generic", "not_generic", "bound", "fixed_dims", "_lock",
                 "_building")

    def __init__(self, like: SignatureCache | None = None) -> None:
        """An empty cache; ``like``: another state's cache of the same function, whose build
        locks this one shares."""
        self.specs: dict = {}
        self.fast: dict = {}
        self.generic: dict = {}
        self.not_generic: set = set()
        self.bound: OrderedDict = OrderedDict()
        self.fixed_dims: set = set()
        self._lock, self._building = (threading.Lock(), {}) if like is None else \
            (like._lock, like._building)

    def __len__(self) -> int:
        return len(self.specs)

    @contextmanager
    def building(self, key) -> Iterator[None]:
        """Hold signature ``key``'s build lock (re-entrant: a build may bind another)."""
        with self._lock:
            lock = self._building.setdefault(key, threading.RLock())
        try:
            with lock:
                yield
        finally:   # built (later callers find it in specs) or failed: the lock is done
            with self._lock:
                self._building.pop(key, None)

    def bind(self, key, generic, values: dict):
        """A specialization of signature ``key`` bound from ``generic`` at these size values,
        kept in ``bound`` (dropping the oldest binding beyond ``MAX_BOUND`` from every table)."""
        spec = generic.bind(values)
        self.bound[key] = spec
        while len(self.bound) > MAX_BOUND:
            old_key, old = self.bound.popitem(last=False)
            if self.specs.get(old_key) is old:
                del self.specs[old_key]
            for k in [k for k, s in self.fast.items() if s is old]:
                del self.fast[k]
        return spec

    def add_generic(self, pattern, generic) -> None:
        self.generic[pattern] = self.generic.get(pattern, []) + [generic]

    def forget(self, spec) -> None:
        """Drop ``spec`` (stale: ``runtime.captured``) from every table; its signature is
        traced again at its next call."""
        for table in (self.specs, self.fast, self.bound):
            for k in [k for k, v in table.items()
                      if v is spec or isinstance(v, Paths) and spec in v.paths]:
                del table[k]

    def keep(self, rebind: Callable[[object], bool]) -> None:
        """Keep only the code ``rebind(spec_or_generic)`` made read the current captured
        objects (``api.reuse``); the rest is traced again when called."""
        done: dict = {}

        def kept(spec) -> bool:
            if id(spec) not in done:
                specs = spec.paths if isinstance(spec, Paths) else [spec]
                done[id(spec)] = all(rebind(s) for s in specs)
            return done[id(spec)]
        for table in (self.specs, self.fast, self.bound):
            for k in [k for k, spec in table.items() if not kept(spec)]:
                del table[k]
        for pattern, found in self.generic.items():
            self.generic[pattern] = [g for g in found if rebind(g)]
