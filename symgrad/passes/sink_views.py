"""Views sunk through elementwise work: a permute, slice or zero-padding (``unslice``) of an
elementwise result becomes the elementwise work on permuted, sliced or padded operands.

Layer: passes. Graph -> Graph. The lowering fuses elementwise work into one loop, but a loop
reads another loop's result through a view only from memory: ``permute(a * b)`` stores
``a * b`` and copies it transposed, ``unslice(a * b)`` stores it and reads it masked. Moved
to the operands, the view becomes a way of loading them, and the whole expression is one loop
over the view's shape, nothing stored in between. The dense Hessian of a chain (Rosenbrock's:
``jacfwd(grad(f))``) is such a tree: the shifted reads of the gradient are zero-paddings of
products of the identity's columns, and ``jacfwd`` ends in a transpose; with the views sunk,
its n x n result is written once, by one loop, instead of five passes over n x n arrays.

The rules, each exact (the same operations on the same values, only where they are read):

- ``V(f(x1, .., xk)) -> f(V(x1'), .., V(xk'))`` for V a permute or slice and f elementwise,
  xi' being xi broadcast to f's shape (a 0-d operand stays as it is: it broadcasts anywhere);
- ``unslice(f(x1, .., xk)) -> where(window, f(unslice(x1'), ..), 0)``: inside the window the
  operands are read where f read them; outside, f runs on padded zeros (loads, never past an
  array) and ``where`` keeps the zero the padding is. Not for integer division or remainder
  (a zero divisor would trap); inner operands of the same tree need no ``where`` of their own,
  since only the outer one's window is kept.

When it pays: f's result is read by this view alone (it then is never computed in its own
shape; one pass instead of two), or f is a few operations on constants and inputs (the
identity a ``jacfwd`` seeds with: recomputed per reader rather than stored). A permute read
by a matrix product is left alone (BLAS reads a transposed operand at no cost), and so is a
padding of more than twice f's size (f would be computed on the padding too). Paddings of
vectors are sunk too: in a recurrence along a vector (an ODE's gradient, whose every RK4 stage
reads the one before shifted by one) that recomputes a chain of shifted reads per stage in one
loop. It was slower (GradBench's ode gradient 0.57 -> 0.90 ms at n=10,000) while gcc left
loops with loads that stop short of their end scalar; since those loops run as a vector loop
and a tail (``codegen.c.loops.TAIL_MAX``) it is faster: 0.45-0.53 -> 0.34-0.44 ms (one
thread, alternating processes). A view is not
sunk through a broadcast operand (f would be recomputed for every repeat), nor in graphs with
call-time sizes.
"""

from __future__ import annotations

import math

import numpy as np

from ..dims import Dim
from ..dtypes import bool_
from ..ir import Graph, Node
from ..ops import get
from ..ops.registry import ELEMENTWISE
from .identities import scalar_const
from .rewrite import ReadersRule, in_rounds

_SUNK = ("permute", "slice", "unslice")
_LEAF_VIEWS = frozenset(("reshape", "expand", "permute", "slice", "unslice"))
_TRAPS = frozenset(("div", "floor_divide", "trunc_divide", "remainder", "fmod", "pow"))
CHEAP = 16           # the cost of the work recomputed per reader at most (see _cheap)
_ARITHMETIC = frozenset(("add", "sub", "mul", "neg", "cast", "eq", "ne", "lt", "le", "gt", "ge",
                         "where", "maximum", "minimum", "abs", "logical_and", "logical_or",
                         "logical_not", "no_derivative", "stop_gradient"))
LIBM = 8             # the cost of any other operation (a division, a libm call), against 1
PAD_GROWTH = 2       # an unslice at most this many times its input's size is sunk
ROUNDS = 4           # each round sinks the views that the one before uncovered


def _elementwise(node: Node) -> bool:
    return get(node.op).kind == ELEMENTWISE and bool(node.inputs) and node.ndim > 0


def _leaf(node: Node) -> bool:
    """A constant or an input, or views of one: read, not computed."""
    while node.op in _LEAF_VIEWS:
        node = node.inputs[0]
    return node.op in ("const", "input")


def _cheap(node: Node, budget: list) -> bool:
    """Whether ``node`` is elementwise work on leaves costing at most ``budget[0]``: 1 for
    an add, a multiplication, a comparison..., ``LIBM`` for anything else. (Loading and
    storing an element costs more than a few such operations: recomputing them beats
    reading them back.)"""
    if _leaf(node):
        return True
    if not _elementwise(node):
        return False
    budget[0] -= 1 if node.op in _ARITHMETIC else LIBM
    if budget[0] < 0:
        return False
    return all(_cheap(x, budget) for x in node.inputs)


def _traps(node: Node) -> bool:
    return node.op in _TRAPS and any(x.dtype.is_integer for x in node.inputs)


class _Sinker(ReadersRule):
    """One round: the view rules, with the readers of the graph the round started from."""

    def __call__(self, node: Node) -> Node:
        if node.op not in _SUNK or not self._worth(node):
            return node
        if node.op == "unslice":
            return self._unslice(node)
        return self._sink(node.op, node.attrs, node.inputs[0], node.shape)

    def _worth(self, view: Node) -> bool:
        f = view.inputs[0]
        if not _elementwise(f) or any(isinstance(d, Dim) for d in view.shape + f.shape):
            return False
        if view.op == "permute" and any(r is not None and r.op == "matmul"
                                        for r in self.readers.get(view, ())):
            return False
        if view.op == "unslice" and (view.attr("steps") != (1,) * view.ndim
                                     or math.prod(view.shape) > PAD_GROWTH * math.prod(f.shape)
                                     or _traps(f)):
            return False
        return self._movable(f)

    def _movable(self, f: Node) -> bool:
        """Whether f's work can move to the view's reader: f read by the view alone, or
        cheap enough to compute again. (A node this round made has no readers on record:
        only the second holds for it.)"""
        return len(self.readers.get(f, ())) == 1 or _cheap(f, [CHEAP])

    def _sink(self, op: str, attrs: tuple, f: Node, shape: tuple, pad: bool = False) -> Node:
        """``op[attrs](f)`` of ``shape``, with the view moved into f's operands where that
        pays (recursively); with ``pad``, an unslice whose padding may hold any value."""
        if not _elementwise(f) or not self._movable(f) or (pad and _traps(f)):
            return Node(op, attrs, (f,), f.dtype, shape)
        operands = []
        for x in f.inputs:
            if not x.ndim or pad and scalar_const(x) is not None:
                # (a number is the same at every element; padded, anything may stand outside)
                operands.append(scalar_const(x) or x)
                continue
            if tuple(x.shape) != tuple(f.shape):
                x = Node("expand", (("shape_to", f.shape),), (x,), x.dtype, f.shape)
                operands.append(Node(op, attrs, (x,), x.dtype, shape))
            else:
                operands.append(self._sink(op, attrs, x, shape, pad))
        if not any(x.ndim for x in operands):     # (numbers only: one of them at the shape)
            x = operands[0]
            operands[0] = Node("expand", (("shape_to", shape),), (x,), x.dtype, shape)
        return Node(f.op, f.attrs, operands, f.dtype, shape)

    def _unslice(self, view: Node) -> Node:
        f = view.inputs[0]
        inner = self._sink("unslice", view.attrs, f, view.shape, pad=True)
        true = Node("const", (("value", True),), (), bool_, ())
        window = Node("unslice", view.attrs,
                      (Node("expand", (("shape_to", f.shape),), (true,), bool_, f.shape),),
                      bool_, view.shape)
        zero = Node("const", (("value", np.zeros((), f.dtype.np).item()),), (), f.dtype, ())
        return Node("where", (), (window, inner, zero), f.dtype, view.shape)


def sink_views(graph: Graph) -> Graph:
    """Sink permutes, slices and paddings through elementwise work (module docstring)."""
    return in_rounds(graph, _Sinker, ROUNDS)
