"""torch's integer-only elementwise functions: ``gcd lcm bitwise_left_shift
bitwise_right_shift`` (torch and Tensor, their in-place forms, ``<< >> <<= >>=``).

Layer: front end (functions). Input: integer (or bool, for the shifts) tensors and Python
ints; floating operands are refused by the dtype table (``kernel_dtypes``: torch's
``"gcd_cpu"``, ``"lshift_cpu"``... NotImplementedError). Output: tensors of the operands'
promoted dtype, composed of integer primitives with torch's CPU kernels' arithmetic:
``gcd`` is Euclid's loop on absolute values (C's truncating ``b % a`` until ``a`` is 0;
eagerly until every element is done, traced a fixed number of steps that suffices for the
dtype), ``lcm`` is ``|a / gcd * b|`` (0 where the gcd is 0); ``a << b`` is ``a * 2**b``
wrapped in the dtype, ``a >> b`` a floor division by ``2**b`` (arithmetic); a shift by a
negative count or by the dtype's width or more gives 0 (``>>`` of a signed value: its sign,
-1 or 0), as torch's.
"""

from __future__ import annotations

from ...ops.registry import broadcast_shapes
from ..core.apply import apply, as_tensor
from ..core.tensor import Tensor
from . import basic as F
from .assorted import result_type
from .inplace import update

# Euclid's steps that suffice for any pair of a dtype's values (Lame: log_phi(max) + 2)
_STEPS = {1: 14, 2: 26, 4: 48, 8: 94}
_NUMBERS = (Tensor, int, float, bool)


def _operands(name: str, input, other, numbers: bool) -> tuple:
    """Both operands as tensors of their promoted dtype (a Python number takes the tensor's
    kind, as in any arithmetic), or torch's TypeError."""
    allowed = _NUMBERS if numbers else (Tensor,)
    for position, (what, x) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(x, allowed):
            raise TypeError(f"{name}(): argument '{what}' (position {position}) must be "
                            f"Tensor, not {type(x).__name__}")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    dt = result_type(input, other)
    if numbers and (dt.is_floating or dt.is_complex):   # (a Python float made it one)
        raise NotImplementedError(f"\"{name[8:10]}shift_cpu\" not implemented for "
                                  f"'{dt.scalar_type}'")
    a = input.to(dt) if isinstance(input, Tensor) else as_tensor(input, dt)
    b = other.to(dt) if isinstance(other, Tensor) else as_tensor(other, dt)
    return a, b, dt


def _euclid(a: Tensor, b: Tensor, dt) -> Tensor:
    a, b = F.abs(a), F.abs(b)
    shape = broadcast_shapes(tuple(a.shape), tuple(b.shape))
    a, b = a.expand(shape), b.expand(shape)
    for _ in range(_STEPS[dt.itemsize]):
        going = F.ne(a, 0)
        if a.concrete is not None and not bool(going.any()):
            break
        safe = F.where(going, a, as_tensor(1, dt))
        a, b = F.where(going, apply("fmod", b, safe), as_tensor(0, dt)), F.where(going, a, b)
    return b


def gcd(input, other) -> Tensor:  # noqa: A002
    """The greatest common divisor, elementwise (0 of 0 and 0)."""
    a, b, dt = _operands("gcd", input, other, numbers=False)
    return _euclid(a, b, dt)


def lcm(input, other) -> Tensor:  # noqa: A002
    """The least common multiple, elementwise: ``|a / gcd(a, b) * b|``, 0 where the gcd is."""
    a, b, dt = _operands("lcm", input, other, numbers=False)
    g = _euclid(a, b, dt)
    zero = F.eq(g, 0)
    quotient = apply("floor_divide", a, F.where(zero, as_tensor(1, dt), g))
    return F.where(zero, as_tensor(0, dt), F.abs(quotient * b))


def _powers_of_two(count: Tensor, valid: Tensor, dt) -> Tensor:
    return F.pow(as_tensor(2, dt), F.where(valid, count, as_tensor(0, dt)))


def bitwise_left_shift(input, other) -> Tensor:  # noqa: A002
    """``input << other``: 0 for a count below 0 or of the dtype's width or more."""
    a, b, dt = _operands("bitwise_left_shift", input, other, numbers=True)
    valid = F.logical_and(F.ge(b, 0), F.lt(b, 8 * dt.itemsize))
    return F.where(valid, a * _powers_of_two(b, valid, dt), as_tensor(0, dt))


def bitwise_right_shift(input, other) -> Tensor:  # noqa: A002
    """``input >> other``, arithmetic: a count out of range gives the sign (-1 or 0)."""
    a, b, dt = _operands("bitwise_right_shift", input, other, numbers=True)
    width = 8 * dt.itemsize - (1 if dt.is_signed else 0)
    valid = F.logical_and(F.ge(b, 0), F.lt(b, width))
    shifted = apply("floor_divide", a, _powers_of_two(b, valid, dt))
    beyond = F.where(F.lt(a, 0), as_tensor(-1, dt), as_tensor(0, dt)) if dt.is_signed \
        else as_tensor(0, dt)
    return F.where(valid, shifted, beyond)


def _inplace(fn, name: str):
    def method(self: Tensor, other) -> Tensor:
        return update(self, lambda s: fn(s, other), name)
    method.__name__ = name
    return method


def _reflected(fn):
    def method(self: Tensor, other) -> Tensor:
        return fn(other, self)
    return method


__all__ = ["gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift"]
METHODS = {
    **{name: globals()[name] for name in __all__},
    **{f"{name}_": _inplace(globals()[name], f"{name}_") for name in __all__},
    "__lshift__": bitwise_left_shift, "__rshift__": bitwise_right_shift,
    "__rlshift__": _reflected(bitwise_left_shift),
    "__rrshift__": _reflected(bitwise_right_shift),
    "__ilshift__": _inplace(bitwise_left_shift, "bitwise_left_shift_"),
    "__irshift__": _inplace(bitwise_right_shift, "bitwise_right_shift_"),
}
