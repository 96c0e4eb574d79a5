"""A shape-generic compiled function: one module for every size of its call-time dimensions.

Layer: runtime. Input: the ``Artifact`` of a shape-generic compile (its argument and output
shapes hold ``dims.Dim`` sizes; its C entry point takes the sizes after ``nthreads``) and the
size guards the compile recorded. Output: ``sizes_of(shapes)``, the size symbols' values for
the concrete shapes of a call (or why they do not fit: another rank or static size, two
dimensions that share a size symbol but differ, a size below 1, a guard that fails), and
``bind(values)``, a ``Specialization`` for them. A bound
specialization is an ordinary one, with its own call path, output pools and workspace; binding
costs no tracing and no compiling.
"""

from __future__ import annotations

from dataclasses import replace

from ..dims import Dim, concrete, symbols_of
from .artifact import Artifact
from .captured import Captured
from .specialization import NOTHING, Specialization


class Generic:
    def __init__(self, art: Artifact, module, compiled=None, guards: tuple = (),
                 captured: Captured = NOTHING):
        self.artifact, self.module, self.compiled = art, module, compiled
        self.captured = captured     # (runtime.captured: what its C reads besides the args)
        self.guards = tuple(guards)
        self.sizes = _entry_sizes(art)
        self.seen: list = []     # the argument shapes of the calls its symbols were made from

    @classmethod
    def from_artifact(cls, art: Artifact, guards: tuple = (),
                      captured: Captured = NOTHING) -> Generic:
        """From its artifact alone (a warm start): the module from the cache, or rebuilt."""
        from .. import pipeline   # (loads the backend's toolchain only then)
        return cls(art, pipeline.load(art.source, art.name), None, guards, captured)

    def sizes_of(self, shapes: list) -> tuple[dict | None, str]:
        """Symbol values for the arguments' shapes and "fits", or None and why not: "static"
        (another rank or fixed size), "shared" (two dims of one size symbol differ), "guard"
        (a size below 1, or a guard that fails)."""
        values: dict = {}
        for spec, shape in zip(self.artifact.in_specs, shapes):
            if len(shape) != len(spec.shape):
                return None, "static"
            for want, got in zip(spec.shape, shape):
                if not isinstance(want, Dim):
                    if want != got:
                        return None, "static"
                    continue
                (((name,), _),) = want.terms      # an argument's size is one symbol
                if values.setdefault(name, got) != got:
                    return None, "shared"
                if got < 1:
                    return None, "guard"
        if any(not g.holds(values) for g in self.guards):
            return None, "guard"
        return values, "fits"

    def rebind(self, captured: Captured | None) -> bool:
        """Read these captured objects from now on (see ``Specialization.rebind``); the
        specializations bound before keep theirs (each is rebound on its own)."""
        if captured is None:
            return False
        self.captured = captured
        return True

    def bind(self, values: dict) -> Specialization:
        """A specialization for these symbol values (from ``sizes_of``)."""
        art = self.artifact
        bound = replace(
            art,
            source=replace(art.source, workspace_bytes=concrete(art.source.workspace_bytes,
                                                               values)),
            in_specs=tuple(replace(s, shape=concrete(s.shape, values)) for s in art.in_specs),
            out_specs=tuple((dt, concrete(shape, values), dtype)
                            for dt, shape, dtype in art.out_specs),
            sizes=tuple(values[s] for s in self.sizes))
        return Specialization(bound, self.module, self.compiled, self.captured)

    def describe(self) -> str:
        shown = ", ".join(f"{s.name}{list(s.shape)}" for s in self.artifact.in_specs)
        return shown + "".join(f"; {g}" for g in self.guards)


def _entry_sizes(art: Artifact) -> tuple:
    """The size symbols in the order the C entry point takes them (``lower``: the inputs'
    symbols, sorted)."""
    return tuple(sorted(set().union(*(symbols_of(s.shape) for s in art.in_specs))))
