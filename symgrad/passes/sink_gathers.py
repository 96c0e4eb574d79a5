"""Selections sunk toward the inputs: ``f(x)[idx]`` becomes ``f(x[idx])`` when ``idx`` picks
fewer rows than ``f`` computes.

Layer: passes. Graph -> Graph. A selection is a gather along one axis whose index is the same
along every other axis (``verts[corr]``: whole rows); ``f`` is any chain of work that keeps
that axis apart: elementwise operations, matrix products (the axis a batch dim, the rows of
the left operand or the columns of the right), reshapes that keep the axis whole, permutes,
broadcasts and slices that leave it alone. Each step is exact (the same operations on the
same values, for the rows that are kept); a selection stops at anything else, and at any
value that something else reads too (that value is computed whole anyway: selecting from it
costs nothing more).

GradBench's hand tracking skins all 10,000 vertices of the hand model and then reads the 100
that the data's points correspond to: with the selection sunk to the skinning weights and
base positions, 100 vertices are skinned (``jacfwd``'s 26 tangents included). An index out
of range is found where the selection lands, with the same bound (the axis keeps its length
until the selection).
"""

from __future__ import annotations

import math

from ..dims import Dim
from ..ir import Graph, Node
from ..ops import get
from ..ops.registry import ELEMENTWISE
from .rewrite import ReadersRule, in_rounds

ROUNDS = 4


def _selected(gather: Node):
    """(the 1-d index, its axis) if ``gather`` picks whole slices along its axis, else None."""
    axis = gather.attr("axis")
    x, idx = gather.inputs
    if any(i != s for d, (i, s) in enumerate(zip(gather.shape, x.shape)) if d != axis):
        return None
    while idx.op == "expand":
        idx = idx.inputs[0]
    lead = gather.ndim - idx.ndim            # (expand's new leading dims)
    if axis < lead or any(s != 1 for d, s in enumerate(idx.shape) if d != axis - lead):
        return None
    n = gather.shape[axis]
    if idx.ndim != 1:
        idx = Node("reshape", (("shape_to", (n,)),), (idx,), idx.dtype, (n,))
    return idx, axis


def select(x: Node, idx: Node, axis: int) -> Node:
    """``x`` at the ``len(idx)`` positions ``idx`` of ``axis``, whole along the other axes."""
    n = idx.shape[0]
    shape = tuple(n if d == axis else s for d, s in enumerate(x.shape))
    col = tuple(n if d == axis else 1 for d in range(x.ndim))
    index = Node("reshape", (("shape_to", col),), (idx,), idx.dtype, col)
    if col != shape:
        index = Node("expand", (("shape_to", shape),), (index,), idx.dtype, shape)
    return Node("gather", (("axis", axis),), (x, index), x.dtype, shape)


def _reshaped_axis(before: tuple, after: tuple, axis: int):
    """The axis of ``before`` that a reshape to ``after`` keeps whole as ``axis``, or None."""
    lead = math.prod(after[:axis])
    for b in range(len(before)):
        if math.prod(before[:b]) == lead and before[b] == after[axis]:
            return b
    return None


class _Sinker(ReadersRule):
    """One round: selections moved through the work they read, which nothing else reads."""

    def __call__(self, node: Node) -> Node:
        if node.op != "gather" or any(isinstance(d, Dim) for d in node.inputs[0].shape):
            return node
        picked = _selected(node)
        if picked is None or picked[0].shape[0] >= node.inputs[0].shape[picked[1]]:
            return node                     # (as many rows as there are, or more: no saving)
        source = node.inputs[0]
        if len(self.readers.get(source, ())) == 1:
            moved = self._through(source, *picked)
        else:
            moved = self._shared(node, source, *picked)
        return node if moved is None else moved

    def _shared(self, node: Node, source: Node, idx: Node, axis: int) -> Node | None:
        """``node``'s part of one selection of the rows that all of ``source``'s readers
        select (a triangle's three corners, each a selection of the same vertices), sunk;
        None unless every reader is a selection along ``axis`` and together they pick fewer
        rows than there are."""
        parts = []
        for r in self.readers.get(source, ()):
            picked = r is not None and r.op == "gather" and r.inputs[0] is source and \
                _selected(r)
            if not picked or picked[1] != axis:
                return None
            parts.append((r, picked[0]))
        sizes = [i.shape[0] for _, i in parts]
        if sum(sizes) >= source.shape[axis] or node not in [r for r, _ in parts]:
            return None
        total = (sum(sizes),)
        together = Node("cat", (("axis", 0),), [i for _, i in parts], idx.dtype, total)
        moved = self._through(source, together, axis)
        if moved is None:
            return None
        k = [r for r, _ in parts].index(node)
        starts = tuple(sum(sizes[:k]) if d == axis else 0 for d in range(node.ndim))
        stops = tuple(a + s for a, s in zip(starts, node.shape))
        return Node("slice", (("starts", starts), ("steps", (1,) * node.ndim), ("stops", stops)),
                    (moved,), node.dtype, node.shape)

    def _sink(self, x: Node, idx: Node, axis: int) -> Node:
        """``select(x, idx, axis)``, moved into x's operands where x allows it."""
        moved = self._through(x, idx, axis) if len(self.readers.get(x, ())) == 1 else None
        return select(x, idx, axis) if moved is None else moved

    def _through(self, x: Node, idx: Node, axis: int) -> Node | None:
        """x's work on its operands' selected slices, or None if x does not keep the axis."""
        n = idx.shape[0]
        shape = tuple(n if d == axis else s for d, s in enumerate(x.shape))
        op = x.op
        if get(op).kind == ELEMENTWISE and x.inputs:
            ins = [self._operand(i, idx, axis, x.ndim) for i in x.inputs]
        elif op == "matmul":
            ins = self._matmul(x, idx, axis)
        elif op == "reshape":
            b = _reshaped_axis(x.inputs[0].shape, x.shape, axis)
            if b is None:
                return self._merged_rows(x, idx, axis)
            ins = [self._sink(x.inputs[0], idx, b)]
        elif op == "permute":
            ins = [self._sink(x.inputs[0], idx, x.attr("perm")[axis])]
        elif op == "expand":
            ins = [self._operand(x.inputs[0], idx, axis, x.ndim)]
        elif op == "slice":
            ins = self._slice(x, idx, axis)
        else:
            return None
        if ins is None:
            return None
        attrs = x.attrs
        if op in ("reshape", "expand"):
            attrs = (("shape_to", shape),)
        elif op == "slice":
            attrs = tuple((k, tuple(n if (k == "stops" and d == axis) else v
                                    for d, v in enumerate(vals))) for k, vals in x.attrs)
        return Node(op, attrs, ins, x.dtype, shape)

    def _operand(self, x: Node, idx: Node, axis: int, rank: int) -> Node:
        """An operand broadcast to a result of ``rank`` dims, selected if it has the axis."""
        d = axis - (rank - x.ndim)
        if d < 0 or x.shape[d] == 1:
            return x                        # (the same for every position of the axis)
        return self._sink(x, idx, d)

    def _matmul(self, x: Node, idx: Node, axis: int):
        a, b = x.inputs
        rank = x.ndim
        if a.ndim < 2 or b.ndim < 2:
            return None
        if axis < rank - 2:                  # a batch dim: both operands, where they have it
            return [self._operand(a, idx, axis, rank), self._operand(b, idx, axis, rank)]
        if axis == rank - 2:                 # rows: the left operand's
            return [self._sink(a, idx, a.ndim - 2), b]
        return [a, self._sink(b, idx, b.ndim - 1)]

    def _merged_rows(self, x: Node, idx: Node, axis: int) -> Node | None:
        """``reshape(matmul(reshape(y, (P, k)), w), S)``, S's leading dims the P rows split
        (``vmap`` of a product with an unbatched matrix): the selection along one of them,
        of y's rows split the same way, merged again for the one product."""
        m = x.inputs[0]
        if m.op != "matmul" or axis == x.ndim - 1 or len(self.readers.get(m, ())) != 1:
            return None
        a, w = m.inputs
        rows = tuple(x.shape[:-1])
        if a.op != "reshape" or a.ndim != 2 or w.ndim != 2 or math.prod(rows) != a.shape[0] \
                or len(self.readers.get(a, ())) != 1:
            return None
        k, n = a.shape[1], w.shape[1]
        y = Node("reshape", (("shape_to", rows + (k,)),), a.inputs, a.dtype, rows + (k,))
        y = self._through(y, idx, axis) or select(y, idx, axis)
        picked = tuple(y.shape[:-1])
        merged = (math.prod(picked), k)
        y = Node("reshape", (("shape_to", merged),), (y,), y.dtype, merged)
        product = Node("matmul", m.attrs, (y, w), m.dtype, (merged[0], n))
        return Node("reshape", (("shape_to", picked + (n,)),), (product,), x.dtype, picked + (n,))

    def _slice(self, x: Node, idx: Node, axis: int):
        src = x.inputs[0]
        if (x.attr("starts")[axis], x.attr("steps")[axis]) != (0, 1) or \
                x.shape[axis] != src.shape[axis]:
            return None
        return [self._sink(src, idx, axis)]


def sink_gathers(graph: Graph) -> Graph:
    """Move selections of whole slices toward the inputs (module docstring)."""
    return in_rounds(graph, _Sinker, ROUNDS)
