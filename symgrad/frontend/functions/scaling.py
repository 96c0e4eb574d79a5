"""torch's rescalings: ``renorm`` (sub-tensors scaled down to a maximum norm) and ``frexp``
(a mantissa and a power of two).

Layer: front end (functions). Input: floating tensors. Output: ``renorm(x, p, dim,
maxnorm)``: each slice along ``dim`` whose ``p``-norm (``linalg.vector_norm`` over the other
dims) exceeds ``maxnorm`` multiplied by ``maxnorm / (norm + 1e-7)``, as torch's kernel
(``RenormBackward0``, the gradient of that composition); ``frexp(x)``: ``(mantissa,
exponent)`` with ``x = mantissa * 2**exponent``, ``|mantissa|`` in [0.5, 1) (0, infinities
and NaN keep their value with exponent 0), the exponent int32, found from ``log2|x|`` in
float64 and corrected by one step either way; the mantissa's gradient is
``grad / 2**exponent`` (``FrexpBackward0``).
"""

from __future__ import annotations

from ... import dtypes
from ...ops.registry import normalize_axes
from ..core.apply import as_tensor
from ..core.tensor import Tensor
from . import basic as F
from .basic import composite
from .inplace import update
from .norms import vector_norm
from .pointwise import floor, log2
from .printing import return_type

FrexpResult = return_type("frexp", ("mantissa", "exponent"))


def renorm(input, p, dim: int, maxnorm) -> Tensor:  # noqa: A002
    """``input`` with each slice along ``dim`` scaled to a ``p``-norm of at most
    ``maxnorm``."""
    x = input
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if x.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {x.ndim} "
                           f"dimensions")
    axis = normalize_axes(dim, x.ndim)[0]
    others = tuple(d for d in range(x.ndim) if d != axis)

    def body(a):
        norm = vector_norm(a, p, others, keepdim=True)
        factor = F.where(F.gt(norm, maxnorm), maxnorm / (norm + 1e-7), 1.0)
        return a * factor.to(a.dtype)
    return composite("RenormBackward0", body, [x])


def _renorm_(self: Tensor, p, dim: int, maxnorm) -> Tensor:
    return update(self, lambda s: renorm(s, p, dim, maxnorm), "renorm_")


def _times_power_of_two(x: Tensor, e: Tensor) -> Tensor:
    """``x * 2**e`` exactly, in two factors (2**e alone may overflow)."""
    half = floor(e * 0.5)
    two = as_tensor(2.0, dtypes.float64)
    return x * F.pow(two, half) * F.pow(two, e - half)


def frexp(input) -> FrexpResult:  # noqa: A002
    """``(mantissa, exponent)`` of each element."""
    x = input
    if not isinstance(x, Tensor):
        raise TypeError(f"frexp(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    if not x.dtype.is_floating:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    wide = x.detach().to(dtypes.float64)
    special = F.logical_or(F.eq(wide, 0.0), F.logical_not(F.isfinite(wide)))
    safe = F.where(special, 1.0, wide)
    e = floor(log2(F.abs(safe))) + 1.0
    m = F.abs(_times_power_of_two(safe, -e))
    e = F.where(F.ge(m, 1.0), e + 1.0, F.where(F.lt(m, 0.5), e - 1.0, e))
    e = F.where(special, 0.0, e)

    def body(a):
        return _times_power_of_two(a.to(dtypes.float64), -e).to(a.dtype)

    def rule(g, out, ins):
        return (_times_power_of_two(g.to(dtypes.float64), -e).to(g.dtype),)
    mantissa = composite("FrexpBackward0", body, [x], rule, saves=False, uses_out=False)
    return FrexpResult(mantissa, e.to(dtypes.int32))


__all__ = ["renorm", "frexp"]
METHODS = {"renorm": renorm, "renorm_": _renorm_, "frexp": frexp}
