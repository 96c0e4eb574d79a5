"""Constant folding: an elementwise node whose inputs are all scalar constants (0-d, or
broadcasts of one) becomes one (broadcast to the node's shape); so does a reshape, expand or
permute of a scalar constant (every element is the same value, however arranged).

Layer: passes. Graph -> Graph. Evaluates with the op's NumPy reference in the node's dtype, so
the folded value is what the C would have computed at run time (same IEEE operations). The
result is always in one form, a 0-d ``const`` or an ``expand`` of one, which is the form the
identities' rules and this pass recognize (the adjoint's seeds arrive as
``expand(reshape(1.0))``).
"""

from __future__ import annotations

import numpy as np

from ..ir import Graph, Node
from ..ops import get
from ..ops.registry import ELEMENTWISE
from .rewrite import rebuild
from .identities import SCALAR_OPS, scalar_const

_MOVES = ("reshape", "expand", "permute")


def _broadcast(const: Node, node: Node) -> Node:
    """``const`` (0-d) at ``node``'s shape."""
    if not node.ndim:
        return const
    return Node("expand", (("shape_to", node.shape),), (const,), node.dtype, node.shape)


_ELEMENTWISE: dict[str, bool] = {}             # op name -> whether it is elementwise


def _elementwise(op: str) -> bool:
    found = _ELEMENTWISE.get(op)
    if found is None:
        found = _ELEMENTWISE[op] = get(op).kind == ELEMENTWISE
    return found


def _fold(node: Node) -> Node:
    ins = node.inputs
    if node.op in _MOVES:
        const = scalar_const(ins[0])
        return node if const is None else _broadcast(const, node)
    # Most nodes have an input that is no constant at all: that (a set lookup per input) is
    # asked first, before the op's kind and ``scalar_const`` (1.2 -> 0.5 us a node, det7_flat).
    if not ins or not SCALAR_OPS.issuperset([i.op for i in ins]) or \
            not _elementwise(node.op):
        return node
    scalars = [scalar_const(i) for i in ins]
    if any(s is None for s in scalars):
        return node
    args = [np.asarray(s.attr("value"), dtype=s.dtype.np) for s in scalars]
    with np.errstate(all="ignore"):
        value = np.asarray(get(node.op).numpy(*args, **node.a), dtype=node.dtype.np)
    out = Node("const", (("value", value.item()),), (), node.dtype, ())
    return _broadcast(out, node)


def fold_constants(graph: Graph) -> Graph:
    """Evaluate elementwise nodes whose inputs are all (broadcast) scalar constants, and
    reduce moves of a scalar constant to one broadcast of it."""
    return rebuild(graph, _fold)
