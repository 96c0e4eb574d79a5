"""How an eager tensor's value becomes a constant of a trace.

Layer: front end (core). Input: a NumPy array (an eager tensor's value read by traced code)
and its dtype. Output: the graph node that holds it: a ``const`` of a frozen copy; or, for a
broadcast array (a flip's or an index's index, expanded to the operand's shape: stride 0
along some dims), a ``const`` of its distinct elements and an ``expand`` of it, rather than a
table of the full shape (a flip of a (300, 40) tensor held 12,000 indices, now 300).
"""

from __future__ import annotations

import numpy as np

from ...ir.graph import Node


def const_node(v: np.ndarray, dtype) -> Node:
    """The node holding ``v`` (see the module)."""
    if v.ndim == 0:
        return Node("const", (("value", v.item()),), (), dtype, ())
    compact = _unbroadcast(v)
    if compact is None:
        return Node("const", (("value", _frozen(v)),), (), dtype, v.shape)
    base = Node("const", (("value", _frozen(compact)),), (), dtype, compact.shape)
    return Node("expand", (("shape_to", v.shape),), (base,), dtype, v.shape)


def _unbroadcast(v: np.ndarray) -> np.ndarray | None:
    """``v`` cut to one element along the dims it is broadcast along (stride 0), when that
    holds at most a quarter of its elements; else None."""
    if 0 not in v.strides or v.size < 64:
        return None
    compact = v[tuple(slice(0, 1) if st == 0 and n > 1 else slice(None)
                      for st, n in zip(v.strides, v.shape))]
    return compact if compact.size * 4 <= v.size else None


def _frozen(v: np.ndarray) -> np.ndarray:
    v = np.array(v, copy=True)
    v.flags.writeable = False
    return v
