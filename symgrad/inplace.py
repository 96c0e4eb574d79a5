"""In-place tensor operations (``add_``, ``mul_``, ``zero_``, ``x += 1``...) with torch's rules.

Input: a tensor and an operand. Output: the same tensor object, updated. The new value is the
out-of-place op's result: eagerly it is written into the tensor's array (so ``detach()``/``.data``
aliases see it), at trace time the tensor is rebound to the result's node. torch's rules hold:
a leaf that requires grad may only be updated under ``no_grad``; the result must fit the tensor's
shape and dtype; a tensor saved for a backward and changed in place afterwards makes that
backward raise (version counters, checked in autodiff).
"""

from __future__ import annotations

import numpy as np

from . import state
from . import functional as F
from .tensor import Tensor, apply, as_tensor


def _snapshot(t: Tensor) -> Tensor:
    """``t``'s current value and place in the backward graph, as a separate tensor: what the
    op reads, so that rules saving their inputs keep the value from before the update."""
    old = Tensor(None if t._value is None else t._value.copy(), t._node)
    old._requires_grad, old.grad_fn = t._requires_grad, t.grad_fn
    if t.grad_fn is None and t._requires_grad:
        old._accumulator = t._grad_edge()
    return old


def update(t: Tensor, compute, name: str) -> Tensor:
    """Replace ``t``'s value with ``compute(t)`` in place, the torch way."""
    recording = state.is_grad_enabled()
    if recording and t._requires_grad and t.grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    source = _snapshot(t) if recording and t._requires_grad else t
    result = compute(source)
    if result.shape != t.shape:
        raise RuntimeError(f"output with shape {list(t.shape)} doesn't match the broadcast "
                           f"shape {list(result.shape)} ({name})")
    if result.dtype is not t.dtype:
        if result.dtype.category > t.dtype.category:
            raise RuntimeError(f"result type {result.dtype.name} can't be cast to the desired "
                               f"output type {t.dtype.name} ({name})")
        result = apply("cast", result, dtype=t.dtype)
    if t._value is not None and result._value is not None:
        np.copyto(t._value, result._value)
    else:
        t._value, t._node = result._value, result.node
    t._version[0] += 1
    if result._requires_grad:
        t._requires_grad, t.grad_fn = True, result.grad_fn
    return t


def _binary(fn, name):
    def method(self, other, *, alpha=None):
        other = other if alpha is None else F.mul(other, alpha)
        return update(self, lambda s: fn(s, other), name)
    method.__name__ = name
    return method


add_ = _binary(F.add, "add_")
sub_ = _binary(F.sub, "sub_")
mul_ = _binary(F.mul, "mul_")
div_ = _binary(F.div, "div_")
pow_ = _binary(F.pow, "pow_")


def fill_(self: Tensor, value) -> Tensor:
    """Set every element to ``value``; the gradient to what was there before is zero."""
    def compute(s):
        every = Tensor(np.ones(s.shape, np.bool_), None)
        return apply("where", every, as_tensor(value, s.dtype) if isinstance(value, Tensor)
                     else value, s, _torch_name="FillBackward0")
    return update(self, compute, "fill_")


def zero_(self: Tensor) -> Tensor:
    return fill_(self, 0)


def copy_(self: Tensor, src) -> Tensor:
    """Copy ``src`` (broadcast to this shape) into this tensor; the gradient goes to ``src``."""
    def compute(s):
        value = as_tensor(src)
        return apply("expand", value, shape_to=s.shape) if value.shape != s.shape else \
            apply("reshape", value, shape_to=s.shape, _torch_name="CopyBackwards")
    return update(self, compute, "copy_")


def clamp_(self: Tensor, min=None, max=None) -> Tensor:  # noqa: A002
    return update(self, lambda s: F.clamp(s, min, max), "clamp_")


METHODS = {"add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_, "pow_": pow_,
           "fill_": fill_, "zero_": zero_, "copy_": copy_, "clamp_": clamp_,
           "__iadd__": add_, "__isub__": sub_, "__imul__": mul_, "__itruediv__": div_,
           "__ipow__": pow_}

