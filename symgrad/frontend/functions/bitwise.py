"""torch's bitwise functions and operators: ``bitwise_and/or/xor/not``, ``& | ^ ~`` (and their
reflected and in-place forms) on integer and bool tensors.

Layer: front end. Input: tensors and Python numbers (a Python int wraps into an integer dtype,
as in any arithmetic). Output: tensors of the operands' promoted dtype, by the primitives of
``ops/bitwise.py``: bitwise on integers, logical on bools (``bool & int64`` is int64).
Floating and complex operands raise torch's errors: the kernel's NotImplementedError, or
for ``~`` the TypeError of torch's operator.
"""

from __future__ import annotations

from ..core.apply import apply
from ..core.tensor import Tensor
from .inplace import update
from .keywords import write_out


_OPERANDS = (Tensor, int, float, complex)


def _checked(name: str, *operands) -> tuple:
    """The operands, or the TypeError of torch's argument parser (a list is no operand)."""
    for x in operands:
        if not isinstance(x, _OPERANDS):
            got = ", ".join(type(o).__name__ for o in operands)
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"({got}), but expected (Tensor input, Tensor other) or (Tensor "
                            f"input, Number other)")
    return operands


def bitwise_and(input, other) -> Tensor:  # noqa: A002
    return apply("bitwise_and", *_checked("bitwise_and", input, other))


def bitwise_or(input, other) -> Tensor:  # noqa: A002
    return apply("bitwise_or", *_checked("bitwise_or", input, other))


def bitwise_xor(input, other) -> Tensor:  # noqa: A002
    return apply("bitwise_xor", *_checked("bitwise_xor", input, other))


def bitwise_not(input, *, out=None) -> Tensor:  # noqa: A002
    """``~input``; ``out=`` must have the result's dtype (torch's unary kernel's rule)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"bitwise_not(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    result = apply("bitwise_not", input)
    if out is None:
        return result
    if isinstance(out, Tensor) and out.dtype is not result.dtype:
        raise RuntimeError(f"Found dtype {out.dtype.scalar_type} but expected "
                           f"{result.dtype.scalar_type}")
    return write_out(out, result)


def _invert(self: Tensor) -> Tensor:
    if self.dtype.kind in ("float", "complex"):
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return apply("bitwise_not", self)


def _operator(fn, reflected: bool = False):
    def method(self, other):
        if not isinstance(other, (Tensor, int, float, complex)):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)
    return method


def _inplace(fn, name: str):
    def method(self, *args):
        return update(self, lambda s: fn(s, *args), name)
    method.__name__ = name
    return method


_FUNCTIONS = {"bitwise_and": bitwise_and, "bitwise_or": bitwise_or,
              "bitwise_xor": bitwise_xor, "bitwise_not": bitwise_not}

METHODS = {
    **_FUNCTIONS,
    **{f"{name}_": _inplace(fn, f"{name}_") for name, fn in _FUNCTIONS.items()},
    "__and__": _operator(bitwise_and), "__rand__": _operator(bitwise_and, reflected=True),
    "__or__": _operator(bitwise_or), "__ror__": _operator(bitwise_or, reflected=True),
    "__xor__": _operator(bitwise_xor), "__rxor__": _operator(bitwise_xor, reflected=True),
    "__invert__": _invert,
    "__iand__": _operator(_inplace(bitwise_and, "bitwise_and_")),
    "__ior__": _operator(_inplace(bitwise_or, "bitwise_or_")),
    "__ixor__": _operator(_inplace(bitwise_xor, "bitwise_xor_")),
}

__all__ = ["bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor"]
