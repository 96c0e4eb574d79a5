"""Distances of ``torch.nn.functional`` and the losses built on them: ``pairwise_distance``,
``pdist``, ``triplet_margin_loss`` and ``triplet_margin_with_distance_loss``.

Layer: front end (torch.nn mirror). Input: tensors (eager or traced) and torch's arguments
(``p`` any norm order torch takes: 0, 1, 2, inf, -inf or another real). Output: tensors built
from primitives. pairwise_distance is torch's ``norm(x1 - x2 + eps, p, last dim)`` and shows
``NormBackward1`` with torch's norm gradient for each p (0 at a zero norm, ties of the inf-norm
sharing the gradient); pdist shows ``PdistBackward0`` with torch's pdist gradient (ties of its
inf-norm each get the whole gradient, as torch's kernel gives). The triplet losses compose
them as torch does (``ClampMinBackward0`` unreduced).
"""

from __future__ import annotations

import math

import numpy as np

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import (abs, amax, amin, clamp_min, composite, eq, isnan,
                                         logical_or, minimum, ne, pow, sign, sqrt, sum, where)
from ...frontend.functions.creation import zeros
from ...frontend.functions.manipulation import index_add, index_select
from ...frontend.functions.pointwise import sgn
from ...ops.registry import normalize_axes
from .loss import check_reduction, legacy_reduction, reduce_loss


# ---------------------------------------------------------------- p-norms

def _p_norm(d: Tensor, p: float, axis: int, keepdim: bool) -> Tensor:
    """The p-norm of ``d`` along ``axis`` (kept as a size-1 dim when ``keepdim``)."""
    a = abs(d)
    if p == 2:    # complex: |d|^2, a real norm
        out = sqrt(sum(a * a if d.dtype.is_complex else d * d, axis, keepdim=True))
    elif p == 1:
        out = sum(a, axis, keepdim=True)
    elif p == math.inf:
        out = amax(a, axis, keepdim=True)
    elif p == -math.inf:
        out = amin(a, axis, keepdim=True)
    elif p == 0:
        out = sum(ne(d, 0.0).to(a.dtype), axis, keepdim=True)
    else:
        out = pow(sum(pow(a, p), axis, keepdim=True), 1.0 / p)
    return out if keepdim else out.reshape(tuple(n for i, n in enumerate(d.shape) if i != axis))


def _norm_grad(d: Tensor, p: float, norm: Tensor, g: Tensor, axis: int) -> Tensor | None:
    """torch's ``norm_backward`` (norm and g with the reduced dim kept); None for p = 0, whose
    gradient torch leaves undefined."""
    if p == 0:
        return None
    signum = sgn if d.dtype.is_complex else sign   # complex: d / |d|
    if p == 1:
        return signum(d) * g
    if p == 2:
        return g * where(eq(norm, 0.0), 0.0, d / norm)
    a = abs(d)
    if math.isinf(p):
        mask = logical_or(eq(a, norm), isnan(a)).to(a.dtype)
        return signum(d) * ((g / sum(mask, axis, keepdim=True)) * mask)
    if p < 1:
        scaled = signum(d) * where(eq(d, 0.0), 0.0, pow(a, p - 1))
        return scaled * g * pow(norm, 1 - p)
    scale = where(eq(norm, 0.0), 0.0, g / pow(norm, p - 1))
    return (signum(d) * pow(a, p - 1) if p < 2 else d * pow(a, p - 2)) * scale


def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """The p-norm of x1 - x2 + eps along the last dim (of the broadcast shape); 0-d inputs
    give |x1 - x2 + eps| (torch's norm over "dim -1" of a 0-d tensor)."""
    a, b = as_tensor(x1), as_tensor(x2)
    d = a - b + eps
    flat = d.ndim == 0
    axis = 0 if flat else normalize_axes(max(a.ndim, b.ndim) - 1, d.ndim)[0]
    shape = (1,) if flat else tuple(d.shape)

    def body(t):
        out = _p_norm(t.reshape(shape), p, axis, keepdim)
        return out.reshape(()) if flat else out

    def rule(g, out, ins):
        kept = _kept(shape, axis)
        grad = _norm_grad(ins[0].reshape(shape), p, out.reshape(kept), g.reshape(kept), axis)
        return (grad.reshape(()) if flat and grad is not None else grad,)
    return composite("NormBackward1", body, [d], rule)


def _kept(shape: tuple, axis: int) -> tuple:
    return tuple(1 if i == axis else n for i, n in enumerate(shape))


# ---------------------------------------------------------------- pdist

def _pdist_grad(diff: Tensor, dist: Tensor, g: Tensor, p: float) -> Tensor:
    """torch's pdist backward of each pair's difference (dist and g as columns)."""
    if p == 0:
        return diff * 0.0
    if p == 1:
        return g * sign(diff)
    a = abs(diff)
    if math.isinf(p):
        return g * sign(diff) * eq(a, dist).to(diff.dtype)
    zero = eq(dist, 0.0)
    if p == 2:
        return where(zero, 0.0, g * diff / dist)
    if p < 2:
        grad = sign(diff) * pow(a, p - 1) * g / pow(dist, p - 1)
        grad = where(eq(diff, 0.0), 0.0, grad) if p < 1 else grad
        return where(zero, 0.0, grad)
    return where(zero, 0.0, diff * pow(a, p - 2) * g / pow(dist, p - 1))


def pdist(input, p: float = 2) -> Tensor:  # noqa: A002
    """The p-norm distance of each pair of rows i < j of an (N, M) input, in row-major pair
    order: N (N - 1) / 2 values."""
    x = as_tensor(input)
    if x.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {x.ndim}D")
    if not x.dtype.is_floating:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = x.shape[0]
    first, second = (as_tensor(i.astype(np.int64)) for i in np.triu_indices(n, 1))

    def body(a):
        if first.numel() == 0 or a.shape[1] == 0:
            return zeros(first.numel(), dtype=a.dtype)
        diff = index_select(a, 0, first) - index_select(a, 0, second)
        return _p_norm(diff, p, 1, False)

    def rule(g, out, ins):
        a = ins[0]
        if first.numel() == 0 or a.shape[1] == 0:
            return (a * 0.0,)
        diff = index_select(a, 0, first) - index_select(a, 0, second)
        res = _pdist_grad(diff, out.reshape(-1, 1), g.reshape(-1, 1), p)
        return (index_add(index_add(a * 0.0, 0, first, res), 0, second, -res),)
    return composite("PdistBackward0", body, [x], rule)


# ---------------------------------------------------------------- triplet losses

def _same_dims(anchor: Tensor, positive: Tensor, negative: Tensor) -> None:
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {anchor.ndim}D, positive "
                           f"{positive.ndim}D, and negative {negative.ndim}D inputs")


def _triplet(distance, anchor: Tensor, positive: Tensor, negative: Tensor, margin: float,
             swap: bool, reduction: str) -> Tensor:
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = minimum(dist_neg, distance(positive, negative))
    return reduce_loss(clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """max(0, margin + d(a, p) - d(a, n)) with d the pairwise p-distance (with ``swap``,
    d(a, n) is min(d(a, n), d(p, n)))."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, pos, neg = as_tensor(anchor), as_tensor(positive), as_tensor(negative)
    _same_dims(a, pos, neg)
    return _triplet(lambda u, v: pairwise_distance(u, v, p, eps), a, pos, neg, margin, swap,
                    reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """The triplet margin loss with any distance (default: pairwise_distance)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, pos, neg = as_tensor(anchor), as_tensor(positive), as_tensor(negative)
    _same_dims(a, pos, neg)
    return _triplet(distance_function or pairwise_distance, a, pos, neg, margin, swap,
                    reduction)
