"""Transposed convolution of ``torch.nn.functional``: ``conv_transpose1d``,
``conv_transpose2d``, ``conv_transpose3d`` (the adjoint of the convolution with respect to its
input, "deconvolution").

Layer: front end (torch.nn mirror). Input: tensors, eager or traced, of shape (N, C_in, *S) or
(C_in, *S), a weight (C_in, C_out/groups, *K), an optional bias (C_out,) and torch's arguments
(stride, padding, output_padding, groups, dilation: ints or tuples). Output: (N, C_out, *O) with
O = (S - 1) * stride - 2 * padding + dilation * (K - 1) + output_padding + 1, computed as
torch's CPU reference computes it: the columns weight^T @ input of each group (a matmul), summed
into the output image one kernel position after another (``conv.col2im``: strided ``unslice``
placements), cropped by ``padding``, then the bias added. One node, ``ConvolutionBackward0``,
whose backward re-runs that composition, so gradients (input, weight, bias), eager mode and
``@symgrad.compile`` need nothing new. It reads shapes only, never tensors' arrays.
"""

from __future__ import annotations

import math

from ...frontend.core.apply import as_tensor
from ...frontend.functions.basic import composite, matmul
from ...frontend.functions.shapes import squeeze
from ...frontend.core.tensor import Tensor
from .conv import col2im, ntuple

_AXES = {1: ("height", "width"), 2: ("height", "width"), 3: ("depth", "height", "width")}


def _tuple(value, n: int, name: str) -> tuple:
    return ntuple(value, n, f"expected {name} to be a single integer value or a list of {n} "
                            f"values to match the convolution dimensions, but got "
                            f"{name}={{value}}")


def _named(values: tuple, name: str, fill: int) -> str:
    """torch's per-dimension listing ("stride_height: 1 stride_width: 2"); a 1-d convolution
    is a 2-d one of height 1, as torch runs it."""
    padded = ((fill,) + values) if len(values) == 1 else values
    return " ".join(f"{name}_{axis}: {v}" for axis, v in zip(_AXES[len(values)], padded))


def _check_args(stride: tuple, padding: tuple, output_padding: tuple, dilation: tuple,
                groups: int) -> None:
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero, but got "
                           + _named(dilation, "dilation", 1).replace(" dilation", ", dilation"))
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if any(o >= s and o >= d for o, s, d in zip(output_padding, stride, dilation)) or \
            any(o < 0 for o in output_padding):
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           f"got {_named(output_padding, 'output_padding', 0)} "
                           f"{_named(stride, 'stride', 1)} {_named(dilation, 'dilation', 1)}")


def _check_shapes(x: Tensor, w: Tensor, b: Tensor | None, groups: int) -> None:
    """torch's checks of a batched input against the weight (C_in, C_out/groups, *K) and
    the bias."""
    if w.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{list(w.shape)}] instead")
    if x.shape[1] != w.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(w.shape)}, expected "
                           f"input{list(x.shape)} to have {w.shape[0]} channels, but got "
                           f"{x.shape[1]} channels instead")
    out_channels = w.shape[1] * groups
    if b is not None and (b.ndim != 1 or b.shape[0] != out_channels):
        raise RuntimeError(f"Given transposed=1, weight of size {list(w.shape)}, expected bias "
                           f"to be 1-dimensional with {out_channels} elements, but got bias of "
                           f"size {list(b.shape)} instead")
    if w.dtype is not x.dtype:
        raise RuntimeError(f"Input type ({x.type()}) and weight type ({w.type()}) should be the "
                           f"same or input should be a MKLDNN tensor and weight is a dense tensor")


def output_sizes(sizes: tuple, kernel: tuple, stride: tuple, padding: tuple,
                 output_padding: tuple, dilation: tuple) -> tuple:
    """The spatial output size of a transposed convolution (torch's formula)."""
    return tuple((n - 1) * s - 2 * p + d * (k - 1) + o + 1
                 for n, k, s, p, o, d in zip(sizes, kernel, stride, padding, output_padding,
                                             dilation))


def _transposed(x: Tensor, w: Tensor, b: Tensor | None, stride: tuple, padding: tuple,
                dilation: tuple, groups: int, out: tuple) -> Tensor:
    """The batched transposed convolution: per group, weight^T @ input gives one column per
    input position (C_out/groups * prod(K) rows), which col2im adds into the output."""
    n, c = x.shape[0], x.shape[1]
    sizes, kernel = tuple(x.shape[2:]), tuple(w.shape[2:])
    rows = w.shape[1] * math.prod(kernel)
    weight_t = w.reshape(groups, c // groups, rows).transpose(1, 2)     # (G, O/G * K, C/G)
    cols = matmul(weight_t, x.reshape(n, groups, c // groups, math.prod(sizes)))
    cols = cols.reshape(n, groups * rows, math.prod(sizes))
    y = col2im(cols, out, kernel, dilation, padding, stride, sizes)
    return y if b is None else y + b.reshape((b.shape[0],) + (1,) * len(kernel))


def _conv_transpose(nd: int, input, weight, bias, stride, padding,  # noqa: A002
                    output_padding, groups: int, dilation) -> Tensor:
    x, w = as_tensor(input), as_tensor(weight)
    b = None if bias is None else as_tensor(bias)
    if x.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                           f"conv_transpose{nd}d, but got input of size: {list(x.shape)}")
    stride = _tuple(stride, nd, "stride")
    if w.ndim != nd + 2:
        raise RuntimeError(f"expected stride to be a single integer value or a list of "
                           f"{w.ndim - 2} values to match the convolution dimensions, but got "
                           f"stride={list(stride)}")
    padding, dilation = _tuple(padding, nd, "padding"), _tuple(dilation, nd, "dilation")
    output_padding = _tuple(output_padding, nd, "output_padding")
    _check_args(stride, padding, output_padding, dilation, groups)
    batched = x if x.ndim == nd + 2 else x.unsqueeze(0)
    _check_shapes(batched, w, b, groups)
    sizes = tuple(batched.shape[2:])
    out = output_sizes(sizes, tuple(w.shape[2:]), stride, padding, output_padding, dilation)
    if min(out) < 1:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, sizes))}). "
                           f"Calculated output size per channel: "
                           f"({' x '.join(map(str, out))}). Output size is too small")
    inputs = [batched, w] + ([] if b is None else [b])
    y = composite("ConvolutionBackward0",
                  lambda a, k, *c: _transposed(a, k, c[0] if c else None, stride, padding,
                                               dilation, groups, out), inputs, uses_out=False)
    return y if x.ndim == nd + 2 else squeeze(y, 0)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """1-D transposed convolution of (N, C_in, L) or (C_in, L) with weight
    (C_in, C_out/groups, k)."""
    return _conv_transpose(1, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """2-D transposed convolution of (N, C_in, H, W) or (C_in, H, W) with weight
    (C_in, C_out/groups, kH, kW)."""
    return _conv_transpose(2, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """3-D transposed convolution of (N, C_in, D, H, W) or (C_in, D, H, W) with weight
    (C_in, C_out/groups, kD, kH, kW)."""
    return _conv_transpose(3, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)
