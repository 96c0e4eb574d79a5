"""Which elements of a value its readers use, from the graph alone.

Layer: ir. Input: a node, the graph's consumers and its outputs. Output: ``None`` (every
element may be used) or a boolean array of the node's shape, True where a reader uses it.

How: from the readers back. A reader that moves, selects or gathers values (reshape, permute,
expand, slice, unslice, cat, a gather at constant indices) uses the elements its own used
elements come from: its NumPy reference, run on the positions (1 + the flat index; 0 for its
other operands), says where each of its elements comes from. ``where`` with a constant
condition uses its first operand where the condition holds and its second elsewhere; an
elementwise op of the same shape uses the elements its result's readers use; any other
reader, and an output, uses everything. Bounded as ``ir.zeros`` is.

Used by lowering: a square matrix product of which one triangle only is used computes that
triangle only (GEMMT): the gradient of a triangular factor (GMM's ``L[:, rows, cols] = l``
gathers the lower triangle of its gradient ``g^T xc``; ``tril``'s gradient selects it).
"""

from __future__ import annotations

import numpy as np

from ..ops import get
from ..ops.registry import ELEMENTWISE
from .graph import Node
from .walk import in_order
from .zeros import MOVING, analysable, constant_value, square_triangle

# Readers whose NumPy reference moves values (a scatter adds them: its sources' positions mix)
_MOVING = {op: indices for op, indices in MOVING.items() if op != "scatter_add"}


# Of these, a reader all of whose elements are used uses all of its operand's.
_WHOLE = frozenset(("reshape", "permute", "expand", "unslice"))


class UsedElements:
    """The used elements of one graph's nodes (memoized)."""

    def __init__(self, users: dict, outputs: set) -> None:
        self.users, self.outputs = users, outputs
        self._memo: dict = {}

    def of(self, node: Node) -> np.ndarray | None:
        """``node``'s used elements (True: used), or None: every element may be."""
        return in_order(node, self._memo, self._readers, self._evaluate)

    def triangle(self, node: Node) -> str | None:
        """"lower" when no reader uses an element above the diagonal of ``node``'s (square)
        matrices, "upper" when none below, else None."""
        return square_triangle(node, self.of)

    def _readers(self, n: Node) -> list:
        """The readers whose used elements ``n``'s need (none when ``n``'s are all used)."""
        if n in self.outputs or not analysable(n):
            return []
        readers = list(dict.fromkeys(self.users.get(n, ())))
        return readers if all(_transfers(n, c) for c in readers) else []

    def _evaluate(self, n: Node) -> np.ndarray | None:
        readers = self._readers(n)
        if not readers:
            return None if n in self.outputs or not analysable(n) or self.users.get(n) \
                else np.zeros(n.shape, bool)
        used = np.zeros(n.shape, bool)
        for c in readers:
            part = self._through(n, c)
            if part is None:
                return None
            used |= part
        return None if used.all() else used

    def _through(self, n: Node, c: Node) -> np.ndarray | None:
        """The elements of ``n`` that reader ``c`` uses."""
        mine = self._memo[c]
        if c.op in _WHOLE and mine is None:
            return None
        if c.op in _MOVING:
            return self._moved(n, c, mine)
        cond = constant_value(c.inputs[0]) if c.op == "where" and c.inputs[0] is not n else None
        if cond is not None:
            cond = np.broadcast_to(cond != 0, c.shape)
            mine = np.ones(c.shape, bool) if mine is None else mine
            part = np.zeros(n.shape, bool)
            if c.inputs[1] is n:
                part |= mine & cond
            if c.inputs[2] is n:
                part |= mine & ~cond
            return part
        return None if mine is None else mine          # (elementwise, same shape)

    def _moved(self, n: Node, c: Node, mine) -> np.ndarray | None:
        indices = _MOVING[c.op]
        ins = []
        for k, i in enumerate(c.inputs):
            if k in indices:
                ins.append(constant_value(i))
            elif i is n:
                ins.append(np.arange(1, n.size + 1, dtype=np.float64).reshape(n.shape))
            else:
                ins.append(np.zeros(i.shape))
        try:
            src = np.asarray(get(c.op).numpy(*ins, **c.a))
        except (IndexError, ValueError):        # (an index out of range: the C reports it)
            return None
        src = src if mine is None else src[mine]
        used = np.zeros(n.size, bool)
        used[src[src > 0].astype(np.int64) - 1] = True
        return used.reshape(n.shape)


def _transfers(n: Node, c: Node) -> bool:
    """Whether reader ``c``'s use of ``n`` follows from the elements of ``c`` used."""
    if not analysable(c):
        return False
    if c.op in _MOVING:
        return all(c.inputs[k] is not n and constant_value(c.inputs[k]) is not None
                   for k in _MOVING[c.op])
    return get(c.op).kind == ELEMENTWISE and c.shape == n.shape
