"""Tensor's operators and torch-named methods, bound to the functions that implement them.

Layer: front end, its top (importing it installs the methods; ``frontend/__init__`` does).
Input: the ``Tensor`` class and the modules that implement its methods. Output: nothing but the
methods set on ``Tensor`` (``x + y``, ``x.sum(1)``, ``x.T``, ``x[1:, None]``, ``backward``,
``detach``, ``repr``...). Kept apart from tensor.py so that the class holds state only and
depends on nothing above it, and each method is one line here.
"""

from __future__ import annotations

from .. import dtypes
from . import functional as F
from . import shapes as S
from .apply import apply, attach_function, register_view
from .autograd import backward
from .inplace import METHODS as INPLACE
from .pointwise import METHODS as POINTWISE
from .printing import tensor_repr
from .random import METHODS as RANDOM
from .tensor import Tensor


def _swap(fn):
    return lambda self, other: fn(other, self)


def _to(self: Tensor, dtype=None, *args, **kwargs) -> Tensor:
    """``x.to(dtype)``: a cast (devices are accepted and ignored: everything runs on the CPU)."""
    dtype = kwargs.get("dtype", dtype)
    if dtype is None or isinstance(dtype, str) or isinstance(dtype, Tensor):
        if isinstance(dtype, Tensor):
            dtype = dtype.dtype
        else:
            return self
    dt = dtypes.as_dtype(dtype)
    return self if self.dtype is dt else apply("cast", self, dtype=dt)


def _clone(self: Tensor) -> Tensor:
    """A copy (not a view); its backward passes the cotangent through and reads nothing, so
    the copy may be changed in place (``x.clone().mul_(x)``)."""
    out = Tensor(self._value.copy(), None) if self._value is not None else \
        Tensor(None, self._node)
    return attach_function(out, "CloneBackward0", lambda g, o, ins: (g,), [self], saves=False,
                           uses_out=False)


def _detach(self: Tensor) -> Tensor:
    """The same data (in-place changes show through both), cut from the backward graph."""
    t = Tensor(self._value, self._node)
    register_view(t, self, "alias", {})
    return t


def _detach_(self: Tensor) -> Tensor:
    self.grad_fn = None
    self._requires_grad = False
    return self


def _all(self: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    as_int = F.logical_not(self.to(dtypes.bool_)).to(dtypes.int64)
    return F.eq(F.sum(as_int, dim, keepdim), 0)


def _any(self: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    as_int = self.to(dtypes.bool_).to(dtypes.int64)
    return F.gt(F.sum(as_int, dim, keepdim), 0)


METHODS = {
    # arithmetic operators
    "__add__": F.add, "__radd__": _swap(F.add), "__sub__": F.sub, "__rsub__": _swap(F.sub),
    "__mul__": F.mul, "__rmul__": _swap(F.mul), "__truediv__": F.div,
    "__rtruediv__": _swap(F.div), "__pow__": F.pow, "__rpow__": _swap(F.pow),
    "__matmul__": F.matmul, "__rmatmul__": _swap(F.matmul),
    "__neg__": F.neg, "__abs__": F.abs, "__pos__": lambda self: self,
    "__lt__": F.lt, "__le__": F.le, "__gt__": F.gt, "__ge__": F.ge, "__eq__": F.eq,
    "__ne__": F.ne, "__and__": F.logical_and, "__or__": F.logical_or,
    "__invert__": F.logical_not, "__getitem__": S.getitem,
    # elementwise methods
    "add": F.add, "sub": F.sub, "mul": F.mul, "div": F.div, "pow": F.pow, "neg": F.neg,
    "exp": F.exp, "log": F.log, "log1p": F.log1p, "expm1": F.expm1, "sqrt": F.sqrt,
    "rsqrt": F.rsqrt, "sin": F.sin, "cos": F.cos, "tanh": F.tanh, "sigmoid": F.sigmoid,
    "relu": F.relu, "abs": F.abs, "sign": F.sign, "square": F.square, "clamp": F.clamp,
    "clip": F.clamp, "maximum": F.maximum, "minimum": F.minimum, "eq": F.eq, "ne": F.ne,
    "lt": F.lt, "le": F.le, "gt": F.gt, "ge": F.ge, "isnan": F.isnan, "isinf": F.isinf,
    "isfinite": F.isfinite, "logical_not": F.logical_not,
    # reductions
    "sum": F.sum, "mean": F.mean, "prod": F.prod, "max": F.max, "min": F.min,
    "amax": F.amax, "amin": F.amin, "argmax": F.argmax, "argmin": F.argmin, "norm": F.norm,
    "logsumexp": F.logsumexp, "softmax": F.softmax, "log_softmax": F.log_softmax,
    "all": _all, "any": _any,
    # linear algebra
    "matmul": F.matmul, "mm": F.mm, "dot": F.dot, "bmm": F.bmm,
    # shapes
    "reshape": S.reshape, "view": S.view, "flatten": S.flatten, "permute": S.permute,
    "transpose": S.transpose, "t": S.t, "unsqueeze": S.unsqueeze, "squeeze": S.squeeze,
    "expand": S.expand, "expand_as": S.expand_as, "broadcast_to": S.broadcast_to,
    # conversion
    "to": _to, "float": lambda self: _to(self, dtypes.float32),
    "double": lambda self: _to(self, dtypes.float64), "long": lambda self: _to(self, dtypes.int64),
    "bool": lambda self: _to(self, dtypes.bool_), "type": _to, "clone": _clone,
    "contiguous": lambda self: self, "cpu": lambda self: self,
    # autograd
    "backward": backward, "detach": _detach, "detach_": _detach_,
    "__repr__": tensor_repr,
}

for _name, _fn in {**METHODS, **INPLACE, **POINTWISE, **RANDOM}.items():
    setattr(Tensor, _name, _fn)
Tensor.T = property(S.T)
Tensor.mT = property(lambda self: S.transpose(self, -2, -1))
Tensor.data = property(_detach)
