"""Constant folding: an elementwise node whose inputs are all scalar constants (0-d, or
broadcasts of one) becomes one (broadcast to the node's shape); so does a reshape, expand or
permute of a scalar constant (every element is the same value, however arranged). A small
array (at most ``SMALL`` elements) computed elementwise or moved from constants alone becomes
a constant array: ``jacfwd``'s identity seeds and their columns for a few inputs, which a
loop or a branch would otherwise build again at every step (GradBench's saddle: the 2 x 2
identity of each forward-mode gradient, three kernels in the innermost branch).

Layer: passes. Graph -> Graph. Evaluates with the op's NumPy reference in the node's dtype, so
the folded value is what the C would have computed at run time (same IEEE operations). The
result is always in one form, a 0-d ``const`` or an ``expand`` of one, which is the form the
identities' rules and this pass recognize (the adjoint's seeds arrive as
``expand(reshape(1.0))``).
"""

from __future__ import annotations

import numpy as np

from ..dims import Dim
from ..ir import Graph, Node
from ..ops import get
from ..ir.interpret import constant, numpy_node
from ..ops.registry import ELEMENTWISE
from .rewrite import rebuild
from .identities import SCALAR_OPS, scalar_const

_MOVES = ("reshape", "expand", "permute")
SMALL = 64          # elements: a folded constant array at most this large


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
    if node.op == "slice":
        return _small(node)
    # Most nodes have an input that is no constant at all: that (a set lookup per input) is
    # asked first, before the op's kind and ``scalar_const`` (1.2 -> 0.5 us a node, det7_flat).
    if not ins or not SCALAR_OPS.issuperset([i.op for i in ins]) or \
            not _elementwise(node.op):
        return node
    scalars = [scalar_const(i) for i in ins]
    if any(s is None for s in scalars):      # a constant array among them
        return _small(node)
    args = [np.asarray(s.attr("value"), dtype=s.dtype.np) for s in scalars]
    with np.errstate(all="ignore"):
        value = np.asarray(get(node.op).numpy(*args, **node.a), dtype=node.dtype.np)
    out = Node("const", (("value", value.item()),), (), node.dtype, ())
    return _broadcast(out, node)


def _small(node: Node) -> Node:
    """An elementwise node of constants, or a slice of one, as a constant if at most
    ``SMALL`` elements (in the scalar form when they are all one value). A broadcast, reshape
    or permute of a constant array stays a view of it (no larger constant)."""
    # (a call-time size is not compared: that would guard the shape-generic code on it)
    if any(isinstance(d, Dim) for d in node.shape) or node.size > SMALL or \
            not (node.op == "slice" or _elementwise(node.op)):
        return node
    args = [_value(i) for i in node.inputs]
    if any(a is None for a in args):
        return node
    with np.errstate(all="ignore"):
        value = numpy_node(node, args)
    flat = value.reshape(-1)
    if flat.size and (flat == flat[0]).all() and \
            (np.signbit(flat) == np.signbit(flat[0])).all():
        return _broadcast(Node("const", (("value", flat[0].item()),), (), node.dtype, ()), node)
    return Node("const", (("value", value),), (), node.dtype, node.shape)


def _value(node: Node, depth: int = 4):
    """The value of a constant seen through moves of it (None if it is not one)."""
    if node.op == "const":
        return constant(node)
    if depth and node.op in _MOVES and not any(isinstance(d, Dim) for d in node.shape):
        inner = _value(node.inputs[0], depth - 1)
        return None if inner is None else numpy_node(node, [inner])
    return None


def fold_constants(graph: Graph) -> Graph:
    """Evaluate elementwise nodes whose inputs are all (broadcast) scalar constants, and
    reduce moves of a scalar constant to one broadcast of it."""
    return rebuild(graph, _fold)
