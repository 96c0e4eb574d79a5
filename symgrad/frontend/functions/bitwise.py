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


def bitwise_and(input, other) -> Tensor:  # noqa: A002
    return apply("bitwise_and", input, other)


def bitwise_or(input, other) -> Tensor:  # noqa: A002
    return apply("bitwise_or", input, other)


def bitwise_xor(input, other) -> Tensor:  # noqa: A002
    return apply("bitwise_xor", input, other)


def bitwise_not(input) -> Tensor:  # noqa: A002
    return apply("bitwise_not", input)


def _invert(self: Tensor) -> Tensor:
    if self.dtype.kind in ("float", "complex"):
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return apply("bitwise_not", self)


def _operator(fn):
    def method(self, other):
        if not isinstance(other, (Tensor, int, float, complex)):
            return NotImplemented
        return fn(self, other)
    return method


def _reflected(fn):
    def method(self, other):
        if not isinstance(other, (Tensor, int, float, complex)):
            return NotImplemented
        return fn(other, self)
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
    "__and__": _operator(bitwise_and), "__rand__": _reflected(bitwise_and),
    "__or__": _operator(bitwise_or), "__ror__": _reflected(bitwise_or),
    "__xor__": _operator(bitwise_xor), "__rxor__": _reflected(bitwise_xor),
    "__invert__": _invert,
    "__iand__": _operator(_inplace(bitwise_and, "bitwise_and_")),
    "__ior__": _operator(_inplace(bitwise_or, "bitwise_or_")),
    "__ixor__": _operator(_inplace(bitwise_xor, "bitwise_xor_")),
}

__all__ = ["bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor"]
