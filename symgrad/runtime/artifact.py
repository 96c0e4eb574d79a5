"""What a compiled specialization needs to run, without its graph: the pickled form.

Layer: runtime. An ``Artifact`` holds the C source object (whose text is also its cache key's
main ingredient), the cache key, the signature, the constants, the output layout and the
messages of the runtime errors its kernels can report. A pickled ``Specialization`` is its
artifact; unpickling reloads the module from the disk cache or rebuilds it from the source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..codegen.backend import Source
from ..pytree import TreeDef

if TYPE_CHECKING:   # (the pipeline, and the compiler behind it, load only when compiling)
    from ..pipeline import Compiled


@dataclass(frozen=True)
class Artifact:
    name: str
    source: Source       # the backend's (the C backend's ``CSource``)
    key: str
    in_specs: tuple
    out_tree: TreeDef
    consts: tuple        # (DType, ndarray) per constant buffer
    out_specs: tuple     # (NumPy dtype, shape, DType) per output
    errors: tuple = ()   # (status, message) of each kernel that can fail
    guards: tuple = ()   # (outcome, "file.py:line: text") of each guard the C checks
    sizes: tuple = ()    # shape-generic C bound to a call's sizes: their values, passed last
    # (kind, path or None, name) of each captured value the C takes after the arguments
    # (``frontend.core.capture``): another process finds them again by their paths.
    captures: tuple = ()

    @classmethod
    def of(cls, c: Compiled) -> Artifact:
        return cls(
            c.name, c.source, c.module.key if c.module is not None else "",
            tuple(c.traced.in_specs), c.traced.out_tree,
            tuple((b.dtype, np.ascontiguousarray(v, dtype=b.dtype.np)) for b, v in c.consts),
            tuple((b.dtype.np, n.shape, b.dtype) for b, n in zip(c.outputs, c.graph.values)),
            tuple((status, f"{c.name}: {what}") for status, what in c.source.errors),
            tuple((outcome, f"{loc}: {loc.text}" if loc else "?")
                  for outcome, loc in c.traced.guards),
            captures=tuple((e.kind, e.path, e.node.attr("name"))
                           for e in (c.traced.captures.entries if c.traced.captures else ())))
