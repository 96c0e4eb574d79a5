"""The pooling variants of ``torch.nn.functional`` built beside the basic pooling:
``max_pool1d``/``2d``/``3d_with_indices``, ``adaptive_max_pool1d``/``2d``/``3d`` (with
indices), ``max_unpool1d``/``2d``/``3d`` and the power-average ``lp_pool1d``/``2d``/``3d``.

Layer: front end (torch.nn mirror). Input: tensors, eager or traced, (N, C, *S) or (C, *S),
and torch's arguments. Output: tensors composed of existing ops: adaptive max pooling gathers
each bin (torch's bins [floor(i n / o), ceil((i + 1) n / o)), padded to the largest bin by
repeating its last element) and takes its first maximum in row-major order, as torch's kernel
(``AdaptiveMaxPool2DBackward0``: the gradient goes to that element); max unpooling writes each
value at its index in a zero plane, the last of repeated indices winning as in torch's loop
(found with a stable sort, so traced indices work too; ``MaxUnpool2DBackward0``: every input
gets the gradient at its index); lp pooling is torch's formula on ``avg_pool``. The 1-d
functions run the 2-d ones on an (N, C, 1, L) view, as torch does. Index checks that need
values (an index outside the output plane) run eagerly only.
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from ...frontend.core.apply import apply, as_tensor
from ...frontend.core.grad_mode import no_grad
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import (abs, composite, gather_along, ne, relu, sign,
                                         take_along_dim, where)
from ...frontend.functions.basic import max as max_along
from ...frontend.functions.creation import full_like
from ...frontend.functions.shapes import cat, squeeze
from ...frontend.functions.sorting import sort
from .conv import ntuple
from .pooling import (avg_pool1d, avg_pool2d, avg_pool3d, empty_output_backward, max_pool1d,
                      max_pool2d, max_pool3d)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0,  # noqa: A002
                            dilation=1, ceil_mode: bool = False, return_indices: bool = False):
    """``max_pool1d`` returning (values, indices) whatever ``return_indices`` says."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0,  # noqa: A002
                            dilation=1, ceil_mode: bool = False, return_indices: bool = False):
    """``max_pool2d`` returning (values, indices) whatever ``return_indices`` says."""
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


# ---------------------------------------------------------------- adaptive max pooling

def bin_table(n: int, o: int) -> np.ndarray:
    """(o, k) input positions of torch's adaptive bins over a dim of size n: bin i covers
    [floor(i n / o), ceil((i + 1) n / o)); k is the largest bin, a shorter bin repeats its
    last position (a repeat never changes a maximum nor the first position reaching it)."""
    starts = np.array([(i * n) // o for i in range(o)], np.int64)
    ends = np.array([-(-(i + 1) * n // o) for i in range(o)], np.int64)
    k = int((ends - starts).max()) if o else 0
    return np.minimum(starts[:, None] + np.arange(k)[None, :], ends[:, None] - 1)


def _adaptive_size(x: Tensor, output_size, fn: str, nd: int = 2) -> tuple:
    """The output sizes: an int or ``nd`` of them (None keeps that input size), with
    torch's checks."""
    if isinstance(output_size, int):
        return (output_size,) * nd
    sizes = tuple(output_size)
    if len(sizes) != nd:
        raise RuntimeError(f"{fn}(): internal error: output_size.size() must be {nd}")
    return tuple(n if o is None else int(o) for o, n in zip(sizes, x.shape[-nd:]))


def _check_adaptive(x: Tensor, out: tuple, fn: str) -> None:
    nd = len(out)
    if min(out) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                           f"{list(x.shape[:-nd]) + list(out)}")
    for d in range(1 if x.ndim == nd + 2 else 0, x.ndim):
        if x.shape[d] == 0:
            raise RuntimeError(f"{fn}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(x.shape)} with "
                               f"dimension {d} being empty")
    if not x.dtype.is_floating:
        kernel = fn + "_cpu" if nd == 3 else fn
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{x.dtype.scalar_type}'")


def _adaptive_max(x: Tensor, out: tuple, torch_name: str = "AdaptiveMaxPool2DBackward0"):
    """(values, flat indices in the plane or volume) of adaptive max pooling over the last
    len(out) dims (2 or 3)."""
    nd = len(out)
    sizes, lead = tuple(x.shape[-nd:]), tuple(x.shape[:-nd])
    if 0 in out:      # an empty result (no bins), whose backward is torch's error
        shape = lead + out
        rule = empty_output_backward(f"adaptive_max_pool{nd}d", x.ndim, nd)
        values = composite(torch_name, lambda a: a.reshape(-1)[:0].reshape(shape), [x], rule,
                           saves=False, uses_out=False)
        return values, Tensor(np.zeros(shape, np.int64), None)
    tables = [bin_table(n, o) for n, o in zip(sizes, out)]
    ks = tuple(t.shape[1] for t in tables)
    found = []

    def body(a):
        win = a
        for i, table in enumerate(tables):                      # each dim becomes o * k
            win = _take(win, table, a.ndim - nd + i)
        win = win.reshape(lead + tuple(v for o, k in zip(out, ks) for v in (o, k)))
        first = len(lead)
        order = tuple(range(first)) + tuple(first + 2 * i for i in range(nd)) + tuple(
            first + 2 * i + 1 for i in range(nd))
        win = win.permute(order).reshape(lead + out + (math.prod(ks),))
        values, idx = max_along(win, -1)
        found.append(idx)
        return values
    values = composite(torch_name, body, [x], uses_out=False)
    flat = np.zeros(out + ks, np.int64)
    for i, table in enumerate(tables):     # position along dim i, times the dims after it
        shape = [1] * (2 * nd)
        shape[i], shape[nd + i] = table.shape
        flat = flat + table.reshape(shape) * math.prod(sizes[i + 1:])
    flat = flat.reshape(out + (math.prod(ks),))
    table = Tensor(np.ascontiguousarray(flat.reshape((1,) * len(lead) + flat.shape)), None)
    chosen = found[0].unsqueeze(-1)
    return values, squeeze(take_along_dim(table, chosen, -1), -1)


def _take(a: Tensor, table: np.ndarray, axis: int) -> Tensor:
    """The positions ``table`` (o, k) of ``a`` along ``axis``: that dim becomes o * k."""
    shape = list(a.shape)
    shape[axis] = table.size
    view = [1] * a.ndim
    view[axis] = table.size
    index = Tensor(np.broadcast_to(table.reshape(view), shape), None)
    return gather_along(a, index, axis)


def adaptive_max_pool2d_with_indices(input, output_size,  # noqa: A002
                                     return_indices: bool = False):
    """Adaptive max pooling of (N, C, H, W) or (C, H, W): (values, indices), each index
    h * W + w in its plane."""
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: "
                           f"{list(x.shape)}")
    out = _adaptive_size(x, output_size, "adaptive_max_pool2d")
    _check_adaptive(x, out, "adaptive_max_pool2d")
    return _adaptive_max(x, out)


def adaptive_max_pool2d(input, output_size, return_indices: bool = False):  # noqa: A002
    """The maximum over each of ``output_size`` (H, W) bins; ``return_indices``: also where."""
    result = adaptive_max_pool2d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool1d_with_indices(input, output_size,  # noqa: A002
                                     return_indices: bool = False):
    """Adaptive max pooling of (N, C, L) or (C, L): (values, indices in L)."""
    x = as_tensor(input)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {x.ndim}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for "
                           f"adaptive_max_pool1d)")
    if not isinstance(output_size, int):
        if len(output_size) != 1:
            raise RuntimeError(f"adaptive_max_pool1d() argument 'output_size' should contain "
                               f"one int (got {len(output_size)})")
        output_size = output_size[0]
    wide = x.unsqueeze(-2)
    _check_adaptive(wide, (1, output_size), "adaptive_max_pool2d")
    values, idx = _adaptive_max(wide, (1, output_size))
    return squeeze(values, -2), squeeze(idx, -2)


def adaptive_max_pool1d(input, output_size, return_indices: bool = False):  # noqa: A002
    """The maximum over each of ``output_size`` bins of L; ``return_indices``: also where."""
    result = adaptive_max_pool1d_with_indices(input, output_size)
    return result if return_indices else result[0]


# ---------------------------------------------------------------- max unpooling

def _unpool_size(x: Tensor, kernel: tuple, stride: tuple, padding: tuple,
                 output_size) -> tuple:
    """torch's default output size (n - 1) * stride + kernel - 2 * padding, or the given one
    (spatial, or with the leading dims) if within a stride of it."""
    nd = len(kernel)
    if x.ndim < nd:      # torch reads input.size()[-nd + d] first
        raise IndexError("tuple index out of range")
    default = [(n - 1) * s + k - 2 * p
               for n, k, s, p in zip(x.shape[-nd:], kernel, stride, padding)]
    if output_size is None:
        sizes = default
    else:
        given = output_size
        if len(given) == nd + 2:
            given = given[2:]
        if len(given) != nd:
            raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} "
                             f"elements, but it has a length of '{len(given)}'")
        for d in range(nd):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < given[d] < high:
                raise ValueError(f'invalid output_size "{given}" (dim {d} must be between '
                                 f'{low} and {high})')
        sizes = list(given)
    for d, n in enumerate(sizes):
        if n < 0:
            raise ValueError(f"max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={n}")
    return tuple(int(n) for n in sizes)


def _check_unpool(x: Tensor, idx: Tensor, plane: tuple) -> None:
    nd = len(plane)
    if idx.dtype is not dtypes.int64:
        raise RuntimeError("elements in indices should be type int64" if nd == 3 else
                           f"elements in indices should be type int64 but got: "
                           f"{idx.dtype.scalar_type}")
    if x.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Input to max_unpooling{nd}d should be a {nd + 1}d or {nd + 2}d "
                           f"Tensor, but got a tensor with {x.ndim} dimensions.")
    if idx.shape != x.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(x.shape)}) but got indices tensor with shape: "
                           f"{list(idx.shape)}")
    if not x.dtype.is_floating:
        raise NotImplementedError(f"\"max_unpool{nd}d\" not implemented for "
                                  f"'{x.dtype.scalar_type}'")
    if not idx.is_traced and idx.numel():
        flat = idx.numpy()
        bad = (flat < 0) | (flat >= math.prod(plane))
        if bad.any():
            raise RuntimeError(f"Found an invalid max index: {int(flat[bad].flat[0])} (output "
                               f"volumes are of size {'x'.join(map(str, plane))})")


def _last_of_repeats(flat_idx: Tensor) -> Tensor:
    """Along the last dim, True where an index does not occur again later (torch's loop
    writes in order: the last write wins). A stable sort puts equal indices together in
    their original order; the last of each run is kept."""
    with no_grad():
        ordered, perm = sort(flat_idx, -1, stable=True)
        later = ne(ordered[..., :-1], ordered[..., 1:])
        last = cat([later, full_like(ordered[..., :1], True, dtype=dtypes.bool_)], -1)
        keep = apply("scatter_add", last.to(dtypes.int64), perm, axis=flat_idx.ndim - 1,
                     shape_to=tuple(flat_idx.shape))
    return ne(keep, 0)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0,  # noqa: A002
                 output_size=None) -> Tensor:
    """A partial inverse of ``max_pool2d``: each value of (N, C, h, w) or (C, h, w) written at
    its index (h * W + w) of a zero (N, C, H, W) plane."""
    x, idx = as_tensor(input), as_tensor(indices)
    kernel = ntuple(kernel_size, 2, "max_unpool2d: kernel_size must be an int or a pair")
    stride = kernel if stride is None else ntuple(stride, 2, "max_unpool2d: bad stride")
    padding = ntuple(padding, 2, "max_unpool2d: bad padding")
    if isinstance(output_size, int):
        output_size = (output_size, output_size)
    return _unpool_into(x, idx, _unpool_size(x, kernel, stride, padding, output_size))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0,  # noqa: A002
                 output_size=None) -> Tensor:
    """A partial inverse of ``max_pool1d``: (N, C, l) or (C, l) values written at their
    indices of a zero (N, C, L) row (the 2-d unpooling of an (N, C, L, 1) view, as torch)."""
    x, idx = as_tensor(input), as_tensor(indices)
    kernel = ntuple(kernel_size, 1, "max_unpool1d: kernel_size must be an int")
    stride = kernel if stride is None else ntuple(stride, 1, "max_unpool1d: bad stride")
    padding = ntuple(padding, 1, "max_unpool1d: bad padding")
    if isinstance(output_size, int):
        output_size = (output_size,)
    (length,) = _unpool_size(x, kernel, stride, padding, output_size)
    return squeeze(_unpool_into(x.unsqueeze(-1), idx.unsqueeze(-1), (length, 1)), -1)


def _unpool_into(x: Tensor, idx: Tensor, plane: tuple,
                 torch_name: str = "MaxUnpool2DBackward0") -> Tensor:
    """Each value of ``x`` (..., h, w) or (..., d, h, w) written at its flat index ``idx`` of
    a zero (..., *plane); the gradient of each value is the cotangent at its index."""
    _check_unpool(x, idx, plane)
    lead = tuple(x.shape[:-len(plane)])
    flat_idx = idx.reshape(lead + (-1,))
    keep = _last_of_repeats(flat_idx)
    size = math.prod(plane)

    def body(a):
        kept = where(keep, a.reshape(lead + (-1,)), 0.0)
        return apply("scatter_add", kept, flat_idx, axis=len(lead),
                     shape_to=lead + (size,)).reshape(lead + plane)

    def rule(g, out, ins):
        return (gather_along(g.reshape(lead + (size,)), flat_idx, len(lead)).reshape(x.shape),)
    return composite(torch_name, body, [x], rule, saves=False, uses_out=False)


# ---------------------------------------------------------------- power-average pooling

def _lp(x: Tensor, norm_type: float, pooled, window: int, extreme) -> Tensor:
    """torch's lp pooling: (sign(avg) * relu(|avg|) * window) ** (1 / p) of the average of
    x ** p; p = +-inf: the max (min) of |x|."""
    if norm_type == math.inf:
        return extreme(abs(x))
    if norm_type == -math.inf:
        return -extreme(-abs(x))
    out = pooled(x ** norm_type)
    return ((sign(out) * relu(abs(out))) * window) ** (1.0 / norm_type)


def lp_pool2d(input, norm_type: float, kernel_size, stride=None,  # noqa: A002
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling of (N, C, H, W) or (C, H, W): (sum over the window of
    x ** p) ** (1 / p)."""
    x = as_tensor(input)
    kw, kh = ntuple(kernel_size, 2, "lp_pool2d: kernel_size must be an int or a pair")
    return _lp(x, norm_type,
               lambda t: avg_pool2d(t, kernel_size, stride, 0, ceil_mode), kw * kh,
               lambda t: max_pool2d(t, kernel_size, stride, 0, 1, ceil_mode))


def lp_pool1d(input, norm_type: float, kernel_size, stride=None,  # noqa: A002
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling of (N, C, L) or (C, L)."""
    x = as_tensor(input)
    if not isinstance(kernel_size, int):
        raise TypeError(f"mul(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(kernel_size).__name__}")
    return _lp(x, norm_type,
               lambda t: avg_pool1d(t, kernel_size, stride, 0, ceil_mode), kernel_size,
               lambda t: max_pool1d(t, kernel_size, stride, 0, 1, ceil_mode))


# ---------------------------------------------------------------- 3-d

def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0,  # noqa: A002
                            dilation=1, ceil_mode: bool = False, return_indices: bool = False):
    """``max_pool3d`` returning (values, indices) whatever ``return_indices`` says."""
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool3d_with_indices(input, output_size,  # noqa: A002
                                     return_indices: bool = False):
    """Adaptive max pooling of (N, C, D, H, W) or (C, D, H, W): (values, indices), each
    index (d * H + h) * W + w in its volume."""
    x = as_tensor(input)
    if x.ndim not in (4, 5):
        raise RuntimeError(f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: "
                           f"{list(x.shape)}")
    out = _adaptive_size(x, output_size, "adaptive_max_pool3d", 3)
    _check_adaptive(x, out, "adaptive_max_pool3d")
    return _adaptive_max(x, out, "AdaptiveMaxPool3DBackward0")


def adaptive_max_pool3d(input, output_size, return_indices: bool = False):  # noqa: A002
    """The maximum over each of ``output_size`` (D, H, W) bins; ``return_indices``: also
    where."""
    result = adaptive_max_pool3d_with_indices(input, output_size)
    return result if return_indices else result[0]


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0,  # noqa: A002
                 output_size=None) -> Tensor:
    """A partial inverse of ``max_pool3d``: each value of (N, C, d, h, w) or (C, d, h, w)
    written at its index of a zero (N, C, D, H, W) volume."""
    x, idx = as_tensor(input), as_tensor(indices)
    kernel = ntuple(kernel_size, 3, "max_unpool3d: kernel_size must be an int or a triple")
    stride = kernel if stride is None else ntuple(stride, 3, "max_unpool3d: bad stride")
    padding = ntuple(padding, 3, "max_unpool3d: bad padding")
    if isinstance(output_size, int):
        output_size = (output_size,) * 3
    volume = _unpool_size(x, kernel, stride, padding, output_size)
    return _unpool_into(x, idx, volume, "MaxUnpool3DBackward0")


def lp_pool3d(input, norm_type: float, kernel_size, stride=None,  # noqa: A002
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling of (N, C, D, H, W) or (C, D, H, W): (sum over the window of
    x ** p) ** (1 / p)."""
    x = as_tensor(input)
    kd, kw, kh = ntuple(kernel_size, 3, "lp_pool3d: kernel_size must be an int or a triple")
    return _lp(x, norm_type,
               lambda t: avg_pool3d(t, kernel_size, stride, 0, ceil_mode), kd * kw * kh,
               lambda t: max_pool3d(t, kernel_size, stride, 0, 1, ceil_mode))
