"""Adaptive average pooling in the order of torch's CPU loops: the 3-d forward's float16 bin
sums, which torch's kernel accumulates in float16 (``sum += x`` rounded after each element, in
(d, h, w) order, then ``sum / kd / kh / kw``, each division rounded; its 2-d kernel
accumulates in float32, as ``opmath.IN_FLOAT32`` says), and the backward of every adaptive
average pooling (``grad / kd / kh / kw`` in the gradient's dtype, added into a zero input
gradient bin after bin: in float16 each addition rounds).

Layer: front end (torch.nn mirror), beside ``pooling``. Input: a tensor (eager or traced)
and the bins of each pooled dim (0/1 matrices, ``pooling._bins``). Output: the pooled tensor,
or the input's gradient, composed of index_select, where, add and div (each one rounding as
each step of torch's loop does).

Each sum is one loop over "slots": in the forward, slot (a, b, c) is a bin's element at offset
(a, b, c) from its start; in the backward, an input element's slot (a, b, c) is the bin at
offset (a, b, c) from the first bin holding it. Slots run in row-major order, which is the
order torch's loops add in, and a sum with nothing at a slot adds 0 (leaving it unchanged).
"""

from __future__ import annotations

import itertools

import numpy as np

from ...frontend.core.apply import as_tensor
from ...frontend.functions.basic import where
from ...frontend.core.tensor import Tensor


def _starts_counts(matrix: np.ndarray) -> tuple:
    """(first index, size) of each bin of a 0/1 bin matrix (o, n)."""
    return matrix.argmax(1), matrix.sum(1)


def _along(values: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    """``values`` shaped to broadcast along ``axis`` (negative) of ``ndim`` dims."""
    shape = [1] * ndim
    shape[axis] = values.size
    return values.reshape(shape)


def half_bin_sums(a: Tensor, bins: list) -> Tensor:
    """The mean of each bin of the last ``len(bins)`` dims of ``a`` (float16), accumulated and
    divided as torch's float16 kernel does."""
    axes = tuple(range(-len(bins), 0))
    spans = [_starts_counts(m) for m in bins]
    total = 0.0
    for slot in itertools.product(*[range(int(c.max())) for _, c in spans]):
        part, mask = a, np.ones((), bool)
        for axis, (start, count), r, m in zip(axes, spans, slot, bins):
            index = np.minimum(start + r, m.shape[1] - 1)
            part = part.index_select(axis, as_tensor(index))
            mask = mask & _along(count > r, axis, len(axes))
        total = where(as_tensor(mask), part, 0.0) + total
    for axis, (_, count) in zip(axes, spans):
        total = total / as_tensor(_along(count, axis, len(axes)).astype(np.float16))
    return total


def _firsts_counts(matrix: np.ndarray) -> tuple:
    """(first bin, number of bins) holding each input index of a 0/1 bin matrix (o, n)."""
    return matrix.argmax(0), matrix.sum(0)


def bin_mean_backward(g: Tensor, bins: list) -> Tensor:
    """The input's gradient of an adaptive average pooling over the last ``len(bins)`` dims,
    from the output's gradient ``g``, in torch's order of operations."""
    axes = tuple(range(-len(bins), 0))
    for axis, (_, count) in zip(axes, (_starts_counts(m) for m in bins)):
        g = g / as_tensor(_along(count, axis, len(axes)).astype(g.dtype.np))
    spans = [_firsts_counts(m) for m in bins]
    total = 0.0
    for slot in itertools.product(*[range(int(c.max())) for _, c in spans]):
        part, mask = g, np.ones((), bool)
        for axis, (first, count), r, m in zip(axes, spans, slot, bins):
            part = part.index_select(axis, as_tensor(np.minimum(first + r, m.shape[0] - 1)))
            mask = mask & _along(count > r, axis, len(axes))
        total = where(as_tensor(mask), part, 0.0) + total
    return total
