"""torch.gradient: derivatives of sampled values by finite differences.

Layer: front end (functions). Input: a tensor, ``spacing`` (one number for every dim, one
number per dim, or one coordinates tensor per dim), ``dim`` (an int, a list, or all dims),
``edge_order`` (1 or 2). Output: a tuple of tensors, one per dim, each the central
differences inside and one-sided differences of order ``edge_order`` at both ends, in torch's
kernel's arithmetic (uniform spacing: ``(x[2:] - x[:-2]) / h / 2``; coordinates: the
three-point weights of the neighbouring gaps), joined by ``cat`` (``CatBackward0``).
"""

from __future__ import annotations

from numbers import Number

from ...ops.registry import normalize_axes
from ..core.tensor import Tensor
from .manipulation import narrow
from .shapes import cat, reshape


def _dims(x: Tensor, dim) -> tuple:
    if dim is None:
        return tuple(range(x.ndim))
    return tuple(normalize_axes(dim if isinstance(dim, (list, tuple)) else (dim,), x.ndim))


def _spacings(spacing, n: int) -> list:
    if spacing is None:
        return [1.0] * n
    if isinstance(spacing, (Number, Tensor)) and not (isinstance(spacing, Tensor)
                                                      and spacing.ndim):
        return [spacing] * n
    spacing = list(spacing)
    if len(spacing) != n:
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or "
                           f"it's spacing and dim arguments to have the same length, but got "
                           f"a spacing argument of length {len(spacing)} and a dim argument "
                           f"of length {n}.")
    return spacing


def gradient(input, *, spacing=None, dim=None, edge_order: int = 1) -> tuple:  # noqa: A002
    """The finite-difference derivative of ``input`` along each of ``dim``."""
    x = input
    if x.dtype.name == "uint8":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    axes = _dims(x, dim)
    for a in axes:
        if x.shape[a] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")
    out = []
    for a, h in zip(axes, _spacings(spacing, len(axes))):
        if isinstance(h, Tensor) and h.ndim == 1:
            out.append(_along_coordinates(x, a, h, edge_order))
        else:
            out.append(_uniform(x, a, h.item() if isinstance(h, Tensor) else h, edge_order))
    return tuple(out)


def _part(x: Tensor, a: int, start: int, stop: int | None = None) -> Tensor:
    n = x.shape[a]
    start = start % n if start < 0 else start
    stop = n if stop is None else (stop % n if stop < 0 else stop)
    return narrow(x, a, start, stop - start)


def _uniform(x: Tensor, a: int, h, edge_order: int) -> Tensor:
    center = (_part(x, a, 2) - _part(x, a, 0, -2)) / h
    if edge_order == 1:
        first = (_part(x, a, 1, 2) - _part(x, a, 0, 1)) / h
        last = (_part(x, a, -1) - _part(x, a, -2, -1)) / h
    else:
        first = (_part(x, a, 0, 1) * -1.5 + _part(x, a, 1, 2) * 2
                 - _part(x, a, 2, 3) * 0.5) / h
        last = (_part(x, a, -3, -2) * 0.5 - _part(x, a, -2, -1) * 2
                + _part(x, a, -1) * 1.5) / h
    return cat([first, center / 2, last], a)


def _along_coordinates(x: Tensor, a: int, c: Tensor, edge_order: int) -> Tensor:
    if c.shape[0] != x.shape[a]:
        raise RuntimeError(f"torch.gradient expected each tensor to be on the same device, "
                           f"and with {x.shape[a]} coordinates along dim {a}")
    dx1 = c[1:-1] - c[:-2]
    dx2 = c[2:] - c[1:-1]
    shape = tuple(-1 if d == a else 1 for d in range(x.ndim))
    wa = reshape(-dx2 / (dx1 * (dx1 + dx2)), shape)
    wb = reshape((dx2 - dx1) / (dx1 * dx2), shape)
    wc = reshape(dx1 / (dx2 * (dx1 + dx2)), shape)
    center = wa * _part(x, a, 0, -2) + wb * _part(x, a, 1, -1) + wc * _part(x, a, 2)
    if edge_order == 1:
        first = (_part(x, a, 1, 2) - _part(x, a, 0, 1)) / dx1[0]
        last = (_part(x, a, -1) - _part(x, a, -2, -1)) / dx2[-1]
    else:
        h1, h2 = dx1[0], dx2[0]
        first = (-(2.0 * h1 + h2) / (h1 * (h1 + h2)) * _part(x, a, 0, 1)
                 + (h1 + h2) / (h1 * h2) * _part(x, a, 1, 2)
                 + (-h1) / (h2 * (h1 + h2)) * _part(x, a, 2, 3))
        h1, h2 = dx1[-1], dx2[-1]
        last = (h2 / (h1 * (h1 + h2)) * _part(x, a, -3, -2)
                - (h2 + h1) / (h1 * h2) * _part(x, a, -2, -1)
                + (2 * h2 + h1) / (h2 * (h1 + h2)) * _part(x, a, -1))
    return cat([first, center, last], a)


__all__ = ["gradient"]
