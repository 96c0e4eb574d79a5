"""Integer powers, as torch computes them: exactly, by repeated squaring, products wrapping
modulo 2**bits.

Layer: front end (below ``basic``, whose ``pow`` calls it). Input: integer or bool tensors
and Python integers. Output: a tensor of the operands' promoted integer dtype. An integer to
a negative integer power is 0 but for bases 1 and -1 (torch's integer kernel); a Python
negative exponent is torch's error instead. Computed in int64 (a product of wrapped values
wraps to the same value in a narrower type) and cast back; for a tensor of exponents the
squarings run over the exponents' bits (all 63 in a trace, where the values are unknown).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ... import dtypes
from ..core.apply import apply, full
from ..core.tensor import Tensor

_EXACT = (int, bool)


def power_by_squaring(a: Tensor, e: int, times: Callable) -> Tensor:
    """``a`` to the power ``e`` >= 1 under the product ``times`` (elementwise or matrix), by
    repeated squaring: about log2(e) products."""
    result = None
    while e:
        if e & 1:
            result = a if result is None else times(result, a)
        e >>= 1
        if e:
            a = times(a, a)
    return result


def _mul(a, b) -> Tensor:
    return apply("mul", a, b)


def int_power(a: Tensor, e: int) -> Tensor:
    """An int64 tensor to a Python int power, an int64 tensor as in torch, computed exactly by
    repeated squaring (products wrap like torch's; the float ``pow`` would round past 2**24)."""
    if e < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return power_by_squaring(a, e, _mul) if e else full(a, 1)


def _is_exact(x) -> bool:
    if isinstance(x, Tensor):
        return not x.dtype.is_differentiable
    return type(x) in _EXACT


def integer_operands(a, b) -> bool:
    """Whether ``a ** b`` is torch's integer power: both operands integers or bools, one of
    them a tensor."""
    return (isinstance(a, Tensor) or isinstance(b, Tensor)) and _is_exact(a) and _is_exact(b)


def _rank(x) -> tuple:
    if isinstance(x, Tensor):
        return x.dtype, dtypes.RANK_TENSOR if x.ndim else dtypes.RANK_ZERO_DIM
    return dtypes.scalar_dtype(x), dtypes.RANK_SCALAR


def _wide(x, dtype: dtypes.DType) -> Tensor:
    """``x`` in ``dtype`` (a Python number wrapped into it, as torch's), then in int64."""
    if not isinstance(x, Tensor):
        x = Tensor(np.array(x).astype(dtype.np), None)
    elif x.dtype is not dtype:
        x = apply("cast", x, dtype=dtype)
    return x if x.dtype is dtypes.int64 else apply("cast", x, dtype=dtypes.int64)


def _bits(e: Tensor) -> int:
    """How many squarings exponents ``e`` (>= 0) need: their largest's bit length, or 63 in
    a trace."""
    if e._value is None:
        return 63
    return int(e._value.max()).bit_length() if e._value.size else 0


def int_powers(a, b) -> Tensor:
    """``a ** b`` elementwise for integer (or bool) operands: torch's integer ``pow``."""
    dtype = dtypes.promote([_rank(a), _rank(b)])
    if dtype.is_bool:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    base, e = _wide(a, dtype), _wide(b, dtype)
    negative = apply("lt", e, 0)
    e = apply("where", negative, 0, e)
    result = apply("add", apply("mul", apply("mul", base, e), 0), 1)   # ones, broadcast
    for _ in range(_bits(e)):
        odd = apply("eq", apply("remainder", e, 2), 1)
        result = apply("where", odd, apply("mul", result, base), result)
        e = apply("floor_divide", e, 2)
        base = apply("mul", base, base)
    # a negative power: 1 for base 1, +-1 for base -1 (by the exponent's parity), else 0
    sign = apply("where", apply("eq", apply("remainder", _wide(b, dtype), 2), 0), 1, -1)
    unit = apply("where", apply("eq", _wide(a, dtype), 1), 1,
                 apply("where", apply("eq", _wide(a, dtype), -1), sign, 0))
    result = apply("where", negative, unit, result)
    return result if dtype is dtypes.int64 else apply("cast", result, dtype=dtype)
