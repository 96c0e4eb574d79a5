"""Antialiased resizing: ``interpolate(mode='bilinear'|'bicubic', antialias=True)`` of
(N, C, H, W) input, as torch's separable CPU kernel computes it.

Layer: front end (torch.nn mirror). Input: a floating tensor, the output sizes and the scales
torch's kernel is given (None: from the sizes), ``align_corners``. Output: a tensor composed of
gathers, products and sums (one node, ``UpsampleBilinear2DAaBackward0`` or
``UpsampleBicubic2DAaBackward0``, whose backward re-runs the composition).

torch's rule (a PIL-style filter): along a dim resized from n to o with scale s (``1 /
scale_factor`` if given, else n / o; (n - 1) / (o - 1) with ``align_corners``), the filter of
half-width ``support = (taps / 2) * s`` when shrinking (``taps / 2`` when growing; 2 taps for
bilinear, 4 for bicubic) is centred at ``s * (i + 0.5)``; output i reads the inputs
``xmin .. xmin + xsize - 1`` (``xmin = int(center - support + 0.5)`` clamped at 0, ``xsize``
to the input's end) with weights ``filter((j + xmin - center + 0.5) / max(s, 1))`` divided by
their sum. The filters: the triangle ``1 - |x|``, or Keys' cubic with ``a = -0.5`` (not -0.75
as the plain bicubic mode). Weights are computed in the input's precision; the last dim is
resized first, then the one before (a dim whose size does not change is left as it is); each
output is ``x_0 w_0 + x_1 w_1 + ...`` in that order, the multiply-adds fused when growing (as
torch's AVX2 build's results show); results are torch's to an ulp or so, not bit for bit. A
short window's missing taps get weight 0 (an infinite input there gives NaN here where torch
skips the tap).
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import composite
from ...frontend.functions.manipulation import index_select

NAMES = {"bilinear": "UpsampleBilinear2DAaBackward0", "bicubic": "UpsampleBicubic2DAaBackward0"}


def _triangle(x: np.ndarray, dt) -> np.ndarray:
    x = np.abs(x)
    return np.where(x < dt(1), dt(1) - x, dt(0)).astype(dt)


def _keys(x: np.ndarray, dt) -> np.ndarray:
    """Keys' cubic convolution kernel with a = -0.5."""
    a = dt(-0.5)
    x = np.abs(x)
    near = ((a + dt(2)) * x - (a + dt(3))) * x * x + dt(1)
    far = ((a * x - dt(5) * a) * x + dt(8) * a) * x - dt(4) * a
    return np.where(x < dt(1), near, np.where(x < dt(2), far, dt(0))).astype(dt)


def taps(n: int, o: int, scale, align_corners: bool, cubic: bool, dt) -> tuple:
    """(first input index (o,), weights (o, k), whether the sums are fused) of each output
    position along one dim, with the promotions of torch's C++ (``i + 0.5`` and ``+ 0.5`` are
    doubles: the centre and the filter's argument are computed in double from the scale in
    the input's precision, then rounded to it)."""
    if align_corners:
        s = dt(n - 1) / dt(o - 1) if o > 1 else dt(0)
    else:
        s = dt(1.0 / scale) if scale else dt(n) / dt(o)
    half = 2 if cubic else 1
    support = dt(half * np.float64(s)) if s >= 1 else dt(half)
    invscale = np.float64(dt(1.0 / np.float64(s))) if s >= 1 else np.float64(1)
    k = int(math.ceil(support)) * 2 + 1
    center = (np.float64(s) * (np.arange(o) + 0.5)).astype(dt)
    xmin = np.maximum(((center - support).astype(np.float64) + 0.5).astype(np.int64), 0)
    xsize = np.minimum(((center + support).astype(np.float64) + 0.5).astype(np.int64), n) - xmin
    xsize = np.clip(xsize, 0, k)
    j = np.arange(k)
    gap = ((xmin[:, None] + j[None, :]).astype(dt) - center[:, None]).astype(dt)
    pos = ((gap.astype(np.float64) + 0.5) * invscale).astype(dt)
    w = (_keys if cubic else _triangle)(pos, dt)
    w = np.where(j[None, :] < xsize[:, None], w, dt(0)).astype(dt)
    total = np.zeros(o, dt)
    for c in range(k):                          # the sum in torch's order
        total = (total + w[:, c]).astype(dt)
    w = np.where(total[:, None] != 0, w / np.where(total == 0, dt(1), total)[:, None], w)
    # torch's sums x_0 w_0 + x_1 w_1 + ... match its build fused when growing, plain when
    # shrinking (found by comparing with its results; an ulp apart at times all the same)
    return np.minimum(xmin, n - 1), w.astype(dt), bool(s < 1)


def _along(a: Tensor, axis: int, table: tuple) -> Tensor:
    """Resample ``a`` along ``axis`` with (xmin, weights): x_0 w_0 + x_1 w_1 + ..."""
    xmin, w, fused = table
    n = a.shape[axis]
    shape = [1] * a.ndim
    shape[axis] = -1
    total = None
    for c in range(w.shape[1]):
        x = index_select(a, axis, Tensor(np.minimum(xmin + c, n - 1), None))
        weight = w[:, c].reshape(shape)
        if total is None:
            total = x * Tensor(weight, None)
        elif fused:
            total = _fused(x, weight, total)
        else:
            total = total + x * Tensor(weight, None)
    return total


def _fused(x: Tensor, w: np.ndarray, c: Tensor) -> Tensor:
    """x * w + c rounded once (float32: the product is exact in float64, the sum rounded
    there, then to float32); float64: the product rounded first."""
    if x.dtype is dtypes.float32:
        wide = x.to(dtypes.float64) * Tensor(w.astype(np.float64), None) + c.to(dtypes.float64)
        return wide.to(dtypes.float32)
    return x * Tensor(w, None) + c


def resize_aa(x: Tensor, mode: str, out: list, scales: list, align_corners: bool) -> Tensor:
    """Antialiased bilinear/bicubic resize of the last two dims of ``x`` to ``out``."""
    dt = np.float32 if x.dtype.np == np.float32 else np.float64
    sizes = list(x.shape[2:])
    tables = [taps(n, o, s, bool(align_corners), mode == "bicubic", dt)
              for n, o, s in zip(sizes, out, scales)]

    def body(a):
        for d in reversed(range(len(out))):
            if sizes[d] != out[d]:
                a = _along(a, 2 + d, tables[d])
        return a
    return composite(NAMES[mode], body, [x], saves=False, uses_out=False)


__all__ = ["resize_aa"]
