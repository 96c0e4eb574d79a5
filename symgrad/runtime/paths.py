"""The paths of one signature whose Python control flow depends on the values: a decision tree
of specializations.

Layer: runtime. Input: specializations traced with guards (each knows the outcome of each of
its guards, in order), and an owner that can trace the path some arguments take (the
``CompiledFunction``). Output: ``call(args)`` and ``call_into(args, out)``, the interface of one
``Specialization``.

A call runs the path that ran last. If the C reports that guard ``k`` failed, the arguments
agree with that path's first ``k`` decisions and take the other outcome at ``k``: the path
whose decisions start that way runs next (``by_prefix``, the decision tree flattened), and if
none has been traced yet, the owner traces one. Each failure moves to a later guard, so a
call runs at most one path per guard. Beyond ``limit`` paths the owner's fallback runs the
function eagerly (or raises), with a warning naming the line whose decision diverged.
"""

from __future__ import annotations

import threading
import warnings

from .. import config
from ..frontend.core.sources import user_stacklevel


class GuardFailure(Exception):
    """A compiled path's guard ``index`` did not hold for the arguments of a call."""

    def __init__(self, index: int):
        super().__init__(index)
        self.index = index


class GuardLimitError(RuntimeError):
    """A signature took more paths through its Python control flow than allowed."""


class Paths:
    """The traced paths of one signature (see the module docstring)."""

    def __init__(self, name: str, key, limit: int = 8, on_limit: str = "eager"):
        if on_limit not in ("eager", "raise"):
            raise ValueError(f"on_guard_limit must be 'eager' or 'raise', got {on_limit!r}")
        self.name, self.key, self.limit, self.on_limit = name, key, int(limit), on_limit
        self.owner = None              # the CompiledFunction (set by it; not pickled)
        self.paths: list = []
        self.by_prefix: dict = {}      # outcomes of the first k guards -> a path that has them
        self.last = None
        self.lock = threading.Lock()
        self.warned = False

    def add(self, spec) -> None:
        outcomes = spec.outcomes
        for k in range(len(outcomes) + 1):
            self.by_prefix.setdefault(outcomes[:k], spec)
        self.paths.append(spec)
        self.last = spec

    def call(self, args):
        return self._run(args, None)

    def call_into(self, args, out):
        return self._run(args, out)

    def _run(self, args, out):
        spec = self.last
        while True:
            try:
                result = spec.call(args) if out is None else spec.call_into(args, out)
            except GuardFailure as e:
                spec = self._next(spec, e.index, args)
                if spec is None:
                    return self.owner.run_eagerly(self.key, args, out)
                continue
            self.last = spec
            return result

    def _next(self, spec, k: int, args):
        """The path for arguments that agree with ``spec`` up to guard ``k`` and not at it:
        found, traced, or None (the limit is reached and the fallback is eager)."""
        prefix = spec.outcomes[:k] + (not spec.outcomes[k],)
        found = self.by_prefix.get(prefix)
        config.debug(1, "%s: guard %d (%s) went the other way: %s", self.name, k,
                     spec.guard_sites[k], "running its path" if found else "tracing that path")
        if found is not None:
            return found
        with self.lock:
            found = self.by_prefix.get(prefix)
            if found is not None:
                return found
            if len(self.paths) >= self.limit:
                return self._limit(spec.guard_sites[k])
            new = self.owner.trace_path(self.key, args)
            self.add(new)
            return new

    def _limit(self, site: str):
        message = (f"{self.name}: the arguments took more than {self.limit} paths through "
                   f"its Python control flow (the latest diverged at {site}); ")
        if self.on_limit == "raise":
            raise GuardLimitError(message + "raise the limit (symgrad.compile(..., "
                                  "max_paths=...)), or use symgrad.cond/while_loop")
        if not self.warned:
            self.warned = True
            warnings.warn(message + "new paths run eagerly from now on (set max_paths, or "
                          "use symgrad.cond/while_loop to compile them)",
                          stacklevel=user_stacklevel())   # (the user's call)
        return None

    def __getattr__(self, name: str):
        """What a ``Specialization`` tells (its C, stages, outcomes): the latest path's."""
        last = self.__dict__.get("last")
        if last is None:
            raise AttributeError(name)
        return getattr(last, name)

    def __reduce__(self):
        return (_restore, (self.name, self.key, self.limit, self.on_limit, self.paths))


def _restore(name, key, limit, on_limit, paths) -> Paths:
    p = Paths(name, key, limit, on_limit)
    for spec in paths:
        p.add(spec)
    return p
