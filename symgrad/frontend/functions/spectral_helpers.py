"""torch.fft's helpers: fftfreq, rfftfreq (the sample frequencies of a transform's points)
and fftshift, ifftshift (the zero frequency moved to the middle and back).

Layer: front end, above ``creation`` and ``manipulation``. Input: sizes and spacings, or a
tensor and dims. Output: new leaf tensors with torch's values bit for bit (the integers k
times the rounded ``1 / (n d)``, in the result's dtype, as torch's kernel multiplies), or a
``roll`` of the input (``RollBackward0``).
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...devices import check as check_device
from ..core.tensor import Tensor, tensor
from .manipulation import roll


def _frequencies(k: np.ndarray, n: int, d: float, dtype, requires_grad: bool,
                 device) -> Tensor:
    check_device(device)
    dt = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    if dt.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dt.scalar_type}'")
    if not dt.is_floating:
        raise RuntimeError("fftfreq requires a floating point or complex dtype")
    compute = np.float32 if dt is dtypes.float16 else dt.np.type
    with np.errstate(all="ignore"):
        scale = compute(1.0 / (n * d)) if n * d else compute(np.copysign(np.inf, n * d))
        values = (k.astype(compute) * scale).astype(dt.np)
    return tensor(values, dtype=dt, requires_grad=requires_grad)


def _c_div(a: int, b: int) -> int:
    """C++'s integer division (towards zero), which torch's size arithmetic uses."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def fftfreq(n: int, d: float = 1.0, *, dtype=None, layout=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """The frequencies of the n points of an FFT of samples ``d`` apart: [0, 1, ...,
    (n - 1) // 2, -(n // 2), ..., -1] / (d n)."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    k = np.concatenate([np.arange((n + 1) // 2), np.arange(-(n // 2), 0)])
    return _frequencies(k, n, d, dtype, requires_grad, device)


def rfftfreq(n: int, d: float = 1.0, *, dtype=None, layout=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """The frequencies of the n // 2 + 1 points of an rfft: [0, 1, ..., n // 2] / (d n)."""
    k = np.arange(max(_c_div(n, 2) + 1, 0))
    return _frequencies(k, n, d, dtype, requires_grad, device)


def _shifted(x: Tensor, dim, inverse: bool) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"fft_{'i' if inverse else ''}fftshift(): argument 'input' (position 1)"
                        f" must be Tensor, not {type(x).__name__}")
    if dim is None:
        if x.ndim == 0:
            raise RuntimeError("`shifts` required")
        dims = list(range(x.ndim))
    else:
        dims = [dim] if isinstance(dim, int) else list(dim)
        if x.ndim == 0 and dims:
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        for d in dims:
            if not -max(x.ndim, 1) <= d < max(x.ndim, 1):
                raise IndexError(f"Dimension out of range (expected to be in range of "
                                 f"[{-max(x.ndim, 1)}, {max(x.ndim, 1) - 1}], but got {d})")
        dims = [d % max(x.ndim, 1) for d in dims]
    shifts = [(x.shape[d] + inverse) // 2 for d in dims]
    return roll(x, shifts, dims)


def fftshift(input, dim=None) -> Tensor:  # noqa: A002
    """``input`` rolled by n // 2 along ``dim`` (all dims by default): zero frequency in the
    middle."""
    return _shifted(input, dim, False)


def ifftshift(input, dim=None) -> Tensor:  # noqa: A002
    """The inverse of ``fftshift``: rolled by (n + 1) // 2."""
    return _shifted(input, dim, True)


__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]
