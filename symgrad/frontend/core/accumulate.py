"""A leaf's ``.grad`` receiving a cotangent: torch's AccumulateGrad.

Layer: front end, above ``apply``, ``layout`` and ``lazy_backward`` (a captured step's
gradients arrive here too: ``ACCUMULATE``, ``GRAD_LAYOUT``), below the engine. Input: a leaf
and a finished cotangent. Output: the leaf's ``.grad`` -- its first a copy laid out by torch's
layout contract, later ones summed into it as torch's in-place ``grad += new`` shows.
"""

from __future__ import annotations

import numpy as np

from . import layout, lazy_backward
from .apply import attach_function, full
from .tensor import Tensor


_SUMMED = (np.dtype(np.float32), np.dtype(np.float64))


def accumulate(t: Tensor, g: Tensor, create_graph: bool) -> None:
    """``t.grad += g``, torch's way."""
    g = g if create_graph else g.detach()
    old = t._grad
    if old is None:
        if g._value is not None and not create_graph:
            # (a copy of its own, as torch's clone: ``g`` may be another leaf's too; the
            # layout torch gives a first gradient)
            grad = t._grad = Tensor(g._value.copy(), None)
            grad._strides = grad_layout(t)
        else:
            t._grad = _copied(g)
    elif create_graph or old.requires_grad:
        t._grad = old + g    # out of place: the sum is part of a differentiable graph
    else:
        # torch accumulates in place here (``grad += new``), so a reference taken before
        # this backward (``g1 = x.grad``) sees the sum. Rebind the tensor object's contents
        # rather than write into its array: arrays are never mutated (eager tensors cache
        # constant nodes of them), and a traced grad has no storage to write into.
        a, b = old._value, g._value
        if a is not None and b is not None and a.dtype is b.dtype and a.dtype in _SUMMED \
                and a.shape == b.shape and old._strides is None and old._view is None:
            old._value = np.add(a, b)   # (what ``old + g`` computes, without its dispatch)
            return
        total = old + g
        old._value, old._node = total._value, total._node


lazy_backward.ACCUMULATE[0] = accumulate


def grad_layout(t: Tensor) -> tuple | None:
    """The strides of a leaf's first ``.grad`` (``Tensor._strides``; None: row-major), by
    torch's layout contract (AccumulateGrad's ``clone_obey_contract``): the leaf's own where
    its elements are dense and do not overlap (a transposed parameter gets a transposed
    gradient), else row-major, whatever the cotangent's layout."""
    st = layout.strides(t)
    shape = tuple(t.shape)
    return st if layout.dense(shape, st) and not layout.contiguous_in(shape, st) else None


lazy_backward.GRAD_LAYOUT[0] = grad_layout


def _copied(g: Tensor) -> Tensor:
    """A leaf's first gradient in a backward that builds a graph: torch copies it into the new
    ``.grad`` (``copy_`` into an empty tensor), whose grad_fn is then CopyBackwards, with edges
    for the empty tensor (none) and ``g``."""
    if not g._requires_grad:
        return g
    empty = full(g, 0.0, ())
    return attach_function(Tensor(g._value, g._node), "CopyBackwards",
                           lambda gg, out, ins: (None, gg), [empty, g], saves=False,
                           uses_out=False)
