"""Provenance: where each element of a data-movement result comes from.

Layer: ir. Input: a data-movement op (``MOVES``: the ops whose every result element copies at
most one operand element, ``OpDef.dependence == "index"``), its attributes and the provenance
of its operands. Output: the result's provenance, an array of codes, one per element: ``0`` for
a zero the op made, else ``(b << 32) + k + 1`` for the ``k``-th element of base ``b``. Bases are
opaque hashable objects (nodes, or backward functions) numbered by a ``Table`` in the order it
first meets them, so two results that copy the same elements of the same bases into the same
places have equal codes, however they were made: ``cat([m[1:, :1], m[1:, 2:]], 1)`` of a
minor ``m`` and the same columns sliced from the matrix another way are one value. The op's
NumPy reference, run on the codes, says where each element goes (as ``transforms.sparsity``
reads dependences), so every such op is covered by its one definition.

Users: the trace, which gives equal values of data movement one node (``Values``, from
``frontend.core.apply``), and the merging of twin backward functions, whose bases are the
functions a cotangent is routed into (``frontend.core.twins``).
"""

from __future__ import annotations

import math

import numpy as np

from ..dims import Dim
from ..ops import OPS

__all__ = ["LIMIT", "MOVES", "Table", "Values"]

MOVES = frozenset(name for name, op in OPS.items() if op.dependence == "index")

# The largest base or result followed, in elements: beyond it the codes cost more than the
# copies they would tell apart. Small views of small values are where one value is made many
# ways (minors, windows, an entry at a time).
LIMIT = 1024


class Table:
    """Numbers bases; makes the codes of a base and of a data-movement result."""

    __slots__ = ("_ids",)

    def __init__(self) -> None:
        self._ids: dict = {}

    def base(self, obj, shape: tuple) -> np.ndarray | None:
        """The codes of ``obj`` itself, of ``shape`` (None: a symbolic or too large size)."""
        if not all(type(s) is int for s in shape):
            return None
        size = math.prod(shape)
        if size > LIMIT:
            return None
        number = self._ids.setdefault(obj, len(self._ids))
        return np.arange((number << 32) + 1, (number << 32) + size + 1,
                         dtype=np.int64).reshape(shape)

    @staticmethod
    def moved(op_name: str, attrs: dict, inputs: list) -> np.ndarray | None:
        """The codes of ``op_name`` (one of ``MOVES``) with ``attrs`` applied to operands of
        codes ``inputs`` (None: too large a result to follow, or a call-time size among the
        attributes: the codes would hold for the traced size only)."""
        if not all(map(_static, attrs.values())):
            return None
        out = np.asarray(OPS[op_name].numpy(*inputs, **attrs))
        return out if out.size <= LIMIT else None


def _static(value) -> bool:
    """Whether an attribute holds no call-time size (``dims.Dim``), in tuples too."""
    kind = type(value)
    if kind is tuple:
        # (most attributes: shapes, starts, windows, plain ints tested at C speed)
        return _PLAIN.issuperset(map(type, value)) or all(map(_static, value))
    return kind in _PLAIN or not isinstance(value, Dim)


_PLAIN = frozenset((int, str, bool, float, type(None)))


class Values:
    """One trace's equal values of data movement, made one node: ``canonical(node)`` is the
    first node seen whose value copies the same elements of the same nodes into the same
    places (with the same dtype), else ``node``. Each node's codes are computed once."""

    __slots__ = ("_table", "_of", "_first")

    def __init__(self) -> None:
        self._table = Table()
        self._of: dict = {}      # node -> its codes (None: not followed)
        self._first: dict = {}   # (dtype, key) -> the node that stands for it

    def canonical(self, node):
        """``node`` (of an op in ``MOVES``), or an earlier node of the same value."""
        of = self._of
        codes = of.get(node, of)
        if codes is of:
            codes = of[node] = self._codes(node)
        if codes is None:
            return node
        return self._first.setdefault((node.dtype, codes.shape, codes.tobytes()), node)

    def _codes(self, node) -> np.ndarray | None:
        of = self._of
        inputs = []
        for i in node.inputs:
            codes = of.get(i, of)
            if codes is of:   # a base: a node of another op (kept: the next read is a lookup;
                # a view giving all of it back in order is it)
                codes = of[i] = self._table.base(i, i.shape)
                if codes is not None:
                    self._first.setdefault((i.dtype, codes.shape, codes.tobytes()), i)
            elif codes is None:   # data movement not followed: itself a base
                codes = self._table.base(i, i.shape)
            if codes is None:
                return None
            inputs.append(codes)
        return self._table.moved(node.op, node.a, inputs)
