"""Graph -> Graph optimization passes, one per file, each pure (a new graph, the old one
untouched). ``PIPELINE`` is the order they run in, literally; ``FAST_MATH_PIPELINE`` the order
with ``fast_math=True`` (value-changing rewrites allowed in the graph; the C compiler flags stay
IEEE either way). ``pipeline.py`` runs them, timing each and, under ``SYMGRAD_CHECK=1``,
verifying the graph after each.

Common-subexpression elimination needs no pass (nodes are interned) and dead-code elimination
happens in every rebuild (graphs are rebuilt from their outputs).
"""

from __future__ import annotations

from .control_flow import simplify_control
from .fast_math import apply_fast_math
from .fold_constants import fold_constants
from .identities import apply_identities
from .sink_gathers import sink_gathers
from .sink_views import sink_views
from .small_products import small_products

PIPELINE = [fold_constants, simplify_control, apply_identities, sink_gathers, small_products,
            sink_views, fold_constants]
FAST_MATH_PIPELINE = [fold_constants, simplify_control, apply_identities, apply_fast_math,
                      fold_constants, apply_identities, sink_gathers, small_products,
                      sink_views, fold_constants]
