"""Pooling of ``torch.nn.functional``: ``max_pool1d``/``2d``/``3d`` (with indices),
``avg_pool1d``/``2d``/``3d`` and ``adaptive_avg_pool1d``/``2d``/``3d``.

Layer: front end (torch.nn mirror). Input: tensors, eager or traced, of shape (N, C, *S) or
(C, *S), and torch's arguments. Output: tensors composed of existing ops over the sliding
windows of ``_conv`` (pad, strided slices, stack): max pooling takes the first maximum of each
window in window order (argmax, then a gather), so its gradient goes to that one element as
torch's max_pool2d_with_indices; average pooling sums the windows and divides by torch's
divisors (constants computed from shapes); adaptive pooling multiplies by constant 0/1 bin
matrices. The 1-d functions run the 2-d ones on an (N, C, 1, L) view, as torch does; the 3-d
ones run the same code over three spatial dims. Each shows torch's grad_fn. It reads shapes
only, never tensors' arrays.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...frontend.core.apply import as_tensor
from ...frontend.functions.basic import (amax, argmax, composite, eq, isnan, logical_and,
                                         mean, logical_or, matmul, take_along_dim)
from ...frontend.functions.basic import max as max_along
from ...frontend.functions.basic import sum as sum_along
from ...frontend.functions.pointwise import div
from ...frontend.functions.shapes import squeeze
from ...frontend.core.tensor import Tensor
from .adaptive_half import bin_mean_backward, half_bin_sums
from .conv import ntuple, pad_spatial, windows

_WORDS = {1: "one", 2: "two", 3: "three"}


def _pool_tuple(value, n: int, fn: str, name: str) -> tuple:
    return ntuple(value, n, f"{fn}: {name} must either be a single int, or a tuple of "
                            f"{_WORDS[n]} ints")


def _pool_args(fn: str, n: int, kernel_size, stride, padding, dilation) -> tuple:
    """(kernel, stride, padding, dilation) as ``n`` ints each; stride None (or empty): the
    kernel size."""
    kernel = _pool_tuple(kernel_size, n, fn, "kernel_size")
    if stride is None or (not isinstance(stride, int) and len(stride) == 0):
        stride = kernel
    return (kernel, _pool_tuple(stride, n, fn, "stride"), _pool_tuple(padding, n, fn, "padding"),
            _pool_tuple(dilation, n, fn, "dilation"))


def _check_pool_args(kernel: tuple, stride: tuple, padding: tuple, dilation: tuple) -> None:
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    for values, name in ((stride, "stride"), (kernel, "kernel size"), (dilation, "dilation")):
        if min(values) <= 0:
            raise RuntimeError(f"{name} should be greater than zero, but got {name}={values}")
    if min(padding) < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad={padding}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")


def _pool_geometry(shape: tuple, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple,
                   ceil_mode: bool) -> tuple:
    """(output sizes, (before, after) padding per dim) of pooling an input of ``shape``; with
    ``ceil_mode`` a last window may overhang the padded input (more padding after)."""
    _check_pool_args(kernel, stride, padding, dilation)
    nd = len(kernel)
    sizes = tuple(shape[-nd:])
    out = []
    for n, k, s, p, d in zip(sizes, kernel, stride, padding, dilation):
        span = n + 2 * p - d * (k - 1) - 1
        o = (span + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (o - 1) * s >= n + p:   # a window must start inside input or padding
            o -= 1
        out.append(o)
    if min(out) < 1:
        lead = tuple(shape[-nd - 1:-nd])
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, lead + sizes))}). "
                           f"Calculated output size: ({'x'.join(map(str, lead + tuple(out)))})."
                           f" Output size is too small")
    pairs = tuple((p, max(p, (o - 1) * s + d * (k - 1) + 1 - n - p))
                  for n, k, s, p, d, o in zip(sizes, kernel, stride, padding, dilation, out))
    return tuple(out), pairs


def _window_positions(out: tuple, kernel: tuple, stride: tuple, dilation: tuple,
                      pairs: tuple) -> list:
    """Per spatial dim, the input position each window element reads (negative or past the
    end: padding), as arrays broadcasting to kernel + out."""
    nd = len(kernel)
    grids = []
    for i, (k, o, s, d, (lo, _)) in enumerate(zip(kernel, out, stride, dilation, pairs)):
        shape = [1] * (2 * nd)
        shape[i], shape[nd + i] = k, o
        grids.append((np.arange(k)[:, None] * d + np.arange(o)[None, :] * s - lo).reshape(shape))
    return grids


# ---------------------------------------------------------------- max pooling

def _first_max(win: Tensor, dim: int, real: np.ndarray | None) -> tuple:
    """(values, window indices) of the first maximum along ``dim`` (NaN counts as the
    maximum); with ``real`` (which window elements are input, not padding) padding is never
    chosen, even when every input element of a window is the lowest value."""
    if real is None:
        return max_along(win, dim)
    m = amax(win, dim, keepdim=True)
    hit = eq(win, m)
    if win.dtype.is_floating:
        hit = logical_or(hit, isnan(win))
    hit = logical_and(hit, Tensor(real, None))
    idx = argmax(hit.to(win.dtype), dim, keepdim=True)
    return squeeze(take_along_dim(win, idx, dim), dim), squeeze(idx, dim)


def _max_pool(x: Tensor, kernel, stride, padding, dilation, ceil_mode: bool,
              return_indices: bool, torch_name: str = "MaxPool2DWithIndicesBackward0"):
    """Max pooling over the last len(kernel) dims of ``x`` (any leading dims)."""
    nd = len(kernel)
    sizes, dim = tuple(x.shape[-nd:]), x.ndim - nd
    out, pairs = _pool_geometry(tuple(x.shape), kernel, stride, padding, dilation, ceil_mode)
    grids = _window_positions(out, kernel, stride, dilation, pairs)
    real = None
    if any(lo or hi for lo, hi in pairs):
        inside = np.ones((1,) * (2 * nd), np.bool_)
        for g, n in zip(grids, sizes):
            inside = inside & (g >= 0) & (g < n)
        real = np.broadcast_to(inside, kernel + out).reshape((-1,) + out)
    low = -np.inf if x.dtype.is_floating else np.iinfo(x.dtype.np).min
    found = []

    def body(a):
        win = windows(pad_spatial(a, pairs, low), kernel, stride, dilation, out)
        values, idx = _first_max(win, dim, real)
        found.append(idx)
        return values
    values = composite(torch_name, body, [x], uses_out=False)
    if not return_indices:
        return values
    flat = sum(g * int(np.prod(sizes[i + 1:])) for i, g in enumerate(grids))
    table = np.broadcast_to(flat, kernel + out).reshape((1,) * dim + (-1,) + out)
    chosen = found[0].unsqueeze(dim)
    return values, squeeze(take_along_dim(Tensor(table.astype(np.int64), None), chosen, dim),
                           dim)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False, return_indices: bool = False):
    """2-D max pooling of (N, C, H, W) or (C, H, W); ``return_indices``: also each maximum's
    index in its (H, W) plane, flattened (h * W + w)."""
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    args = _pool_args("max_pool2d", 2, kernel_size, stride, padding, dilation)
    return _max_pool(x, *args, ceil_mode, return_indices)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False, return_indices: bool = False):
    """1-D max pooling of (N, C, L) or (C, L) (the 2-D pooling of an (N, C, 1, L) view)."""
    x = as_tensor(input)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(x.shape)}")
    args = _pool_args("max_pool1d", 1, kernel_size, stride, padding, dilation)
    widened = [(1,) + a for a in args[:2]] + [(0,) + args[2], (1,) + args[3]]
    result = _max_pool(x.unsqueeze(-2), *widened, ceil_mode, return_indices)
    if return_indices:
        return squeeze(result[0], -2), squeeze(result[1], -2)
    return squeeze(result, -2)


# ---------------------------------------------------------------- average pooling

def _divisors(sizes: tuple, out: tuple, kernel: tuple, stride: tuple, padding: tuple,
              count_include_pad: bool) -> np.ndarray:
    """torch's divisor of each window: its size within the padded input (count_include_pad),
    or within the input alone; an overhang past the padding (ceil_mode) never counts."""
    total = np.ones((), np.int64)
    for n, o, k, s, p in zip(sizes, out, kernel, stride, padding):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        count = end - start if count_include_pad else (np.minimum(end, n)
                                                       - np.maximum(start, 0))
        total = np.multiply.outer(total, count)
    return total


def _avg_pool(x: Tensor, kernel, stride, padding, ceil_mode: bool, count_include_pad: bool,
              divisor_override, torch_name: str = "AvgPool2DBackward0") -> Tensor:
    """Average pooling over the last len(kernel) dims of ``x`` (any leading dims)."""
    nd = len(kernel)
    if not (x.dtype.is_floating or x.dtype is dtypes.int64):   # (1-d pools run torch's 2-d)
        kernel_name = "avg_pool3d_out_frame" if nd == 3 else "avg_pool2d"
        raise NotImplementedError(f'"{kernel_name}" not implemented for '
                                  f'\'{x.dtype.scalar_type}\'')
    ones = (1,) * nd
    out, pairs = _pool_geometry(tuple(x.shape), kernel, stride, padding, ones, ceil_mode)
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        counts = np.asarray(int(divisor_override))
    else:
        counts = _divisors(tuple(x.shape[-nd:]), out, kernel, stride, padding,
                           count_include_pad)
    divisor = Tensor(counts.astype(x.dtype.np), None)
    # int64 (torch's one integer kernel): the window's int64 sum divided in C, toward zero
    divide = div if x.dtype.is_floating else (lambda a, b: div(a, b, rounding_mode="trunc"))

    def body(a):
        win = windows(pad_spatial(a, pairs), kernel, stride, ones, out)
        return divide(sum_along(win, a.ndim - nd), divisor)
    return composite(torch_name, body, [x], saves=False, uses_out=False)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,  # noqa: A002
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """2-D average pooling of (N, C, H, W) or (C, H, W)."""
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel, stride, padding, _ = _pool_args("avg_pool2d", 2, kernel_size, stride, padding, 1)
    return _avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,  # noqa: A002
               count_include_pad: bool = True) -> Tensor:
    """1-D average pooling of (N, C, L) or (C, L) (the 2-D pooling of an (N, C, 1, L) view)."""
    x = as_tensor(input)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {x.ndim}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for avg_pool1d)")
    kernel, stride, padding, _ = _pool_args("avg_pool1d", 1, kernel_size, stride, padding, 1)
    y = _avg_pool(x.unsqueeze(-2), (1,) + kernel, (1,) + stride, (0,) + padding, ceil_mode,
                  count_include_pad, None)
    return squeeze(y, -2)


# ---------------------------------------------------------------- adaptive average pooling

def _bins(n: int, o: int) -> np.ndarray:
    """(o, n) 0/1 matrix: bin i covers [floor(i n / o), ceil((i + 1) n / o))."""
    matrix = np.zeros((o, n), np.int64)
    for i in range(o):
        matrix[i, (i * n) // o:-(-(i + 1) * n // o)] = 1
    return matrix


def _adaptive_avg_pool(x: Tensor, output_size, fn: str) -> Tensor:
    """Adaptive average pooling over the last two dims of ``x``."""
    if not x.dtype.is_floating and out_is_not_one(output_size):   # (1, 1): mean's refusal
        raise NotImplementedError(f'"adaptive_avg_pool2d" not implemented for '
                                  f"'{x.dtype.scalar_type}'")
    if not isinstance(output_size, int) and len(output_size) == 2:
        output_size = tuple(n if o is None else o for o, n in zip(output_size, x.shape[-2:]))
    out = _pool_tuple(output_size, 2, fn, "output_size")
    if min(out) < 0:
        raise RuntimeError(f"{fn}: elements of output_size must be greater than or equal to 0 "
                           f"but received {out}")
    if 0 in x.shape[1:]:
        raise RuntimeError(f"{fn}(): Expected input to have non-zero size for non-batch "
                           f"dimensions, but input has sizes {list(x.shape)}")
    if out == (1, 1):       # torch: input.mean({-1, -2}, keepdim=True), MeanBackward1
        return mean(x, (-2, -1), keepdim=True)
    rows, cols = (_bins(n, o) for n, o in zip(x.shape[-2:], out))
    counts = np.multiply.outer(rows.sum(1), cols.sum(1))

    def body(a):   # (the constants in the dtype it computes in: float16's is float32)
        rows_t, cols_t, counts_t = (Tensor(m.astype(a.dtype.np), None)
                                    for m in (rows, cols.T, counts))
        return matmul(matmul(rows_t, a), cols_t) / counts_t
    rule = empty_output_backward("adaptive_avg_pool2d", x.ndim) if 0 in out else (
        lambda g, out, ins: (bin_mean_backward(g, [rows, cols]),))
    return composite("AdaptiveAvgPool2DBackward0", body, [x], rule, saves=False,
                     uses_out=False)


def empty_output_backward(fn: str, ndim: int, spatial: int = 2):
    """The backward of an adaptive pooling to an empty output size: torch's kernel refuses a
    grad_output with an empty non-batch dim (the forward computes the empty result). ``ndim``:
    the input's dims, ``spatial`` of them pooled (one more: a batch dim)."""
    def rule(g, out, ins):
        sizes = list(g.shape)
        d = next(d for d in range(1 if ndim == spatial + 2 else 0, ndim) if sizes[d] == 0)
        raise RuntimeError(f"{fn}_backward(): Expected grad_output to have non-zero size for "
                           f"non-batch dimensions, but grad_output has sizes {sizes} with "
                           f"dimension {d} being empty")
    return rule


def out_is_not_one(output_size) -> bool:
    return (output_size if isinstance(output_size, int) else tuple(output_size)) not in \
        (1, (1, 1))


def adaptive_avg_pool2d(input, output_size) -> Tensor:  # noqa: A002
    """Average over (H, W) bins of (N, C, H, W) or (C, H, W), for any output size (an int or
    a pair; None keeps that input size)."""
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{list(x.shape)}")
    return _adaptive_avg_pool(x, output_size, "adaptive_avg_pool2d")


def adaptive_avg_pool1d(input, output_size) -> Tensor:  # noqa: A002
    """Average over L bins of (N, C, L) or (C, L) (2-D pooling of an (N, C, 1, L) view)."""
    x = as_tensor(input)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got "
                           f"{list(x.shape)}")
    size = _pool_tuple(output_size, 1, "adaptive_avg_pool1d", "output_size")
    return squeeze(_adaptive_avg_pool(x.unsqueeze(-2), (1,) + size, "adaptive_avg_pool1d"), -2)


# ---------------------------------------------------------------- 3-d


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False, return_indices: bool = False):
    """3-D max pooling of (N, C, D, H, W) or (C, D, H, W); ``return_indices``: also each
    maximum's index in its (D, H, W) volume, flattened."""
    x = as_tensor(input)
    if x.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    args = _pool_args("max_pool3d", 3, kernel_size, stride, padding, dilation)
    return _max_pool(x, *args, ceil_mode, return_indices, "MaxPool3DWithIndicesBackward0")


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,  # noqa: A002
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """3-D average pooling of (N, C, D, H, W) or (C, D, H, W)."""
    x = as_tensor(input)
    if x.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    fn = "avg_pool3d"
    kernel = ntuple(kernel_size, 3, f"{fn}: kernel_size must be a single int, or a tuple of "
                                    f"three ints")
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) \
        else ntuple(stride, 3, f"{fn}: stride must be omitted, a single int, or a tuple of "
                               f"three ints")
    padding = ntuple(padding, 3, f"{fn}: padding must be a single int, or a tuple of three ints")
    return _avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override,
                     "AvgPool3DBackward0")


def adaptive_avg_pool3d(input, output_size) -> Tensor:  # noqa: A002
    """Average over (D, H, W) bins of (N, C, D, H, W) or (C, D, H, W), for any output size
    (an int or a triple; None keeps that input size)."""
    x = as_tensor(input)
    fn = "adaptive_avg_pool3d"
    if x.ndim not in (4, 5):
        raise RuntimeError(f"{fn}(): Expected 4D or 5D tensor, but got {list(x.shape)}")
    if not x.dtype.is_floating:
        raise NotImplementedError(f"\"{fn}_cpu\" not implemented for '{x.dtype.scalar_type}'")
    if isinstance(output_size, int):
        output_size = (output_size,) * 3
    if len(output_size) != 3:
        raise RuntimeError(f"{fn}: output_size must be 3")
    out = tuple(n if o is None else int(o) for o, n in zip(output_size, x.shape[-3:]))
    if min(out) < 0:
        raise RuntimeError(f"{fn}: elements of output_size must be greater than or equal to 0 "
                           f"but received {{{out[0]}, {out[1]},{out[2]}}}")
    for d in range(1 if x.ndim == 5 else 0, x.ndim):
        if x.shape[d] == 0:
            raise RuntimeError(f"{fn}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(x.shape)} with "
                               f"dimension {d} being empty")
    if out == (1, 1, 1):     # torch: input.mean({-1, -2, -3}, keepdim=True), MeanBackward1
        return mean(x, (-3, -2, -1), keepdim=True)
    bins = [_bins(n, o) for n, o in zip(x.shape[-3:], out)]
    counts = np.multiply.outer(np.multiply.outer(bins[0].sum(1), bins[1].sum(1)),
                               bins[2].sum(1))

    def body(a):
        if a.dtype is dtypes.float16:    # torch's float16 kernel sums in float16
            return half_bin_sums(a, bins)
        y = a
        for axis, matrix in zip((-3, -2, -1), bins):
            y = matmul(Tensor(matrix.astype(a.dtype.np), None), y.movedim(axis, -2)
                       ).movedim(-2, axis)
        return y / Tensor(counts.astype(a.dtype.np), None)
    rule = empty_output_backward(fn, x.ndim, 3) if 0 in out else (
        lambda g, out, ins: (bin_mean_backward(g, bins),))
    return composite("AdaptiveAvgPool3DBackward0", body, [x], rule, saves=False,
                     uses_out=False)
