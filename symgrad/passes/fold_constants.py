"""Constant folding: an elementwise node whose inputs are all scalar constants (or broadcasts of
one) becomes one (broadcast to the node's shape).

Graph -> Graph. Evaluates with the op's NumPy reference in the node's dtype, so the folded
value is what the C would have computed at run time (same IEEE operations).
"""

from __future__ import annotations

import numpy as np

from ..ir import Graph, Node
from ..ops import get
from ..ops.registry import ELEMENTWISE
from .rewrite import rebuild


def _scalar(node: Node) -> Node | None:
    """The scalar constant ``node`` holds everywhere (a 0-d const, or a broadcast of one)."""
    if node.op == "expand":
        node = node.inputs[0]
    return node if node.op == "const" and node.ndim == 0 else None


def _fold(node: Node) -> Node:
    if get(node.op).kind != ELEMENTWISE or not node.inputs:
        return node
    scalars = [_scalar(i) for i in node.inputs]
    if any(s is None for s in scalars):
        return node
    args = [np.asarray(s.attr("value"), dtype=s.dtype.np) for s in scalars]
    with np.errstate(all="ignore"):
        value = np.asarray(get(node.op).numpy(*args, **node.a), dtype=node.dtype.np)
    out = Node("const", (("value", value.item()),), (), node.dtype, ())
    if node.ndim:
        out = Node("expand", (("shape_to", node.shape),), (out,), node.dtype, node.shape)
    return out


def fold_constants(graph: Graph) -> Graph:
    """Evaluate elementwise nodes whose inputs are all (broadcast) scalar constants."""
    return rebuild(graph, _fold)
