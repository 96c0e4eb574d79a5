"""Graph -> Graph optimization passes. ``PIPELINE`` is the order they run in, literally;
``FAST_MATH_PIPELINE`` is the order with ``fast_math=True`` (value-changing rewrites allowed
in the graph; the C compiler flags stay IEEE either way).

Common-subexpression elimination needs no pass (nodes are interned) and dead-code elimination
happens in every rebuild (graphs are rebuilt from their outputs).
"""

from __future__ import annotations

from ..gcpause import pausing
from ..ir import Graph
from .fast_math import fast_math
from .fold_constants import fold_constants
from .simplify import simplify

PIPELINE = [fold_constants, simplify, fold_constants]
FAST_MATH_PIPELINE = [fold_constants, simplify, fast_math, fold_constants, simplify]


@pausing
def run_pipeline(graph: Graph, passes=None, on_change=None) -> Graph:
    """Run the passes in order; ``on_change(name, before, after)`` sees each one that changed."""
    for p in PIPELINE if passes is None else passes:
        after = p(graph)
        if on_change is not None and after.outputs != graph.outputs:
            on_change(p.__name__, graph, after)
        graph = after
    return graph
