"""Source primitives (graph inputs and constants) and dtype conversion.

Layer: ops. Input: nothing. Output: ``input``, ``const`` and ``cast`` OpDefs. A scalar constant
carries its value as a Python number; a tensor constant carries a read-only NumPy array.
"""

from __future__ import annotations

import numpy as np

from ..dtypes import int64
from .registry import ELEMENTWISE, SOURCE, OpDef, register


def _no_inputs(*_, **__):
    raise TypeError("source ops take no inputs; their dtype and shape are given")


register(OpDef(name="input", kind=SOURCE, shape=_no_inputs, dtype=_no_inputs, numpy=None,
               doc="graph argument number `index`"))
register(OpDef(name="const", kind=SOURCE, shape=_no_inputs, dtype=_no_inputs, numpy=None,
               doc="a constant: `value` is a Python scalar or an array"))


def _cast_vjp(b, g, out, ins, *, dtype):
    if not ins[0].dtype.is_differentiable:
        return (None,)
    return (b.op("cast", g, dtype=ins[0].dtype),)


def _np_cast(a, *, dtype):
    """``a`` as ``dtype``; a complex value made real keeps its real part (torch's), made
    bool it is True where either part is nonzero (torch's and the C's ``z != 0``)."""
    if np.iscomplexobj(a) and dtype.name == "bool":
        return np.not_equal(a, 0)
    if np.iscomplexobj(a) and not dtype.is_complex:
        a = a.real
    return a.astype(dtype.np)


# cast is elementwise (it fuses into loops) but not promoted: its operand keeps its dtype. Its
# C is printed by codegen (a conversion, not an expression of SymPy's).
register(OpDef(
    name="cast", kind=ELEMENTWISE, shape=lambda s, **_: tuple(s),
    dtype=lambda d, *, dtype: dtype, saves=False,
    numpy=_np_cast, vjp=_cast_vjp, torch_name="ToCopyBackward0",
    doc="convert to `dtype` (to bool: x != 0)"))

register(OpDef(name="dim", kind=SOURCE, shape=lambda **_: (), dtype=lambda **_: int64,
               numpy=None,
               doc="an int64 size known at call time: `size` is a dims.Dim (shape-generic "
                   "code; its C is the size's expression)"))
