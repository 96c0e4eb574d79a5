"""Lowering of ``cat`` (``ops.movement``): one copy loop per operand into its window of the
result's buffer (no kernel type of its own: copy ``LoopKernel``s).

Layer: lower. Input: a ``cat`` node and the lowering in progress. Output: the copy kernels
appended to the lowering's kernels, and the result's dense buffer. An operand that a loop
computed for the cat alone is already in its window (``lowering._place_cat_operands``): no
copy. A cat of a view and a constant of one value (``cat([1], y[:-1])``: a shift with a
boundary value) is no kernel at all: a view of the other operand with that fill outside its
window (``shift_fill``), which the loops read in place.
"""

from __future__ import annotations

import numpy as np

from .loopir import View, copy_kernel


def shift_fill(node):
    """(fill value, whether it comes first, the other operand) when ``node`` is a cat of two
    whose one operand is a constant of one value: a view of the other with that fill outside
    its window (``View.fill``), read in place by the loops; else None."""
    if len(node.inputs) != 2:
        return None
    for k, c in enumerate(node.inputs):
        v = c.inputs[0] if c.op == "expand" else c
        if v.op != "const" or c.dtype is not node.dtype:
            continue
        values = np.asarray(v.attr("value"))
        if values.size and (values == values.flat[0]).all() and \
                not np.isnan(values.flat[0]) and all(node.inputs[1 - k].shape):
            return values.flat[0].item(), k == 0, node.inputs[1 - k]
    return None


def lower(lowering, node) -> None:
    shifted = shift_fill(node)
    if shifted is not None and isinstance(lowering.value(shifted[2]), View) and \
            lowering.value(shifted[2]).window is None:
        lowering.storage[node] = _filled(node, lowering.value(shifted[2]), *shifted[:2])
        return
    out = lowering.new_buffer(node)
    axis, offset = node.attr("axis"), 0
    loc = lowering.locs.get(node)
    for src in node.inputs:
        computed = src.inputs[0] if src.op == "reshape" else src
        if lowering.placed.get(computed, (None, 0, None))[2] is src:   # stored in place
            offset += src.shape[axis]
            continue
        part = View(out.buffer, out.offset + offset * out.strides[axis], src.shape,
                    out.strides)
        s = lowering.value(src)
        loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
        lowering.kernels.append(copy_kernel(node.op, src.shape, ("load", 0) if loads else s,
                                            part, loads, loc))
        offset += src.shape[axis]
    lowering.storage[node] = out


def _filled(node, src: View, fill, first: bool) -> View:
    """The cat as a view of ``src`` over the cat's shape: ``fill`` outside ``src``'s window."""
    axis = node.attr("axis")
    n, k = node.shape[axis], node.shape[axis] - src.shape[axis]
    src = src.broadcast(src.shape)
    offset = src.offset - (k * src.strides[axis] if first else 0)
    window = tuple(((k, n) if first else (0, n - k)) if d == axis else (0, e)
                   for d, e in enumerate(node.shape))
    return View(src.buffer, offset, node.shape, src.strides, window, fill)
