"""torch-named scans and what is built on them: cumsum, cumprod, cummax, cummin,
logcumsumexp, diff, trapezoid/trapz, cumulative_trapezoid, and the in-place cumsum_/cumprod_.

Layer: front end, above ``functional``. Input: tensors. Output: tensors from the scan
primitives (``ops.scan``: one C loop along the axis when compiled, O(n)), with torch's
grad_fns (``CumsumBackward0``, ``CumprodBackward0``, ``CummaxBackward0``...), gradients that
differentiate again, and torch's dtypes: bool and integer cumsum/cumprod give int64.
cummax/cummin return torch's named tuple (values, indices); the values are a ``gather`` at the
indices, so their gradient goes to the element each running extremum came from, as in torch.
"""

from __future__ import annotations

from ... import dtypes
from ...ops import get
from ...ops.registry import normalize_axes
from . import basic as F
from ..core.apply import apply, full
from .cumprod_grad import cumprod_with_rule
from .inplace import update
from .pointwise import div_number, mul_number
from .printing import return_type
from .shapes import broadcast_to, cat, getitem, reshape
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

CummaxResult = return_type("cummax")
CumminResult = return_type("cummin")



def _axis(x: Tensor, dim) -> int:
    """The scanned axis (a 0-d tensor scans as a 1-element vector: dim 0 or -1)."""
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"expected dim to be an int, got {dim!r}")
    return normalize_axes(dim, max(x.ndim, 1))[0]


def _scan(name: str, x: Tensor, dim) -> Tensor:
    axis = _axis(x, dim)
    torch_name = get(name).torch_name
    if x.ndim == 0:
        out = apply(name, reshape(x, (1,)), axis=0, _torch_name=torch_name)
        return apply("reshape", out, shape_to=(), _torch_name=torch_name)
    return apply(name, x, axis=axis, _torch_name=torch_name)


def _accumulating(x, dtype) -> Tensor:
    """torch's dtype for cumsum/cumprod: ``dtype`` if given, else int64 for bool and integers
    (floating and complex tensors keep theirs)."""
    x = tensor_arg(x)
    if dtype is not None:
        return x.to(dtype)
    return x if x.dtype.is_differentiable else x.to(dtypes.int64)


def cumsum(x, dim, *, dtype=None) -> Tensor:
    """Running sums along ``dim``: ``out[i] = x[0] + ... + x[i]``."""
    return _scan("cumsum", _accumulating(x, dtype), dim)


def cumprod(x, dim, *, dtype=None) -> Tensor:
    """Running products along ``dim``; a real floating tensor's first-order gradient is
    torch's, which looks at zeros (``cumprod_grad``)."""
    x = _accumulating(x, dtype)
    if x.dtype.is_floating and x.ndim and 0 not in x.shape and (x.requires_grad or x.is_traced):
        return cumprod_with_rule(x, _axis(x, dim))
    return _scan("cumprod", x, dim)


def logcumsumexp(x, dim) -> Tensor:
    """``log(cumsum(exp(x)))`` along ``dim``, computed stably (each step a log-add-exp)."""
    x = tensor_arg(x)
    if not x.dtype.is_floating:
        raise RuntimeError(f'"logcumsumexp_out_cpu" not implemented for '
                           f'\'{x.dtype.scalar_type}\'')
    return _scan("logcumsumexp", x, dim)


def _cumextremum(name: str, x, dim):
    x = tensor_arg(x)
    axis = _axis(x, dim)
    src = reshape(x, (1,)) if x.ndim == 0 else x
    idx = apply("cumargmax" if name == "cummax" else "cumargmin", src, axis=axis)
    values = apply("gather", src, idx, axis=axis, _torch_name=f"{name.capitalize()}Backward0")
    if x.ndim == 0:
        values = apply("reshape", values, shape_to=(),
                       _torch_name=f"{name.capitalize()}Backward0")
        idx = reshape(idx, ())
    return (CummaxResult if name == "cummax" else CumminResult)(values, idx)


def cummax(x, dim):
    """(running maxima along ``dim``, the index each came from: the latest on ties)."""
    return _cumextremum("cummax", x, dim)


def cummin(x, dim):
    """(running minima along ``dim``, the index each came from: the latest on ties)."""
    return _cumextremum("cummin", x, dim)


# ---------------------------------------------------------------- differences

def _narrow(x: Tensor, axis: int, start: int, stop: int) -> Tensor:
    return getitem(x, (slice(None),) * axis + (slice(start, stop),))


def _with_ends(x: Tensor, axis: int, prepend, append) -> Tensor:
    """``x`` with ``prepend``/``append`` concatenated along ``axis`` (torch: same number of
    dims as ``x``, or 0-d, broadcast to one slice)."""
    parts = []
    for name, extra in (("prepend", prepend), (None, x), ("append", append)):
        if extra is None:
            continue
        extra = tensor_arg(extra)
        if name is not None and extra.ndim == 0:
            shape = tuple(1 if d == axis else s for d, s in enumerate(x.shape))
            extra = broadcast_to(extra, shape)
        elif name is not None and extra.ndim != x.ndim:
            raise RuntimeError(f"diff expects prepend or append to be the same dimension as "
                               f"input: {name} has {extra.ndim} dims, input {x.ndim}")
        parts.append(extra)
    return cat(parts, axis) if len(parts) > 1 else x


def diff(x, n: int = 1, dim: int = -1, prepend=None, append=None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (for bool tensors: ``!=``)."""
    x = tensor_arg(x)
    if x.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    axis = normalize_axes(dim, x.ndim)[0]
    if n == 0:   # torch: a copy of x (zeros_like(x).copy_(x): CopyBackwards), ends ignored
        return full(x, 0).copy_(x)
    x = _with_ends(x, axis, prepend, append)
    for _ in range(n):
        m = x.shape[axis]
        if m == 0:
            break
        hi, lo = _narrow(x, axis, 1, m), _narrow(x, axis, 0, m - 1)
        x = F.ne(hi, lo) if x.dtype is dtypes.bool_ else F.sub(hi, lo)
    return x


# ---------------------------------------------------------------- integrals

def _spacing(y: Tensor, x, dx, axis: int, name: str):
    """The sample spacing: a number (``dx``, default 1) or a tensor of differences of ``x``
    (1-D along ``axis``, or of ``y``'s shape)."""
    if x is not None and dx is not None:
        raise TypeError(f"{name}(): give either x or dx, not both")
    if x is None:
        return 1.0 if dx is None else dx
    x = tensor_arg(x)
    if x.ndim == 1:
        if x.shape[0] != y.shape[axis]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point "
                               f"(x has {x.shape[0]}, y has {y.shape[axis]} along dim "
                               f"{axis})")
        x = reshape(x, tuple(-1 if d == axis else 1 for d in range(y.ndim)))
    elif x.ndim != y.ndim:
        raise RuntimeError(f"{name}: x must be 1-D or have y's number of dims: x has shape "
                           f"{tuple(x.shape)}, y {tuple(y.shape)}")
    return diff(x, dim=axis)


def _float(y) -> Tensor:
    y = tensor_arg(y)
    return y if y.dtype.is_floating or y.dtype.is_complex else y.to(dtypes.get_default_dtype())


def _points(name: str, x) -> None:
    """torch's trapezoid(y, x) takes points ``x`` as a Tensor only (a spacing is ``dx=``)."""
    if x is not None and not isinstance(x, Tensor):
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                        f"{type(x).__name__}), but expected one of: (Tensor y, Tensor x, *, int "
                        f"dim) or (Tensor y, *, Number dx, int dim)")


def trapezoid(y, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The trapezoid rule along ``dim``: samples ``y`` at points ``x`` or spacing ``dx``."""
    _points("trapezoid", x)
    y = _float(y)
    axis = normalize_axes(dim, y.ndim)[0]
    spacing = _spacing(y, x, dx, axis, "trapezoid")
    n = y.shape[axis]
    if n == 0:                             # torch: new zeros, no gradient
        return F.sum(y.detach(), axis)
    if isinstance(spacing, Tensor):        # torch: (dx * (left + right)).sum(dim) / 2
        both = _narrow(y, axis, 1, n) + _narrow(y, axis, 0, n - 1)
        return div_number(F.sum(spacing * both, axis), 2.0)
    ends = _narrow(y, axis, 0, 1) + _narrow(y, axis, n - 1, n)
    ends = reshape(ends, tuple(s for d, s in enumerate(ends.shape) if d != axis))
    return mul_number(F.sub(F.sum(y, axis), mul_number(ends, 0.5)), spacing)


def trapz(y, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """``trapezoid`` (torch's older name)."""
    _points("trapz", x)
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The running trapezoid rule along ``dim`` (one fewer element along it than ``y``)."""
    _points("cumulative_trapezoid", x)
    y = _float(y)
    axis = normalize_axes(dim, y.ndim)[0]
    spacing = _spacing(y, x, dx, axis, "cumulative_trapezoid")
    n = y.shape[axis]
    if n == 0:
        return cumsum(y, axis)
    both = _narrow(y, axis, 1, n) + _narrow(y, axis, 0, n - 1)
    if isinstance(spacing, Tensor):        # torch: cumsum(dx * (left + right), dim) / 2
        return div_number(cumsum(spacing * both, axis), 2.0)
    return cumsum(both * (spacing / 2.0), axis)


# ---------------------------------------------------------------- in place

def cumsum_(self: Tensor, dim, *, dtype=None) -> Tensor:
    return update(self, lambda old: cumsum(old, dim, dtype=dtype).to(old.dtype), "cumsum_")


def cumprod_(self: Tensor, dim, *, dtype=None) -> Tensor:
    return update(self, lambda old: cumprod(old, dim, dtype=dtype).to(old.dtype), "cumprod_")


__all__ = ["cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "diff", "trapezoid",
           "trapz", "cumulative_trapezoid"]
METHODS = {name: globals()[name] for name in ("cumsum", "cumprod", "cummax", "cummin",
                                              "logcumsumexp", "diff")}
METHODS.update(cumsum_=cumsum_, cumprod_=cumprod_)
