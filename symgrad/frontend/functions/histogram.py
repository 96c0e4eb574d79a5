"""torch.histogram: counts (or summed weights) of values in bins, and the bins' edges.

Layer: front end (functions; eager: the counts depend on the values). Input: a floating
tensor, ``bins`` (a count of equal bins over ``range``, by default the data's range widened
by 0.5 both ways when it is one value, [0, 1] when empty; or a tensor of increasing edges),
``weight``, ``density``. Output: ``(hist, bin_edges)`` in the input's dtype, torch's way:
equal edges by ``linspace``, an element's bin by linear interpolation corrected against the
edges (equal bins) or by binary search (given edges); the last bin holds its right edge;
elements outside are ignored; ``density`` divides by the total and the bin widths. With an
input that requires grad both results have torch's ``NotImplemented`` node.
"""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from .creation import linspace
from .printing import return_type
from .underivable import not_implemented, without_derivative

HistogramResult = return_type("histogram", ("hist", "bin_edges"))


def _range(v: np.ndarray, given) -> tuple:
    if given is not None:
        lo, hi = float(given[0]), float(given[1])
    elif v.size:
        lo, hi = float(v.min()), float(v.max())
    else:
        lo, hi = 0.0, 1.0
    if lo > hi:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} "
                           f"max {hi:g} for dimension 0")
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histogramdd: dimension 0's range [{lo:g}, {hi:g}] is not "
                           f"finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _positions(v: np.ndarray, edges: np.ndarray, linear: bool) -> np.ndarray:
    """Each element's bin (-1: outside)."""
    bins, lo, hi = len(edges) - 1, edges[0], edges[-1]
    inside = (v >= lo) & (v <= hi)
    if linear:
        t = v.dtype.type
        pos = ((v - lo) * t(bins) / (hi - lo)).astype(np.int64)
        pos = np.clip(np.where(inside, pos, 0), 0, bins - 1)
        pos = np.where(edges[pos] > v, pos - 1, np.where(
            (pos + 1 < bins) & (edges[np.minimum(pos + 1, bins)] <= v), pos + 1, pos))
    else:
        pos = np.searchsorted(edges, v, side="right") - 1
    pos = np.minimum(pos, bins - 1)
    return np.where(inside, pos, -1)


def histogram(input, bins=100, *, range=None, weight=None,  # noqa: A002
              density: bool = False) -> HistogramResult:
    """The histogram of ``input``'s values."""
    x = input
    if not x.dtype.is_floating:
        raise NotImplementedError(f"\"histogramdd\" not implemented for "
                                  f"'{x.dtype.scalar_type}'")
    if x.dtype.name == "float16":
        raise RuntimeError("\"histogramdd\" not implemented for 'Half'")
    if x.concrete is None:
        raise RuntimeError("histogram: its counts depend on the values, which are unknown "
                           "while tracing: compute it outside the compiled function")
    v = x.detach().numpy().reshape(-1)
    if isinstance(bins, Tensor):
        edges = bins.detach().numpy().astype(v.dtype)
        linear = False
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                               f"dimension 0")
        lo, hi = _range(v, range)
        edges = linspace(lo, hi, bins + 1, dtype=x.dtype).numpy()
        linear = True
    pos = _positions(v, edges, linear) if len(edges) > 1 else np.full(v.shape, -1)
    w = np.ones_like(v) if weight is None else weight.detach().numpy().reshape(-1)
    hist = np.zeros(max(len(edges) - 1, 0), dtype=v.dtype)
    np.add.at(hist, pos[pos >= 0], w[pos >= 0].astype(v.dtype))
    if density:
        hist = (hist / hist.sum() / np.diff(edges)).astype(v.dtype)
    made = (Tensor(hist, None), Tensor(np.ascontiguousarray(edges), None))
    if x.requires_grad:
        made = tuple(without_derivative("NotImplemented", lambda a, t=t: t, [x],
                                        not_implemented("histogram")) for t in made)
    return HistogramResult(*made)


__all__ = ["histogram"]
METHODS = {"histogram": histogram}
