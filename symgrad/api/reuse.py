"""A compiled function's code per captured state (a ``SignatureCache`` each), and what happens
when a reuse fails.

Layer: api (below ``compiled``). ``Reuse`` is the part of ``CompiledFunction`` that keeps its
compiled code valid: its ``SignatureCache`` (signatures, the fast path, shape-generic modules)
belongs to one captured state (``api.state``); ``captured_state()`` walks the state again when
a guard fails and installs the new state's cache (kept for ``MAX_STATES`` states, so a value
that toggles does not recompile); ``_reuse_failed`` handles a call whose captured values no
longer fit the code (trace again).
"""

from __future__ import annotations

import warnings
from collections import OrderedDict

from .. import config
from ..frontend.core.sources import user_stacklevel
from ..runtime import Paths
from ..runtime.captured import Stale
from . import fingerprint
from .signature_cache import SignatureCache
from .state import State, rebound

# Captured states whose tables are kept at once per function; at ``MAX_STATES`` changes a
# warning names what keeps changing.
MAX_STATES = 8


def _never() -> bool:
    return False


class Reuse:
    """(mixed into ``CompiledFunction``; see the module docstring)"""

    def _reuse_init(self) -> None:
        self._use(SignatureCache())
        # The captured state the tables were compiled for, and its check: a generated
        # function, True while every guard holds (never before the first call).
        self._state: State | None = None
        self._holds = _never
        # memory key -> (cache, the state its code reads the objects of), other states
        self._states: OrderedDict = OrderedDict()
        self._changes = 0
        self._warned_incomplete = False
        self._warned_opaque = False
        self.said_unknown = None        # (api.warm logs "no warm start" once per state)

    def _use(self, cache: SignatureCache) -> None:
        """Install one captured state's compiled code. (``_fast`` is its fast table, named
        on the function itself for ``__call__``'s hot path: one attribute load fewer.)"""
        self.signatures, self._fast = cache, cache.fast

    def captured_state(self) -> State:
        """The current captured state, checked (its guards) and, when a guard fails,
        refreshed (a leaf rebound to an equal one: ``State.refreshed``) or walked again. A
        changed state gets its own ``SignatureCache`` (kept for ``MAX_STATES`` states); the
        compiled code of a state found again reads the objects now at its captures'
        paths."""
        state = self._state
        if state is not None and self._holds():
            return state
        with self._lock:
            old = self._state
            if old is not None and self._holds():
                return old
            state = old.refreshed() if old is not None else None
            if state is None:
                state = self._walk()
            bound = old          # (the state whose objects the tables' code reads)
            if old is not None and state.memory_key != old.memory_key:
                bound = self._changed(old, state)
            if bound is not None:
                self._rebind(bound, state)
            self._state, self._holds = state, state.holds
            return state

    def _walk(self) -> State:
        state = State(fingerprint.walk(self))
        if not state.walk.complete and not self._warned_incomplete:
            self._warned_incomplete = True
            warnings.warn(f"{self.name}: symgrad cannot check everything it reads besides "
                          f"its arguments ({state.opaque[-1]}), so it traces it at every "
                          f"call; pass what it reads as arguments",
                          stacklevel=user_stacklevel())
        elif state.opaque and not self._warned_opaque:
            self._warned_opaque = True
            warnings.warn(f"{self.name}: symgrad cannot check {state.opaque[0]}: what the "
                          f"function reads from it while traced is a constant of the "
                          f"compiled code until it is traced again (each new process traces "
                          f"it). Pass what it needs as arguments.",
                          stacklevel=user_stacklevel())
        return state

    def _changed(self, old: State, state: State) -> State | None:
        """Keep ``old``'s cache and install ``state``'s (kept from before, or new); the
        state that one was bound to (None: a new cache)."""
        what = old.failed() or "its captured state"
        config.debug(1, "%s: %s changed: compiling for the new value", self.name, what)
        self._states[old.memory_key] = (self.signatures, old)
        cache, bound = self._states.pop(state.memory_key, (None, None))
        self._use(cache if cache is not None else SignatureCache(like=self.signatures))
        while len(self._states) >= MAX_STATES:
            self._states.popitem(last=False)
        self._changes += 1
        if self._changes == MAX_STATES:
            warnings.warn(f"{self.name}: what it reads besides its arguments has changed "
                          f"{self._changes} times ({what} most recently), and each new value "
                          f"compiles it again (symgrad guards the Python values a compiled "
                          f"function reads, as torch.compile does). Pass a value that keeps "
                          f"changing as an argument.",
                          stacklevel=user_stacklevel())
        return bound

    def _rebind(self, before: State, after: State) -> None:
        """Make the cache's compiled code read the captured objects of ``after`` (found by
        their paths); code that cannot (a capture without a path, a value read while
        tracing that is another object now) is dropped, to be traced again."""
        self.signatures.keep(lambda s: s.rebind(rebound(s.captured, s.artifact.captures,
                                                         before, after)))

    def _reuse_failed(self, e: Exception, spec, args: tuple, kwargs: dict):
        """A call whose specialization's captured values no longer fit its code
        (``runtime.captured``): trace again."""
        config.debug(1, "%s: %s: tracing again", self.name, str(e) or "captured state changed")
        self.signatures.forget(spec)
        self._holds = _never      # (walked again: a changed shape changes the warm-start key)
        out = kwargs.pop("out", None)
        spec, values = self._prepare(args, kwargs)
        try:
            return spec.call(values) if out is None else spec.call_into(values, out)
        except Stale as again:
            raise RuntimeError(f"{self.name}: what it reads besides its arguments changed "
                               f"while it was compiled ({again}); symgrad cannot reuse code "
                               f"for it") from None


def autograd_through(spec) -> bool:
    """Whether a call of ``spec`` now would record autograd through captured tensors."""
    specs = spec.paths if isinstance(spec, Paths) else [spec]
    return any(s.captured.needs_autograd() for s in specs)


def reads_captured(spec) -> bool:
    """Whether ``spec`` depends on state of this process beyond its arguments: captured
    objects its C reads, or checks at each call (arrays whose values it baked in, tensors it
    read as numbers, reads of the world). Such a specialization is not pickled (nor deep-
    copied, which pickles): a copy without those checks would give stale results."""
    specs = spec.paths if isinstance(spec, Paths) else [spec]
    return any(s.artifact.captures or s.captured for s in specs)
