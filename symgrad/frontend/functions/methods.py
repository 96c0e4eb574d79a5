"""Tensor's operators and torch-named methods, bound to the functions that implement them.

Layer: front end, its top (importing it installs the methods; ``frontend/__init__`` does).
Input: the ``Tensor`` class and the modules that implement its methods. Output: nothing but the
methods set on ``Tensor`` (``x + y``, ``x.sum(1)``, ``x.T``, ``x[1:, None]``, ``backward``,
``detach``, ``repr``...). Kept apart from tensor.py so that the class holds state only and
depends on nothing above it, and each method is one line here.
"""

from __future__ import annotations

import os
import sys
import warnings

from ... import dtypes
from ...config import PACKAGE_DIR
from . import basic as F
from . import indexing as I
from . import shapes as S
from ...devices import device as Device, check as check_device
from ..core.apply import apply, as_tensor, register_view
from ..core.faithful import body_barrier
from .creation import METHODS as CREATION
from .decompositions import METHODS as DECOMPOSITIONS
from .linalg_methods import METHODS as LINALG_MORE
from .strided import METHODS as STRIDED, clone  # noqa: F401  (symgrad.clone)
from .complexes import METHODS as COMPLEXES, PROPERTIES as COMPLEX_PROPERTIES
from .norms import torch_norm
from ..core.grad_mode import no_grad
from ..core.sources import current
from ..core.engine import backward
from .inplace import METHODS as INPLACE
from .keywords import torch_keywords
from .dtype_checks import guard
from .manipulation import METHODS as MANIPULATION
from .views_more import METHODS as VIEWS_MORE
from .view_updates import METHODS as VIEW_UPDATES
from .sorting import METHODS as SORTING
from .statistics import METHODS as STATISTICS
from .scans import METHODS as SCANS
from .assorted import METHODS as ASSORTED
from .bitwise import METHODS as BITWISE
from .legacy_types import METHODS as LEGACY
from .device_methods import METHODS as DEVICE
from .products import METHODS as PRODUCTS
from .searching import METHODS as SEARCHING
from .spellings import METHODS as SPELLINGS
from .integer_math import METHODS as INTEGER_MATH
from .flat_index import METHODS as FLAT_INDEX
from .scaling import METHODS as SCALING
from .scatters import METHODS as SCATTER_REDUCE
from .histogram import METHODS as HISTOGRAM
from . import pointwise as P
from .pointwise import reciprocal
from .pointwise_methods import METHODS as POINTWISE
from .special_functions import METHODS as SPECIAL
from ..core.hooks import METHODS as HOOKS
from .printing import tensor_repr
from ..random.sampling import METHODS as RANDOM
from ..core import lazy, lazy_composite, lazy_updates, plain_ops, tensor as tensor_mod
from ..core.tensor import Tensor


def _swap(fn):
    return lambda self, other: fn(other, self)


def _rsub(self: Tensor, other) -> Tensor:
    """``3 - x``: torch's ``rsub`` (its grad_fn is ``RsubBackward1``, an edge for ``x``; with
    a tensor ``other``, ``RsubBackward0``, edges for ``x`` and ``other``)."""
    F.sub_check(other, self)
    if isinstance(other, Tensor):
        return apply("sub", other, self, _torch_name="RsubBackward0", _shown=(1, 0))
    return apply("sub", other, self, _torch_name="RsubBackward1", _shown=(1,))


def _rdiv(self: Tensor, other) -> Tensor:
    """``4 / x``: torch computes ``x.reciprocal() * 4``, a tensor ``other`` too (so do we:
    the same rounding, and MulBackward0; an integer ``x`` gives float32 times ``other``)."""
    return F.mul(reciprocal(self), other)


def _commuted(fn):
    """``2 * x`` is ``x * 2`` in torch (``x.__rmul__(2)`` calls ``mul(x, 2)``): the number is
    the second operand, as ``next_functions`` shows."""
    return lambda self, other, **keywords: fn(self, other, **keywords)   # (add's alpha)


def _to(self: Tensor, *args, dtype=None, device=None, copy: bool = False, **_) -> Tensor:
    """``x.to(dtype)``, ``x.to(device)``, ``x.to(device, dtype)``, ``x.to(other)``: a cast;
    the device must be the CPU (``non_blocking``, ``memory_format`` are accepted)."""
    flags = [a for a in args if isinstance(a, bool)]   # non_blocking, copy: after the rest
    for a in args:
        if isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, (str, Device, int)) and not isinstance(a, bool):
            device = a
        elif not isinstance(a, bool):
            dtype = a
    copy = flags[1] if len(flags) > 1 else copy
    if isinstance(device, int) and not isinstance(device, bool):   # an accelerator's index
        raise RuntimeError("Cannot access accelerator device when none is available.")
    check_device(device)
    out = self if dtype is None else _cast(self, dtypes.as_dtype(dtype))
    return apply("cast", out, dtype=out.dtype) if copy and out is self else out   # _to_copy


def _cast(self: Tensor, dt) -> Tensor:
    return self if self.dtype is dt else apply("cast", self, dtype=dt)


def _cuda(self: Tensor, *args, **kwargs) -> Tensor:
    check_device("cuda")   # raises torch's error: there is no GPU here
    return self


@lazy_updates.updates
def _set_data(self: Tensor, value) -> None:
    """``w.data = t``: replace the tensor's value (not its autograd history), torch's way: the
    new value must have the same dtype; the shape may change."""
    if not isinstance(value, Tensor):
        raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
    if value.dtype is not self.dtype:
        raise RuntimeError(f"data set to a tensor that requires gradients must match its "
                           f"dtype: {self.dtype.name} vs {value.dtype.name}"
                           if self._requires_grad else
                           f"data: expected a tensor of dtype {self.dtype.name}, got "
                           f"{value.dtype.name}")
    self._value, self._node, self.shape = value._value, value._node, value.shape


def _equal(self: Tensor, other) -> bool:
    """``torch.equal``: the same shape and the same values."""
    other = as_tensor(other)
    return self.shape == other.shape and bool(_all(F.eq(self, other)))


def isclose(a, b, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """``a == b`` or a finite ``|a - b| <= atol + rtol * |b|`` elementwise (NaNs equal if
    ``equal_nan``), as torch's: infinities are close only to themselves."""
    a, b = as_tensor(a), as_tensor(b)
    for name, tolerance in (("rtol", rtol), ("atol", atol)):
        if tolerance < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got "
                               f"{tolerance:g}")
    if a.dtype.is_bool and b.dtype.is_bool:      # bools compare as the numbers 0 and 1
        a, b = a.to(dtypes.int64), b.to(dtypes.int64)
    with no_grad():
        error = F.abs(a - b)
        within = F.logical_and(F.isfinite(error), F.le(error, atol + rtol * F.abs(b)))
        close = F.logical_or(F.eq(a, b), within)
        if equal_nan:
            close = F.logical_or(close, F.logical_and(F.isnan(a), F.isnan(b)))
    return close


def allclose(a, b, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """Whether every element of ``a`` is close to ``b``'s (see ``isclose``)."""
    return bool(_all(isclose(a, b, rtol, atol, equal_nan)))


def _detach(self: Tensor) -> Tensor:
    """The same data (in-place changes show through both), cut from the backward graph (in a
    loop body being traced, by a node if the program asked: ``_cut``)."""
    if lazy.WATCH[0] and lazy.STATE.region is not None and current() is None:
        return lazy_composite.detached(self)   # (an eager step being captured: recorded)
    t = Tensor(self._value, _cut(self))
    register_view(t, self, "alias", {})
    return t


def _detach_(self: Tensor) -> Tensor:
    if self._requires_grad and tensor_mod.FLAG_CHANGE[0] is not None:
        tensor_mod.FLAG_CHANGE[0](self)   # (a captured step that read it ends first)
    self.grad_fn = None
    self._requires_grad = False
    self._node = _cut(self)
    return self


# The torch spellings between a program and ``_detach`` (torch.detach, keyword handling).
_SPELLINGS = (__file__, *(os.path.join(os.path.dirname(__file__), name)
                          for name in ("spellings.py", "keywords.py")))
_NN = os.path.join(PACKAGE_DIR, "nn") + os.sep


def _cut(t: Tensor):
    """``t``'s node, or in a loop body being traced its ``stop_gradient`` (``body_barrier``)
    when the program asked for the detach: its own code, or torch.nn's functions that symgrad
    mirrors (a straight-through estimator is a detach). Not when symgrad's autograd machinery
    detaches to attach a rule of its own (``attach_function``): the loop's rule differentiates
    the body's nodes, and through those the value is what the rule differentiates."""
    rec = current()
    if t._value is not None or rec is None or rec.body is None:
        return t._node
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename in _SPELLINGS:
        frame = frame.f_back
    where = frame.f_code.co_filename if frame is not None else ""
    if where.startswith(PACKAGE_DIR) and not where.startswith(_NN):
        return t._node
    return body_barrier(t, "stop_gradient") or t._node


def _all(self: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    """``torch.all``: whether every element (along ``dim``) is nonzero."""
    as_int = F.logical_not(self.to(dtypes.bool_)).to(dtypes.int64)
    if dim == () or dim == []:       # torch's all with dim=() reduces no dim (sum: every dim)
        return _truth(F.eq(as_int, 0), self)
    return _truth(F.eq(F.sum(as_int, dim, keepdim), 0), self)


def _any(self: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    """``torch.any``: whether some element (along ``dim``) is nonzero."""
    as_int = self.to(dtypes.bool_).to(dtypes.int64)
    if dim == () or dim == []:       # (as all's)
        return _truth(F.gt(as_int, 0), self)
    return _truth(F.gt(F.sum(as_int, dim, keepdim), 0), self)


def _truth(result: Tensor, x: Tensor) -> Tensor:
    """all/any's result: bool, but uint8 (0 or 1) of a uint8 tensor, as torch's."""
    return result.to(dtypes.uint8) if x.dtype is dtypes.uint8 else result


all = _all  # noqa: A001  (torch's names)
any = _any  # noqa: A001
equal = _equal


def numel(x: Tensor) -> int:
    return x.numel()


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def is_floating_point(x: Tensor) -> bool:
    return x.dtype.is_floating


METHODS = {
    # arithmetic operators
    "__add__": F.add, "__radd__": _commuted(F.add), "__sub__": F.sub, "__rsub__": _rsub,
    "__mul__": F.mul, "__rmul__": _commuted(F.mul), "__truediv__": P.div,
    "__rtruediv__": _rdiv, "__pow__": F.pow, "__rpow__": _swap(F.pow),
    "__matmul__": F.matmul, "__rmatmul__": _swap(F.matmul),
    "__neg__": F.neg, "__abs__": F.abs, "__pos__": P.positive,
    "__lt__": F.lt, "__le__": F.le, "__gt__": F.gt, "__ge__": F.ge, "__eq__": F.eq,
    "__ne__": F.ne, "__getitem__": I.index, "__setitem__": I.setitem,
    # elementwise methods
    "add": F.add, "sub": F.sub, "mul": F.mul, "div": F.div, "pow": F.pow, "neg": F.neg,
    "exp": F.exp, "log": F.log, "log1p": F.log1p, "expm1": F.expm1, "sqrt": F.sqrt,
    "rsqrt": F.rsqrt, "sin": F.sin, "cos": F.cos, "tanh": F.tanh, "sigmoid": F.sigmoid,
    "relu": F.relu, "abs": F.abs, "sign": F.sign, "square": F.square, "clamp": F.clamp,
    "clamp_min": F.clamp_min, "clamp_max": F.clamp_max, "clip": F.clamp,
    "maximum": F.maximum, "minimum": F.minimum, "eq": F.eq, "ne": F.ne,
    "lt": F.lt, "le": F.le, "gt": F.gt, "ge": F.ge, "isnan": F.isnan, "isinf": F.isinf,
    "isfinite": F.isfinite, "logical_not": F.logical_not,
    # reductions
    "sum": F.sum, "mean": F.mean, "prod": F.prod, "max": F.max, "min": F.min,
    "amax": F.amax, "amin": F.amin, "argmax": F.argmax, "argmin": F.argmin, "norm": torch_norm,
    "logsumexp": F.logsumexp, "softmax": F.softmax, "log_softmax": F.log_softmax,
    "gather": F.gather, "take_along_dim": F.take_along_dim,
    "all": _all, "any": _any,
    # linear algebra
    "matmul": F.matmul, "mm": F.mm, "dot": F.dot, "bmm": F.bmm,
    # shapes
    "reshape": S.reshape, "view": S.view, "flatten": S.flatten, "permute": S.permute,
    "transpose": S.transpose, "t": S.t, "unsqueeze": S.unsqueeze, "squeeze": S.squeeze,
    "expand": S.expand, "expand_as": S.expand_as, "broadcast_to": S.broadcast_to,
    # conversion, devices
    "to": _to, "float": lambda self, **_: _cast(self, dtypes.float32),
    "double": lambda self, **_: _cast(self, dtypes.float64),
    "long": lambda self, **_: _cast(self, dtypes.int64),
    "int": lambda self, **_: _cast(self, dtypes.int32),
    "short": lambda self, **_: _cast(self, dtypes.int16),
    "char": lambda self, **_: _cast(self, dtypes.int8),
    "byte": lambda self, **_: _cast(self, dtypes.uint8),
    "half": lambda self, **_: _cast(self, dtypes.float16),
    "bool": lambda self, **_: _cast(self, dtypes.bool_),
    "type_as": lambda self, other: _cast(self, other.dtype),
    "cpu": lambda self, **_: self, "cuda": _cuda,
    # comparisons of whole tensors
    "equal": _equal, "allclose": allclose, "isclose": isclose,
    # shapes of other tensors
    "view_as": lambda self, other: S.view(self, other.shape),
    "reshape_as": lambda self, other: S.reshape(self, other.shape),
    # autograd
    "backward": backward, "detach": _detach, "detach_": _detach_,
    "__repr__": tensor_repr,
}

def _adjoint(x: Tensor, name: str, least: int, most) -> Tensor:
    """The conjugate transpose of the last two dims (``H``: of a matrix, or of a 0-d tensor,
    deprecated by torch: its conjugate)."""
    if most is not None and x.ndim == 0:
        warnings.warn("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().",
                      UserWarning, stacklevel=3)
    elif x.ndim < least or (most is not None and x.ndim != most):
        raise RuntimeError(f"tensor.{name} is only supported on matrices (2-D tensors). Got "
                           f"{x.ndim}-D tensor." + (" For batches of matrices, consider using "
                                                    "tensor.mH" if x.ndim > 2 else "")
                           if most else f"tensor.{name} is only supported on matrices or "
                           f"batches of matrices. Got {x.ndim}-D tensor.")
    t = S.transpose(x, -2, -1) if x.ndim >= 2 else x
    return apply("conj", t) if x.dtype.is_complex else t


_BOUND = {_name: _fn if _name.startswith("__") else torch_keywords(_fn, method=True)
          for _name, _fn in {**METHODS, **CREATION, **MANIPULATION, **SORTING, **INPLACE,
                             **POINTWISE, **RANDOM, **HOOKS, **STATISTICS, **SCANS, **ASSORTED,
                             **PRODUCTS, **SEARCHING, **DECOMPOSITIONS, **STRIDED, **COMPLEXES,
                             **LEGACY, **DEVICE, **BITWISE, **VIEWS_MORE,
                             **VIEW_UPDATES, **LINALG_MORE,
                             **SPECIAL, **SPELLINGS, **INTEGER_MATH,
                             **FLAT_INDEX, **SCALING, **SCATTER_REDUCE, **HISTOGRAM}.items()}
guard(_BOUND, "Tensor")   # torch's refusals by dtype (kernel_dtypes)
plain_ops.install(_BOUND)   # (over the checks: the operators' NumPy-speed lane)
for _name, _fn in _BOUND.items():
    setattr(Tensor, _name, _fn)
Tensor.__itruediv__ = POINTWISE["div_"]   # (with div's rounding_mode, as torch's)
for _name, (_get, _set) in COMPLEX_PROPERTIES.items():
    setattr(Tensor, _name, property(_get, _set))
Tensor.T = property(S.T)
Tensor.mT = property(lambda self: S.transpose(self, -2, -1))
Tensor.mH = property(lambda self: _adjoint(self, "mH", 2, None))
Tensor.H = property(lambda self: _adjoint(self, "H", 0, 2))
Tensor.data = property(_detach, _set_data)
