"""Which elements of a value are exactly zero whatever the inputs, from the graph alone.

Layer: ir. Input: a node. Output: ``None`` (nothing known) or a boolean array of the node's
shape, False where the element is zero for every input (True: it may not be).

How: the node's ancestry is evaluated on indicators (1 where a value may be nonzero). Ops that
only move, select, gather or scatter values run their NumPy reference on the indicators (a
scatter's sum of nonnegative indicators is 0 exactly where nothing lands); ``where`` with a
constant condition selects, with another one may be either side; a sum or difference is zero
where both terms are; ``neg``, ``abs``, ``relu`` and casts keep their input's zeros; a
constant is nonzero where its value is; anything else may be nonzero anywhere. A product is
not zero where a factor is (0 * inf is NaN): the zeros found here are zeros in IEEE
arithmetic too. A kernel that skips them skips products 0 * x, which are zero unless x is an
infinity or a NaN: it checks that (``codegen.c.matmul._trmm``). Bounded: a value of more than
``LIMIT`` elements, or of call-time sizes, is unknown.

Used by lowering: a matrix product whose operand is triangular (GradBench's GMM builds its
Cholesky factors by index assignment into zeros, ``L[:, rows, cols] = l``; ``torch.tril`` is
a ``where`` with a constant mask) multiplies only the triangle (``lower.matmul``).
"""

from __future__ import annotations

import math

import numpy as np

from ..ops import get
from .graph import Node
from .walk import in_order

LIMIT = 1 << 22           # elements: a larger value is not analysed

# Ops whose NumPy reference, run on indicators in place of their data operands, gives the
# indicator of their result; the operands at these positions are indices (their values used).
MOVING = {"reshape": (), "permute": (), "expand": (), "slice": (), "unslice": (),
           "cat": (), "gather": (1,), "scatter_add": (1,)}
_KEEPS_ZEROS = frozenset(("neg", "abs", "relu", "cast", "conj", "stop_gradient",
                          "no_derivative"))
_EITHER = frozenset(("add", "sub"))
_HANDLED = frozenset(MOVING) | _KEEPS_ZEROS | _EITHER | {"where"}   # (and "const")


class KnownZeros:
    """The zero patterns of one graph's nodes (memoized: nodes are immutable)."""

    def __init__(self) -> None:
        self._memo: dict = {}

    def of(self, node: Node) -> np.ndarray | None:
        """``node``'s indicator (True: may be nonzero), or None: nothing known to be zero."""
        return in_order(node, self._memo, _operands, self._evaluate)

    def triangle(self, node: Node) -> str | None:
        """"lower" when every matrix (last two dims, square) of ``node`` is zero above its
        diagonal, "upper" when below, else None."""
        return square_triangle(node, self.of)

    def _evaluate(self, n: Node) -> np.ndarray | None:
        if not analysable(n):
            return None
        if n.op == "const":
            found = np.broadcast_to(np.asarray(n.attr("value")) != 0, n.shape)
        elif n.op in MOVING:
            found = self._moved(n)
        elif n.op in _KEEPS_ZEROS:
            found = self._memo[n.inputs[0]]
        elif n.op in _EITHER:
            found = self._either(n, n.inputs)
        elif n.op == "where":
            found = self._where(n)
        else:
            return None
        return None if found is None or found.all() else found

    def _ones(self, n: Node) -> np.ndarray:
        found = self._memo[n]
        return np.ones(n.shape, bool) if found is None else found

    def _either(self, n: Node, terms) -> np.ndarray | None:
        found = [self._memo[t] for t in terms]
        if any(f is None for f in found):
            return None
        return np.broadcast_to(np.logical_or.reduce(np.broadcast_arrays(*found)), n.shape)

    def _where(self, n: Node) -> np.ndarray | None:
        cond, a, b = n.inputs
        value = constant_value(cond)
        if value is None:
            return self._either(n, (a, b))
        if self._memo[a] is None and self._memo[b] is None:
            return None
        picked = np.where(value != 0, self._ones(a), self._ones(b))
        return np.broadcast_to(picked, n.shape)

    def _moved(self, n: Node) -> np.ndarray | None:
        indices = MOVING[n.op]
        ins = []
        for k, i in enumerate(n.inputs):
            if k in indices:
                value = constant_value(i)
                if value is None:
                    return None
                ins.append(value)
            else:
                ins.append(self._ones(i).astype(np.float64))
        if not any(self._memo[i] is not None for k, i in enumerate(n.inputs)
                   if k not in indices) and n.op not in ("unslice", "scatter_add"):
            return None
        try:
            out = get(n.op).numpy(*ins, **n.a)
        except (IndexError, ValueError):        # (an index out of range: the C reports it)
            return None
        return np.asarray(out) != 0


def _operands(n: Node) -> tuple:
    """The inputs whose patterns ``n``'s needs."""
    return n.inputs if n.op in _HANDLED and analysable(n) else ()


def square_triangle(node: Node, marked_of) -> str | None:
    """``lower_or_upper`` of ``marked_of(node)`` when ``node``'s matrices are square (and it
    is analysable), else None."""
    if node.ndim < 2 or not analysable(node) or node.shape[-1] != node.shape[-2]:
        return None
    return lower_or_upper(marked_of(node))


def lower_or_upper(marked: np.ndarray | None) -> str | None:
    """"lower" when no matrix (last two dims) of ``marked`` has a True above its diagonal,
    "upper" when none below, else None (also for None: everything marked)."""
    if marked is None:
        return None
    matrix = marked.reshape((-1,) + marked.shape[-2:]).any(axis=0)
    if not np.triu(matrix, 1).any():
        return "lower"
    if not np.tril(matrix, -1).any():
        return "upper"
    return None


def constant_value(n: Node) -> np.ndarray | None:
    """``n``'s value when it is a constant, or a constant moved (reshape, permute, expand,
    slice: an index table or a mask broadcast along a batch), else None."""
    if n.op == "const":
        return np.asarray(n.attr("value"))
    if n.op in _VIEWS and analysable(n):
        inner = constant_value(n.inputs[0])
        return None if inner is None else np.asarray(get(n.op).numpy(inner, **n.a))
    return None


_VIEWS = frozenset(("reshape", "permute", "expand", "slice"))


def analysable(n: Node) -> bool:
    return all(type(d) is int for d in n.shape) and math.prod(n.shape) <= LIMIT   # (no Dim)
