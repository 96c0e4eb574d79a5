"""Bitwise primitives: ``bitwise_and``, ``bitwise_or``, ``bitwise_xor``, ``bitwise_not`` (torch's
``& | ^ ~`` on tensors).

Layer: ops. Input: nothing. Output: registered elementwise ``OpDef``s, as in
``elementwise.py``. They are defined on integers and bools only (of bools, the logical ops);
a floating or complex dtype is torch's NotImplementedError naming its CPU kernel. Their
operands promote as arithmetic's (``bool & int64`` is int64); no gradient (integer results).
The C is C's operators (``scalar_functions.BitAnd``... print as ``&``, ``|``, ``^``, ``~``,
a bool's ``~`` as ``!``); narrower integers compute in int64 and are cast back, which keeps
their low bits exact.
"""

from __future__ import annotations

import numpy as np

from .elementwise import elementwise
from .registry import PROMOTE, same_dtype


def _fn(name: str):
    """A function class of ``scalar_functions`` (imports SymPy: expressions only)."""
    from . import scalar_functions
    return getattr(scalar_functions, name)


def _integer_dtype(name: str):
    """The dtype rule of a bitwise op: its operands' dtype, if integer or bool."""
    def rule(*dtypes, **_):
        d = same_dtype(*dtypes)
        if d.kind in ("float", "complex"):
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{d.scalar_type}\'')
        return d
    return rule


def _binary(cls: str):
    return lambda sp, x, y: _fn(cls)(x, y)


for _name, _cls, _np in (("bitwise_and", "BitAnd", np.bitwise_and),
                         ("bitwise_or", "BitOr", np.bitwise_or),
                         ("bitwise_xor", "BitXor", np.bitwise_xor)):
    elementwise(_name, _binary(_cls), _np, dtype=_integer_dtype(_name), promotion=PROMOTE,
                torch="NotImplemented")

elementwise("bitwise_not", lambda sp, x: _fn("BitNot")(x), np.invert,
            dtype=_integer_dtype("bitwise_not"), promotion=PROMOTE, torch="NotImplemented")
