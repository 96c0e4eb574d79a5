"""Convolution of ``torch.nn.functional``: ``conv1d``, ``conv2d``, ``conv3d``, ``unfold``
(im2col) and ``fold`` (col2im), and the sliding-window helpers the pooling functions
(``_pooling``) and the transposed convolutions (``conv_transpose``: ``col2im``) share.

Layer: front end (torch.nn mirror). Input: tensors, eager or traced, and torch's arguments
(ints or tuples; conv padding may also be 'valid' or 'same'). Output: tensors composed of
existing ops: ``pad``, strided slices stacked into windows (kernel positions in row-major
order), a (grouped) matmul with the weight, ``unslice`` sums for ``fold``. Each shows torch's
grad_fn (``ConvolutionBackward0``, ``Im2ColBackward0``, ``Col2ImBackward0``); the backward
of ``unfold`` and ``fold`` re-runs the composition, the convolution's is torch's formula (its
weight and input gradients by matmuls, ``unwindows`` putting columns back), so gradients,
eager mode and ``@symgrad.compile`` need nothing new. Eagerly, with no node to record, the
windows are one strided NumPy view (``_window_values``) and ``unwindows`` adds into one array.
It reads shapes only, never tensors' arrays.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...frontend.core import grad_mode
from ...frontend.core.apply import apply, as_tensor
from ...frontend.core.shown import unrecorded
from ...frontend.functions.basic import composite, matmul
from ...frontend.functions.shapes import getitem, squeeze, stack
from ...frontend.core.tensor import Tensor
from .linear import pad


# ---------------------------------------------------------------- arguments and windows

def ntuple(value, n: int, message: str) -> tuple:
    """``value`` (an int, or a sequence of 1 or ``n`` ints) as ``n`` ints; else RuntimeError
    ``message`` (``{value}`` in it shows the given value as a list)."""
    if isinstance(value, int):
        return (int(value),) * n
    values = tuple(int(v) for v in value)
    if len(values) == 1:
        return values * n
    if len(values) != n:
        raise RuntimeError(message.format(value=list(values)))
    return values


def _conv_tuple(value, n: int, name: str) -> tuple:
    return ntuple(value, n, f"expected {name} to be a single integer value or a list of {n} "
                            f"values to match the convolution dimensions, but got "
                            f"{name}={{value}}")


def pad_spatial(x: Tensor, pairs: tuple, value: float = 0.0) -> Tensor:
    """``x`` padded by (before, after) ``pairs`` over its last len(pairs) dims (constant)."""
    if not any(lo or hi for lo, hi in pairs):
        return x
    flat = [p for pair in reversed(pairs) for p in pair]   # last dim first, as F.pad reads it
    return pad(x, flat, value=value)


def windows(x: Tensor, kernel: tuple, stride: tuple, dilation: tuple, out: tuple) -> Tensor:
    """The sliding windows of (already padded) ``x`` over its last len(kernel) dims:
    shape lead + (prod(kernel),) + out, the kernel positions in row-major order, each one
    strided slice of ``x``."""
    nd = len(kernel)
    if not (x._requires_grad and grad_mode.is_grad_enabled()) and unrecorded(x):
        found = _window_values(x._value, kernel, stride, dilation, out)
        if found is not None:
            return Tensor(found, None)
    lead = (slice(None),) * (x.ndim - nd)
    parts = []
    for offsets in itertools.product(*(range(k) for k in kernel)):
        index = tuple(slice(o * d, o * d + s * (n - 1) + 1, s)
                      for o, d, s, n in zip(offsets, dilation, stride, out))
        parts.append(getitem(x, lead + index))
    return stack(parts, dim=x.ndim - nd)


def _window_values(v: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                   out: tuple) -> np.ndarray | None:
    """``windows``' value, read from eager array ``v`` by one strided view and one copy, not
    a slice and a stack per kernel position (the same elements, a new row-major array); None
    where a window would reach past ``v``'s end (the slices decide then)."""
    nd = len(kernel)
    sizes, steps = v.shape[v.ndim - nd:], v.strides[v.ndim - nd:]
    if any(d * (k - 1) + s * (n - 1) >= size or n < 1 for k, d, s, n, size in
           zip(kernel, dilation, stride, out, sizes)):
        return None
    lead = v.shape[:v.ndim - nd]
    view = as_strided(
        v, lead + tuple(kernel) + tuple(out),
        v.strides[:v.ndim - nd] + tuple(t * d for t, d in zip(steps, dilation))
        + tuple(t * s for t, s in zip(steps, stride)), writeable=False)
    return view.copy().reshape(lead + (math.prod(kernel),) + tuple(out))


def unwindows(cols: Tensor, shape: tuple, kernel: tuple, stride: tuple,
              dilation: tuple) -> Tensor:
    """The adjoint of ``windows``: ``cols`` (lead + (prod(kernel),) + out) added back into
    zeros of ``shape`` (lead + the padded sizes) where ``windows`` read each entry, the kernel
    positions in row-major order (torch's col2im order). An ``unslice`` and a sum per kernel
    position; with no node to record, the same additions straight into one NumPy array."""
    nd = len(kernel)
    out = tuple(cols.shape[cols.ndim - nd:])
    lead = len(shape) - nd
    places = []
    for offsets in itertools.product(*(range(k) for k in kernel)):
        places.append(((0,) * lead + tuple(o * d for o, d in zip(offsets, dilation)),
                       tuple(shape[:lead]) + tuple(o * d + s * (n - 1) + 1 for o, d, s, n in
                                                   zip(offsets, dilation, stride, out))))
    steps = (1,) * lead + tuple(stride)
    if not (cols._requires_grad and grad_mode.is_grad_enabled()) and unrecorded(cols):
        v = cols._value
        total = np.zeros(shape, v.dtype)
        for i, (starts, stops) in enumerate(places):
            total[tuple(map(slice, starts, stops, steps))] += v[(slice(None),) * lead + (i,)]
        return Tensor(total, None)
    total = None
    for i, (starts, stops) in enumerate(places):
        part = getitem(cols, (slice(None),) * lead + (i,))
        placed = apply("unslice", part, shape_to=tuple(shape), starts=starts, stops=stops,
                       steps=steps)
        total = placed if total is None else total + placed
    return total


def sliding_sizes(sizes: tuple, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """How many windows fit along each (padded) dim."""
    return tuple((n - d * (k - 1) - 1) // s + 1
                 for n, k, s, d in zip(sizes, kernel, stride, dilation))


# ---------------------------------------------------------------- convolution

def _conv_padding(padding, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """(before, after) per spatial dim: 'same' puts the odd element after, as torch."""
    n = len(kernel)
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * n
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: {padding!r}")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
        return tuple((t // 2, t - t // 2) for t in totals)
    pads = _conv_tuple(padding, n, "padding")
    if any(p < 0 for p in pads):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in pads)


def _check_conv_shapes(x: Tensor, w: Tensor, b: Tensor | None, groups: int, pairs: tuple,
                       dilation: tuple) -> None:
    """torch's checks of a batched input against the weight and bias."""
    if w.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size {list(w.shape)} instead")
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(w.shape)}, expected "
                           f"input{list(x.shape)} to have {w.shape[1] * groups} channels, but "
                           f"got {x.shape[1]} channels instead")
    if b is not None and (b.ndim != 1 or b.shape[0] != w.shape[0]):
        raise RuntimeError(f"Given weight of size {list(w.shape)}, expected bias to be "
                           f"1-dimensional with {w.shape[0]} elements, but got bias of size "
                           f"{list(b.shape)} instead")
    padded = [n + lo + hi for n, (lo, hi) in zip(x.shape[2:], pairs)]
    dilated = [d * (k - 1) + 1 for k, d in zip(w.shape[2:], dilation)]
    if any(k > n for k, n in zip(dilated, padded)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, dilated))}). Kernel size can't be greater "
                           f"than actual input size")
    if w.dtype is not x.dtype:
        raise RuntimeError(f"expected scalar type {x.dtype.scalar_type} but found "
                           f"{w.dtype.scalar_type}")
    if b is not None and b.dtype is not x.dtype:
        raise RuntimeError(f"Input type ({x.dtype.cpp_name}) and bias type ({b.dtype.cpp_name}) "
                           f"should be the same")


def _convolve(x: Tensor, w: Tensor, b: Tensor | None, stride: tuple, pairs: tuple,
              dilation: tuple, groups: int) -> Tensor:
    """The batched convolution: windows (im2col) times the weight, per group."""
    kernel = tuple(w.shape[2:])
    xp = pad_spatial(x, pairs)
    out = sliding_sizes(tuple(xp.shape[2:]), kernel, stride, dilation)
    cols = windows(xp, kernel, stride, dilation, out)           # (N, C, K, *out)
    n, c, o = x.shape[0], x.shape[1], w.shape[0]
    inner = (c // groups) * math.prod(kernel)
    cols = cols.reshape(n, groups, inner, math.prod(out))
    y = matmul(w.reshape(groups, o // groups, inner), cols)     # (N, groups, O/groups, L)
    y = y.reshape((n, o) + out)
    return y if b is None else y + b.reshape((o,) + (1,) * len(kernel))


def _convolution_rule(stride: tuple, pairs: tuple, dilation: tuple, groups: int):
    """``_convolve``'s backward, as torch's convolution_backward: the weight's gradient is
    the output's times the input's windows, the input's the weight's transpose times the
    output's gradient put back by ``unwindows`` (and cropped), the bias's a sum; computed
    only for the inputs that require grad. (Re-running the composition recorded a slice per
    kernel position and back-propagated through each.)"""
    def rule(g, out, ins):
        x, w = ins[0], ins[1]
        kernel = tuple(w.shape[2:])
        n, c, o = x.shape[0], x.shape[1], w.shape[0]
        sizes = tuple(g.shape[2:])
        inner, length = (c // groups) * math.prod(kernel), math.prod(sizes)
        gy = g.reshape(n, groups, o // groups, length)
        grads = [None, None] + [None] * (len(ins) - 2)
        if x._requires_grad:
            cols = matmul(w.reshape(groups, o // groups, inner).transpose(-1, -2), gy)
            shape = (n, c) + tuple(m + lo + hi for m, (lo, hi) in zip(x.shape[2:], pairs))
            gx = unwindows(cols.reshape((n, c, math.prod(kernel)) + sizes), shape, kernel,
                           stride, dilation)
            grads[0] = getitem(gx, (Ellipsis,) + tuple(slice(lo, lo + m) for m, (lo, _) in
                                                       zip(x.shape[2:], pairs)))
        if w._requires_grad:
            cols = windows(pad_spatial(x, pairs), kernel, stride, dilation, sizes)
            gw = matmul(gy, cols.reshape(n, groups, inner, length).transpose(-1, -2))
            grads[1] = gw.sum(0).reshape(w.shape)
        if len(ins) > 2 and ins[2]._requires_grad:
            grads[2] = g.sum((0,) + tuple(range(2, g.ndim)))
        return tuple(grads)
    return rule


def _conv(nd: int, input, weight, bias, stride, padding, dilation, groups) -> Tensor:  # noqa: A002
    x, w = as_tensor(input), as_tensor(weight)
    b = None if bias is None else as_tensor(bias)
    if x.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                           f"conv{nd}d, but got input of size: {list(x.shape)}")
    if w.ndim != nd + 2:
        raise RuntimeError(f"Expected {nd + 2}D weight to conv{nd}d, but got weight of size: "
                           f"{list(w.shape)}")
    stride, dilation = _conv_tuple(stride, nd, "stride"), _conv_tuple(dilation, nd, "dilation")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    pairs = _conv_padding(padding, tuple(w.shape[2:]), stride, dilation)
    batched = x if x.ndim == nd + 2 else x.unsqueeze(0)
    _check_conv_shapes(batched, w, b, groups, pairs, dilation)
    inputs = [batched, w] + ([] if b is None else [b])
    y = composite("ConvolutionBackward0",
                  lambda a, k, *c: _convolve(a, k, c[0] if c else None, stride, pairs, dilation,
                                             groups), inputs,
                  _convolution_rule(stride, pairs, dilation, groups), uses_out=False)
    return y if x.ndim == nd + 2 else squeeze(y, 0)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1,  # noqa: A002
           groups: int = 1) -> Tensor:
    """1-D convolution (cross-correlation) of (N, C, L) or (C, L) with weight (O, C/groups, k)."""
    return _conv(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1,  # noqa: A002
           groups: int = 1) -> Tensor:
    """2-D convolution (cross-correlation) of (N, C, H, W) or (C, H, W) with weight
    (O, C/groups, kH, kW)."""
    return _conv(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1,  # noqa: A002
           groups: int = 1) -> Tensor:
    """3-D convolution (cross-correlation) of (N, C, D, H, W) or (C, D, H, W) with weight
    (O, C/groups, kD, kH, kW)."""
    return _conv(3, input, weight, bias, stride, padding, dilation, groups)


# ---------------------------------------------------------------- im2col / col2im

def _block_args(kernel_size, dilation, padding, stride, what: str) -> tuple:
    """(kernel, dilation, padding, stride) as pairs, checked as torch's im2col/col2im."""
    names = ("kernel_size", "dilation", "padding", "stride")
    values = tuple(ntuple(v, 2, f"{what}(): {name} must be an int or a pair of ints, but got "
                                f"{name}={{value}}")
                   for v, name in zip((kernel_size, dilation, padding, stride), names))
    for (a, b), name in zip(values, names):
        if (a < 0 or b < 0) if name == "padding" else (a <= 0 or b <= 0):
            raise RuntimeError(f"{what}(): {name} should be "
                               f"{'non-negative' if name == 'padding' else 'greater than zero'}"
                               f", but got {name}=({a}, {b})")
    return values


def _block_count(sizes: tuple, kernel, dilation, padding, stride) -> tuple:
    blocks = sliding_sizes(tuple(n + 2 * p for n, p in zip(sizes, padding)), kernel, stride,
                           dilation)
    if min(blocks) < 1:
        raise RuntimeError(f"Given input with spatial size {tuple(sizes)}, kernel_size="
                           f"{kernel}, dilation={dilation}, padding={padding}, calculated shape "
                           f"of the array of sliding blocks as {blocks}, but its components "
                           f"must be at least one.")
    return blocks


def unfold(input, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:  # noqa: A002
    """im2col: the sliding blocks of (N, C, H, W) or (C, H, W) as columns, (N, C*kH*kW, L)
    (channel-major, then kernel positions row-major; L blocks row-major)."""
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got "
                           f"{x.ndim}D)")
    kernel, dilation, padding, stride = _block_args(kernel_size, dilation, padding, stride,
                                                    "unfold")
    blocks = _block_count(tuple(x.shape[-2:]), kernel, dilation, padding, stride)

    def body(a):
        cols = windows(pad_spatial(a, tuple((p, p) for p in padding)), kernel, stride,
                       dilation, blocks)
        return cols.reshape(tuple(a.shape[:-3]) + (a.shape[-3] * math.prod(kernel),
                                                   math.prod(blocks)))
    return composite("Im2ColBackward0", body, [x], saves=False, uses_out=False)


def _check_fold(x: Tensor, kernel: tuple, blocks: tuple, args: tuple) -> None:
    k = math.prod(kernel)
    if x.shape[-2] % k:
        raise RuntimeError(f"Expected size of input's dimension {x.ndim - 2} to be divisible by "
                           f"the product of kernel_size, but got input.size({x.ndim - 2})="
                           f"{x.shape[-2]} and kernel_size={kernel}.")
    if x.shape[-1] != math.prod(blocks):
        output_size, kernel, dilation, padding, stride = args
        raise RuntimeError(f"Given output_size={output_size}, kernel_size={kernel}, dilation="
                           f"{dilation}, padding={padding}, stride={stride}, expected size of "
                           f"input's dimension {x.ndim - 1} to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {math.prod(blocks)}, "
                           f"but got input.size({x.ndim - 1})={x.shape[-1]}.")


def col2im(a: Tensor, size: tuple, kernel, dilation, padding, stride, blocks) -> Tensor:
    """Each column's entries added at their block positions of a (C, *size) image: ``a`` is
    (..., C * prod(kernel), prod(blocks)), channel-major; the kernel positions are added in
    row-major order (torch's col2im order), then the padding is cropped."""
    lead = tuple(a.shape[:-2])
    c = a.shape[-2] // math.prod(kernel)
    parts = a.reshape(lead + (c, math.prod(kernel)) + blocks)
    padded = lead + (c,) + tuple(n + 2 * p for n, p in zip(size, padding))
    total = unwindows(parts, padded, kernel, stride, dilation)
    crop = tuple(slice(p, p + n) for n, p in zip(size, padding))
    return getitem(total, (Ellipsis,) + crop)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:  # noqa: A002
    """col2im, the adjoint of ``unfold``: (N, C*kH*kW, L) or (C*kH*kW, L) columns summed into
    (N, C, *output_size) (overlapping entries add up)."""
    x = as_tensor(input)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(x.shape)}")
    size = ntuple(output_size, 2, "fold(): output_size must be an int or a pair of ints, but "
                                  "got output_size={value}")
    kernel, dilation, padding, stride = _block_args(kernel_size, dilation, padding, stride,
                                                    "fold")
    blocks = _block_count(size, kernel, dilation, padding, stride)
    _check_fold(x, kernel, blocks, (size, kernel, dilation, padding, stride))
    return composite("Col2ImBackward0",
                     lambda a: col2im(a, size, kernel, dilation, padding, stride, blocks), [x],
                     saves=False, uses_out=False)
