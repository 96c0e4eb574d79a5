"""Spatial transformers' sampling in ``torch.nn.functional``: ``affine_grid`` (2-D and 3-D)
and ``grid_sample`` of 4-D inputs (bilinear, nearest, bicubic; zeros, border, reflection
padding; ``align_corners``).

Layer: front end (torch.nn mirror). Input: tensors, eager or traced: ``theta`` (N, 2, 3) or
(N, 3, 4) and a size; an input (N, C, H, W) and a grid (N, Ho, Wo, 2) of x, y in [-1, 1].
Output: tensors composed of existing ops, so that they compile and differentiate (the input
through a gather, the grid through the interpolation weights; rounding steps have zero
gradient, as in torch's kernels). torch's arithmetic: the grid's base coordinates are
``linspace(-1, 1, n)`` scaled by (n - 1) / n without ``align_corners`` and multiplied by
theta with ``bmm``; a source coordinate is unnormalized as ((x + 1) / 2) (n - 1) or
((x + 1) n - 1) / 2, then clipped (border) or reflected and clipped (reflection); bilinear
weights are torch's products of distances to the four corners, bicubic the cubic convolution
with A = -0.75 over 4 x 4 neighbours (each neighbour's coordinate padded on its own), nearest
rounds half to even. A corner outside the input contributes 0. grad_fn: torch's
``AffineGridGeneratorBackward0`` and ``GridSampler2DBackward0``.
"""

from __future__ import annotations

from ...frontend.core import grad_mode
from ...frontend.core.apply import as_tensor
from ...frontend.core.engine import run_backward
from ...frontend.core.tensor import Tensor
from ...frontend.functions import basic as F
from ...frontend.functions import pointwise as P
from ...frontend.functions.creation import linspace, ones
from ...frontend.functions.gathers import take_along_dim
from ...frontend.functions.shapes import cat
from ... import dtypes

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


# ---------------------------------------------------------------- affine_grid

def _base(steps: int, align_corners: bool, dtype) -> Tensor:
    """torch's linspace_from_neg_one: [-1, 1] in ``steps``, scaled by (steps - 1) / steps
    without ``align_corners``; 0 for a single step."""
    if steps <= 1:
        return F.mul(ones(1, dtype=dtype), 0.0)
    line = linspace(-1.0, 1.0, steps, dtype=dtype)
    return line if align_corners else F.mul(line, (steps - 1) / steps)


def affine_grid(theta, size, align_corners=None) -> Tensor:
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of the affine maps ``theta``
    (N, 2, 3) (or (N, 3, 4)) over an output of ``size`` (N, C, H, W) (or (N, C, D, H, W))."""
    theta = as_tensor(theta)
    align = bool(align_corners)
    size = tuple(int(s) for s in size)
    if not theta.dtype.is_floating:
        raise ValueError(f"Expected theta to have floating point type, but got "
                         f"{theta.dtype}")
    spatial = len(size) - 2
    if spatial not in (2, 3):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {list(size)}.")
    if theta.ndim != 3 or tuple(theta.shape[-2:]) != (spatial, spatial + 1):
        raise ValueError(f"Expected a batch of {spatial}D affine matrices of shape Nx{spatial}x"
                         f"{spatial + 1} for size {list(size)}. Got {list(theta.shape)}.")
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {list(size)}")
    n, dims = size[0], size[2:]
    axes = [_base(s, align, theta.dtype) for s in reversed(dims)]     # x, y(, z)
    grids = [F.mul(ones(*dims, 1, dtype=theta.dtype),
                   a.reshape(tuple(-1 if j == len(dims) - 1 - i else 1
                                   for j in range(len(dims))) + (1,)))
             for i, a in enumerate(axes)]
    base = cat([*grids, ones(*dims, 1, dtype=theta.dtype)], -1)
    flat = base.reshape(1, -1, spatial + 1).expand(n, -1, spatial + 1)

    def body(t):
        return F.bmm(flat, t.transpose(1, 2)).reshape((n,) + dims + (spatial,))
    return F.composite("AffineGridGeneratorBackward0", body, [theta], saves=False,
                       uses_out=False)


# ---------------------------------------------------------------- grid_sample

def _unnormalize(coord: Tensor, size: int, align: bool) -> Tensor:
    if align:
        return F.mul(F.div(F.add(coord, 1.0), 2.0), float(size - 1))
    return F.div(F.sub(F.mul(F.add(coord, 1.0), float(size)), 1.0), 2.0)


def _reflect(coord: Tensor, twice_low: int, twice_high: int) -> Tensor:
    if twice_low == twice_high:
        return F.mul(coord, 0.0)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    distance = F.abs(F.sub(coord, low))
    extra = P.fmod(distance, span)
    flips = P.floor(F.div(distance, span))
    even = F.eq(P.fmod(flips, 2.0), 0.0)
    return F.where(even, F.add(extra, low), F.add(F.sub(span, extra), low))


def _pad_coordinate(coord: Tensor, size: int, padding: int, align: bool) -> Tensor:
    """torch's compute_coordinates: border clips, reflection reflects then clips."""
    if padding == 1:
        return F.clamp(coord, 0.0, float(size - 1))
    if padding == 2:
        twice = (0, 2 * (size - 1)) if align else (-1, 2 * size - 1)
        return F.clamp(_reflect(coord, *twice), 0.0, float(size - 1))
    return coord


class _Reader:
    """Values of the input (N, C, H, W) at integer coordinates (N, Ho, Wo), 0 outside."""

    def __init__(self, a: Tensor):
        self.n, self.c, self.h, self.w = a.shape
        self.flat = a.reshape(self.n, self.c, self.h * self.w)

    def __call__(self, ix: Tensor, iy: Tensor) -> Tensor:
        inside = F.logical_and(F.logical_and(F.ge(ix, 0.0), F.le(ix, self.w - 1.0)),
                               F.logical_and(F.ge(iy, 0.0), F.le(iy, self.h - 1.0)))
        xi = F.clamp(ix, 0.0, self.w - 1.0).to(dtypes.int64)
        yi = F.clamp(iy, 0.0, self.h - 1.0).to(dtypes.int64)
        index = F.add(F.mul(yi, self.w), xi).reshape(self.n, 1, -1)
        index = index.expand(self.n, self.c, index.shape[-1])
        values = take_along_dim(self.flat, index, 2).reshape((self.n, self.c) + ix.shape[1:])
        return F.where(inside.unsqueeze(1), values, 0.0)


def _cubic(t: Tensor) -> list:
    """The cubic convolution weights (A = -0.75) of the 4 neighbours at offset t in [0, 1)."""
    a = -0.75

    def near(x):   # ((A + 2) x - (A + 3)) x x + 1
        return F.add(F.mul(F.mul(F.sub(F.mul(x, a + 2), a + 3), x), x), 1.0)

    def far(x):    # ((A x - 5A) x + 8A) x - 4A
        return F.sub(F.mul(F.add(F.mul(F.sub(F.mul(x, a), 5 * a), x), 8 * a), x), 4 * a)
    return [far(F.add(t, 1.0)), near(t), near(F.sub(1.0, t)), far(F.sub(2.0, t))]


def _sample(a: Tensor, g: Tensor, mode: int, padding: int, align: bool) -> Tensor:
    read = _Reader(a)
    x, y = g[..., 0], g[..., 1]
    if mode == 2:
        ix, iy = _unnormalize(x, read.w, align), _unnormalize(y, read.h, align)
        x0, y0 = P.floor(ix), P.floor(iy)
        wx, wy = _cubic(F.sub(ix, x0)), _cubic(F.sub(iy, y0))
        out = None
        for j in range(4):
            row = None
            for i in range(4):
                cx = _pad_coordinate(F.add(x0, i - 1.0), read.w, padding, align)
                cy = _pad_coordinate(F.add(y0, j - 1.0), read.h, padding, align)
                term = F.mul(read(cx, cy), wx[i].unsqueeze(1))
                row = term if row is None else F.add(row, term)
            term = F.mul(row, wy[j].unsqueeze(1))
            out = term if out is None else F.add(out, term)
        return out
    ix = _pad_coordinate(_unnormalize(x, read.w, align), read.w, padding, align)
    iy = _pad_coordinate(_unnormalize(y, read.h, align), read.h, padding, align)
    if mode == 1:
        return read(P.round(ix), P.round(iy))
    west, north = P.floor(ix), P.floor(iy)
    east, south = F.add(west, 1.0), F.add(north, 1.0)
    weights = [(west, north, F.mul(F.sub(east, ix), F.sub(south, iy))),
               (east, north, F.mul(F.sub(ix, west), F.sub(south, iy))),
               (west, south, F.mul(F.sub(east, ix), F.sub(iy, north))),
               (east, south, F.mul(F.sub(ix, west), F.sub(iy, north)))]
    out = None
    for cx, cy, weight in weights:
        term = F.mul(read(cx, cy), weight.unsqueeze(1))
        out = term if out is None else F.add(out, term)
    return out


def grid_sample(input, grid, mode: str = "bilinear", padding_mode: str = "zeros",  # noqa: A002
                align_corners=None) -> Tensor:
    """Samples ``input`` (N, C, H, W) at the grid's (N, Ho, Wo, 2) normalized x, y."""
    x, g = as_tensor(input), as_tensor(grid)
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if x.ndim != 4:
        raise NotImplementedError("symgrad's grid_sample samples 4-D inputs (N, C, H, W) only; "
                                  f"got {x.ndim}-D")
    if g.ndim != 4 or g.shape[-1] != 2 or g.shape[0] != x.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid to have size 2 in last dimension and "
                           f"the batch size of input, but got grid with sizes "
                           f"{list(g.shape)}")
    if x.dtype is not g.dtype:
        raise RuntimeError(f"grid_sampler(): expected input and grid to have same dtype, but "
                           f"input has {x.dtype} and grid has {g.dtype}")
    mode_n, pad_n, align = _MODES[mode], _PADDINGS[padding_mode], bool(align_corners)

    def body(a, b):
        return _sample(a, b, mode_n, pad_n, align)

    def rule(grad, out, ins):
        """The body's own backward; the grid's gradient is zeros where nothing reached it
        (nearest: torch's zeros)."""
        with grad_mode.enable_grad():
            again = body(*ins)
        create = grad_mode.is_grad_enabled()
        found = run_backward([(again, grad)], retain_graph=create, create_graph=create,
                             inputs=list(ins), input_hooks=False)
        return tuple(F.mul(t, 0.0) if d is None else d for t, d in zip(ins, found))
    return F.composite("GridSampler2DBackward0", body, [x, g], rule, holomorphic=False,
                       uses_out=False)
