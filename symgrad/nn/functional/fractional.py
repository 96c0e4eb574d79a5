"""Fractional max pooling of ``torch.nn.functional``: ``fractional_max_pool2d`` and
``fractional_max_pool3d`` (with indices).

Layer: front end (torch.nn mirror). Input: an eager tensor (N, C, *S) or (C, *S), a pool
size, an output size or ratio, and optionally ``_random_samples`` (N, C, dims) in [0, 1).
Output: the maxima and their flat indices in each plane or volume. Without samples it draws
torch's: ``rand(N, C, dims)`` of the input's dtype from symgrad's generator (torch's CPU
stream). Each plane's window starts along a dim are torch's pseudo-random sequence,
int((i + u) alpha) - int(u alpha) with alpha = (n - k) / (o - 1) computed in the input's
dtype, the last start n - k; the samples drive (W, H) in 2-d and (T, H, W) in 3-d, as
torch's kernels read them. Each window's maximum is the first greatest element
in row-major order (a NaN wins, the last NaN), as torch's loop; the values are a gather, so
the gradient goes to that element (grad_fn FractionalMaxPool2DBackward0/3D). The window
starts come from the samples' values: eager only (a TracerValueError inside compile).
"""

from __future__ import annotations

import math

import numpy as np


from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor, tracer_error
from ...frontend.functions.basic import composite
from ...frontend.functions.gathers import take_along_dim
from ...frontend.random.sampling import rand
from .conv import ntuple

_NAMES = {2: ("height", "width"), 3: ("time", "height", "width")}


def _starts(u: np.ndarray, n: int, o: int, k: int, dtype) -> np.ndarray:
    """Window starts (planes, o) along a dim of size n for samples u (planes,)."""
    out = np.empty(u.shape + (o,), np.int64)
    if o > 1:
        alpha = dtype.type(n - k) / dtype.type(o - 1)
        u = u.astype(dtype)
        for i in range(o - 1):
            out[..., i] = ((dtype.type(i) + u) * alpha).astype(np.int64) - (u * alpha).astype(
                np.int64)
    if o > 0:
        out[..., -1] = n - k
    return out


def _table(samples: np.ndarray, sizes: tuple, out: tuple, kernel: tuple, dtype) -> np.ndarray:
    """(planes, *out, prod(kernel)) flat input positions of each window's elements."""
    nd = len(sizes)
    planes = samples.shape[0]
    flat = np.zeros((planes,) + out + kernel, np.int64)
    for d in range(nd):
        column = nd - 1 - d if nd == 2 else d      # 2-d: (W, H); 3-d: (T, H, W)
        starts = _starts(samples[:, column], sizes[d], out[d], kernel[d], dtype)
        shape = [planes] + [1] * (2 * nd)
        shape[1 + d] = out[d]
        position = starts.reshape(shape)
        offset_shape = [1] * (1 + 2 * nd)
        offset_shape[1 + nd + d] = kernel[d]
        position = position + np.arange(kernel[d]).reshape(offset_shape)
        flat = flat + position * math.prod(sizes[d + 1:])
    return flat.reshape((planes,) + out + (math.prod(kernel),))


def _first_max(values: np.ndarray) -> np.ndarray:
    """torch's loop: the first strictly greater element, or the last NaN."""
    nan = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
    last_nan = values.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
    first_max = np.argmax(np.where(nan, -np.inf, values) == np.max(
        np.where(nan, -np.inf, values), axis=-1, keepdims=True), axis=-1)
    return np.where(nan.any(axis=-1), last_nan, first_max)


def _fractional(x: Tensor, nd: int, kernel_size, output_size, output_ratio, samples):
    fn = f"fractional_max_pool{nd}d"
    if x.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{fn}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: "
                           f"{list(x.shape)}")
    kernel = ntuple(kernel_size, nd, f"{fn}: kernel_size must be an int or a tuple")
    sizes = tuple(x.shape[-nd:])
    if output_size is None:
        if output_ratio is None:
            raise ValueError(f"{fn} requires specifying either an output_size or an "
                             f"output_ratio")
        ratio = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else (
            (output_ratio,) * nd)
        output_size = [int(n * r) for n, r in zip(sizes, ratio)]
    out = ntuple(output_size, nd, f"{fn}: bad output_size")
    for name, n, o, k in zip(_NAMES[nd], sizes, out, kernel):
        if o + k - 1 > n:
            raise RuntimeError(f"{fn}(): pool {name} {k} too large relative to input {name} "
                               f"{n}")
    batch = x.shape[0] if x.ndim == nd + 2 else 1
    channels = x.shape[-nd - 1]
    if x.is_traced:
        raise tracer_error(f"argument of {fn}()", "its windows come from random samples' "
                           "values; symgrad computes it eagerly only.")
    if samples is None:
        samples = rand(batch, channels, nd, dtype=x.dtype)
    samples = as_tensor(samples)
    if samples.dtype is not x.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.is_traced:
        raise tracer_error(f"argument of {fn}()", "its windows come from the random samples' "
                           "values; symgrad computes it eagerly only.")
    u = samples.concrete.reshape(-1, nd).astype(np.float64)
    table = _table(u, sizes, out, kernel, x.dtype.np)
    lead = (batch, channels) if x.ndim == nd + 2 else (channels,)
    index = table.reshape(lead + (-1,))
    found = x.concrete.reshape(lead + (-1,))
    chosen = _first_max(np.take_along_axis(found, index, -1).reshape(lead + out + (-1,)))
    where = np.take_along_axis(table.reshape(lead + out + (-1,)), chosen[..., None], -1)[..., 0]
    flat_where = Tensor(np.ascontiguousarray(where.reshape(lead + (-1,))), None)

    def body(a):
        return take_along_dim(a.reshape(lead + (-1,)), flat_where, -1).reshape(lead + out)
    values = composite(f"FractionalMaxPool{nd}DBackward0", body, [x], saves=False,
                       uses_out=False)
    return values, Tensor(where.astype(np.int64), None)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,  # noqa: A002
                          return_indices: bool = False, _random_samples=None):
    """Max over pseudo-random windows of (N, C, H, W) or (C, H, W)."""
    values, indices = _fractional(as_tensor(input), 2, kernel_size, output_size, output_ratio,
                                  _random_samples)
    return (values, indices) if return_indices else values


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,  # noqa: A002
                          return_indices: bool = False, _random_samples=None):
    """Max over pseudo-random windows of (N, C, D, H, W) or (C, D, H, W)."""
    values, indices = _fractional(as_tensor(input), 3, kernel_size, output_size, output_ratio,
                                  _random_samples)
    return (values, indices) if return_indices else values


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None,  # noqa: A002
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples=None):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None,  # noqa: A002
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples=None):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


__all__ = ["fractional_max_pool2d", "fractional_max_pool2d_with_indices",
           "fractional_max_pool3d", "fractional_max_pool3d_with_indices"]

