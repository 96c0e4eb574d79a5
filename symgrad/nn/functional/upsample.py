"""Resizing of ``torch.nn.functional``: ``interpolate`` (modes nearest, nearest-exact, linear,
bilinear, bicubic, trilinear, area; ``size`` or ``scale_factor``, ``align_corners``,
``recompute_scale_factor``) and the deprecated ``upsample``, ``upsample_nearest``,
``upsample_bilinear``.

Layer: front end (torch.nn mirror). Input: tensors, eager or traced, (N, C, *S) with 1 to 3
spatial dims, and torch's arguments (checked with torch's messages). Output: tensors composed
of existing ops, one node named as torch's (``UpsampleBilinear2DBackward0``...), whose backward
re-runs the composition. The source positions and weights are computed from shapes, as torch's
CPU kernels compute them (a float scale for nearest; the input's precision for the others;
the multiply-adds fused as torch's AVX2/AVX-512 build fuses them), as constant tables; nearest
gathers; the linear modes and bicubic add x[i_j] * w_j dim after dim from the last, in torch's
order, the sums fused as torch's are (float32: exactly, through float64; float64: the products
rounded first, so an ulp apart at times); small bilinear outputs (H + W <= 128) follow torch's
channels-last kernel. float32 results are torch's bit for bit but for a few elements of some
bicubic resizes (an ulp); area is ``adaptive_avg_pool``; ``antialias=True`` is
``upsample_aa``'s. Not supported: area on 5-D input, uint8 bilinear/bicubic.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ... import dtypes
from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import composite, where
from ...frontend.functions.manipulation import index_select
from ...frontend.random.arithmetic import fma32, fma64
from .pooling import adaptive_avg_pool1d, adaptive_avg_pool2d
from .upsample_aa import resize_aa

_LINEAR = {"linear": 3, "bilinear": 4, "trilinear": 5}
_NAMES = {"nearest": "UpsampleNearest{}DBackward0",
          "nearest-exact": "UpsampleNearestExact{}DBackward0",
          "linear": "UpsampleLinear1DBackward0", "bilinear": "UpsampleBilinear2DBackward0",
          "trilinear": "UpsampleTrilinear3DBackward0", "bicubic": "UpsampleBicubic2DBackward0"}


# ---------------------------------------------------------------- arguments

def _is_integer(v) -> bool:
    return isinstance(v, (int, np.integer)) or (isinstance(v, Tensor) and not v.is_floating_point())


def _sizes_or_scales(x: Tensor, size, scale_factor) -> tuple:
    """(output sizes or None, scale factors or None): exactly one is given, one per spatial
    dim (a number stands for all)."""
    dim = x.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(f"Input and output must have the same number of spatial "
                                 f"dimensions, but got input with spatial dimensions of "
                                 f"{list(x.shape[2:])} and output size of {size}. Please "
                                 f"provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 f"output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(v) for v in size):
                raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, "
                                f"int] or Tuple[int, int, int], but got size with types "
                                f"{[type(v) for v in size]}")
            return [int(v) for v in size], None
        return [int(size)] * dim, None
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dim:
            raise ValueError(f"Input and scale_factor must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of "
                             f"{list(x.shape[2:])} and scale_factor of shape {scale_factor}. "
                             f"Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                             f"and scale_factor in (s1, s2, ...,sK) format.")
        return None, [float(s) for s in scale_factor]
    return None, [float(scale_factor)] * dim


def _plan(x: Tensor, size, scale_factor, mode: str, recompute_scale_factor) -> tuple:
    """(output sizes, the scales the kernels use: the given factors, or None where torch
    derives them from the sizes)."""
    out, scales = _sizes_or_scales(x, size, scale_factor)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if out is None:
        # torch's C++: int64(input size * scale), truncated; Python's recompute: the same
        out = [int(math.floor(n * s)) for n, s in zip(x.shape[2:], scales)]
        if recompute_scale_factor or mode == "area":
            scales = None
    spatial = list(x.shape[2:])
    if min(spatial + out) <= 0:
        axes = ("D", "H", "W")[3 - len(out):]
        shown = lambda v: ", ".join(f"{a}: {n}" for a, n in zip(axes, v))  # noqa: E731
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({shown(spatial)}) output ({shown(out)})")
    return out, scales or [None] * len(out)


def _check_mode(x: Tensor, mode: str, align_corners, antialias: bool) -> None:
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    if antialias:
        if not (mode in ("bilinear", "bicubic") and x.ndim == 4):
            raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and "
                             "lanczos modes and requires a 4-D tensor as input")
    wanted = _LINEAR.get(mode, 4 if mode == "bicubic" else None)
    if wanted is not None and x.ndim != wanted and x.ndim in (3, 4, 5):
        raise NotImplementedError(f"Got {x.ndim}D input, but {mode} mode needs {wanted}D input")
    if x.ndim not in (3, 4, 5) or mode not in _NAMES and mode != "area":
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {x.ndim}D) for the "
            f"modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})")


# torch's CPU kernel of each mode (by the number of spatial dims where it differs), as its
# dtype refusals name it: nearest takes uint8 and the floating dtypes, the others floating only
# (uint8 bilinear/bicubic have kernels of their own in torch, not modelled here).
_KERNELS = {"nearest": {2: "upsample_nearest2d_channels_last"},
            "linear": "compute_indices_weights_linear",
            "trilinear": "compute_indices_weights_linear",
            "bilinear": "upsample_bilinear2d_channels_last",
            "bicubic": "compute_indices_weights_cubic"}


def _check_dtype(x: Tensor, mode: str) -> None:
    nearest = mode in ("nearest", "nearest-exact")
    if x.dtype.is_floating or (nearest and x.dtype is dtypes.uint8):
        return
    if x.dtype is dtypes.uint8 and mode in ("bilinear", "bicubic"):
        raise NotImplementedError(f"interpolate(mode='{mode}') of uint8 (torch's uint8 kernel) "
                                  f"is not supported by symgrad")
    kernel = _KERNELS["nearest" if nearest else mode]
    if isinstance(kernel, dict):
        kernel = kernel.get(x.ndim - 2, "compute_indices_weights_nearest")
    raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype.scalar_type}\'')


# ---------------------------------------------------------------- source positions, weights

def _nearest_source(n: int, o: int, scale, exact: bool) -> np.ndarray:
    """torch's nearest (``floorf(dst * scale)``, a float scale) or nearest-exact
    (``floorf((dst + 0.5) * scale)``) source index of each output position."""
    if o == n:
        return np.arange(o, dtype=np.int64)
    s = np.float32(1.0 / scale) if scale else np.float32(n) / np.float32(o)
    dst = np.arange(o)
    if exact:
        pos = np.floor(((dst + 0.5) * np.float64(s)).astype(np.float32))
    else:
        pos = np.floor(dst.astype(np.float32) * s)
    return np.minimum(pos.astype(np.int64), n - 1)


def _area_scale(n: int, o: int, align_corners: bool, scale, dt) -> np.floating:
    """torch's ``area_pixel_compute_scale`` in the kernel's precision ``dt``."""
    if align_corners:
        return dt(n - 1) / dt(o - 1) if o > 1 else dt(0)
    return dt(1.0 / scale) if scale else dt(n) / dt(o)


def _fma(a, b, c, dt) -> np.ndarray:
    """``a * b + c`` rounded once in ``dt``: torch's AVX2 kernels are built with the multiply-
    adds fused, so their positions and weights are rounded so."""
    return (fma32 if dt is np.float32 else fma64)(a, b, c).astype(dt)


def _real_source(n: int, o: int, align_corners: bool, scale, dt, cubic: bool) -> np.ndarray:
    """torch's ``area_pixel_compute_source_index`` of each output position (clamped at 0
    unless cubic): scale * dst, or scale * (dst + 0.5) - 0.5 (fused)."""
    s = _area_scale(n, o, align_corners, scale, dt)
    dst = np.arange(o).astype(dt)
    if align_corners:
        return s * dst
    real = _fma(s, dst + dt(0.5), dt(-0.5), dt)
    return real if cubic else np.maximum(real, dt(0))


def _linear_taps(n: int, o: int, align_corners: bool, scale, dt) -> list:
    """[(i0, w0), (i1, w1)]: the two source positions and weights of each output position
    (torch's ``guard_index_and_lambda``: a float floor, the weight clamped to [0, 1])."""
    if o == n:
        same = np.arange(o, dtype=np.int64)
        return [(same, np.ones(o, dt)), (same, np.zeros(o, dt))]
    real = _real_source(n, o, align_corners, scale, dt, False)
    i0 = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), n - 1)
    w1 = np.minimum(np.maximum(real - i0.astype(dt), dt(0)), dt(1))
    i1 = i0 + (i0 < n - 1)
    return [(i0, dt(1) - w1), (i1, w1)]


def _cubic_weights(t: np.ndarray, dt) -> list:
    """The four weights of torch's cubic convolution (A = -0.75) at fraction ``t``, rounded as
    torch's build computes them (found by comparing with its weights: the first two
    multiply-adds of the outer polynomial fused, the inner one not)."""
    a = dt(-0.75)

    def near(v):            # ((A + 2) v - (A + 3)) v v + 1, for |v| <= 1
        return ((a + dt(2)) * v - (a + dt(3))) * v * v + dt(1)

    def far(v):             # ((A v - 5 A) v + 8 A) v - 4 A, for 1 < |v| < 2
        inner = _fma(_fma(a, v, -(dt(5) * a), dt), v, dt(8) * a, dt)
        return inner * v - dt(4) * a
    rest = dt(1) - t
    return [far(t + dt(1)), near(t), near(rest), far(rest + dt(1))]


def _cubic_taps(n: int, o: int, align_corners: bool, scale, dt) -> list:
    """The four (position, weight) taps of torch's bicubic convolution, the positions
    clamped to the input."""
    real = _real_source(n, o, align_corners, scale, dt, True)
    i = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), n - 1)
    t = np.minimum(np.maximum(real - i.astype(dt), dt(0)), dt(1))
    return [(np.clip(i - 1 + j, 0, n - 1), w) for j, w in enumerate(_cubic_weights(t, dt))]


# ---------------------------------------------------------------- kernels

def _fused(a: Tensor, w: np.ndarray, c: Tensor) -> Tensor:
    """a * w + c as torch's AVX2 build computes it: fused, rounded once. float32: exactly so
    (the product is exact in float64, and the sum rounded there then to float32, double
    rounding aside); float64: the product rounded first (an ulp apart at most)."""
    if a.dtype.np == np.float32:
        wide = a.to(dtypes.float64) * Tensor(w.astype(np.float64), None) + c.to(dtypes.float64)
        return wide.to(dtypes.float32)
    return a * Tensor(w, None) + c


def _combine(terms: list) -> Tensor:
    """sum_j x_j * w_j over (values, weights) ``terms`` in the order torch's kernels add:
    fused(x0, w0, x1 * w1), then fused(x_j, w_j, sum) for the rest."""
    (x0, w0), (x1, w1) = terms[:2]
    total = _fused(x0, w0, x1 * Tensor(w1, None))
    for x, w in terms[2:]:
        total = _fused(x, w, total)
    return total


def _view(weight: np.ndarray, axis: int, ndim: int, dt) -> np.ndarray:
    shape = [1] * ndim
    shape[axis] = -1
    return weight.astype(dt).reshape(shape)


def _along(a: Tensor, axis: int, taps: list) -> Tensor:
    """Interpolate along ``axis``: sum_j a[..., i_j, ...] * w_j (torch's generic kernel)."""
    return _combine([(index_select(a, axis, Tensor(index, None)),
                      _view(weight, axis, a.ndim, a.dtype.np)) for index, weight in taps])


def _bilinear_small(a: Tensor, rows: list, cols: list) -> Tensor:
    """torch's channels-last bilinear kernel (it takes outputs with H + W <= 128): the four
    corner weights are products h_i * w_j rounded first. Its scalar loop adds them as
    ``_combine``; the channels its vector loops take (all but the last C % 8, its build
    vectorizing by 8 or 16) add them as a + (b + (d + c)), fused from the inside."""
    dt = a.dtype.np
    picked = [index_select(a, a.ndim - 2, Tensor(index, None)) for index, _ in rows]
    terms = []
    for (_, wh), part in zip(rows, picked):
        for iw, ww in cols:
            weight = (wh.astype(dt)[:, None] * ww.astype(dt)[None, :]).astype(dt)
            terms.append((index_select(part, a.ndim - 1, Tensor(iw, None)), weight))
    scalar = _combine(terms)
    channels = a.shape[1]
    vectored = channels - channels % 8
    if dt != np.float32 or vectored == 0:
        return scalar
    (x0, w0), (x1, w1), (x2, w2), (x3, w3) = terms
    vector = _fused(x0, w0, _fused(x1, w1, _fused(x3, w3, x2 * Tensor(w2, None))))
    lanes = (np.arange(channels) < vectored).reshape(1, channels, 1, 1)
    return where(Tensor(lanes, None), vector, scalar)


def _resize(x: Tensor, mode: str, out: list, scales: list, align_corners: bool) -> Tensor:
    nd = len(out)
    dt = np.float32 if x.dtype.np == np.float32 else np.float64
    sizes = list(x.shape[2:])
    if mode in ("nearest", "nearest-exact"):
        tables = [_nearest_source(n, o, s, mode == "nearest-exact")
                  for n, o, s in zip(sizes, out, scales)]

        def body(a):
            for d, table in enumerate(tables):
                a = index_select(a, 2 + d, Tensor(table, None))
            return a
        return composite(_NAMES[mode].format(nd), body, [x], saves=False, uses_out=False)
    taps_of = _cubic_taps if mode == "bicubic" else _linear_taps
    tables = [taps_of(n, o, bool(align_corners), s, dt) for n, o, s in zip(sizes, out, scales)]

    def body(a):
        if mode == "bilinear" and sum(out) <= 128:
            return _bilinear_small(a, *tables)
        for d in reversed(range(nd)):
            a = _along(a, 2 + d, tables[d])
        return a
    return composite(_NAMES[mode], body, [x], saves=False, uses_out=False)


def interpolate(input, size=None, scale_factor=None, mode: str = "nearest",  # noqa: A002
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial dims of (N, C, *S) to ``size`` or by ``scale_factor``."""
    x = as_tensor(input)
    _check_mode(x, mode, align_corners, antialias)
    out, scales = _plan(x, size, scale_factor, mode, recompute_scale_factor)
    if mode == "area":
        if x.ndim == 5:
            raise NotImplementedError("interpolate(mode='area') of 5-D input "
                                      "(adaptive_avg_pool3d) is not supported by symgrad")
        pool = adaptive_avg_pool1d if x.ndim == 3 else adaptive_avg_pool2d
        return pool(x, out[0] if x.ndim == 3 else tuple(out))
    if mode not in ("nearest", "nearest-exact") and align_corners is None:
        align_corners = False
    if antialias:
        if not x.dtype.is_floating:
            raise NotImplementedError(f'"compute_index_ranges_weights" not implemented for '
                                      f"'{x.dtype.scalar_type}'")
        return resize_aa(x, mode, out, scales, align_corners)
    _check_dtype(x, mode)
    return _resize(x, mode, out, scales, align_corners)


def upsample(input, size=None, scale_factor=None, mode: str = "nearest",  # noqa: A002
             align_corners: bool | None = None) -> Tensor:
    """Deprecated: ``interpolate``."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None) -> Tensor:  # noqa: A002
    """Deprecated: ``interpolate(mode='nearest')``."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None) -> Tensor:  # noqa: A002
    """Deprecated: ``interpolate(mode='bilinear', align_corners=True)``."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
