"""Lowering of ``cat`` (``ops.movement``): one copy loop per operand into its window of the
result's buffer (no kernel type of its own: copy ``LoopKernel``s).

Layer: lower. Input: a ``cat`` node and the lowering in progress. Output: the copy kernels
appended to the lowering's kernels, and the result's dense buffer. An operand that a loop
computed for the cat alone is already in its window (``lowering._place_cat_operands``): no
copy.
"""

from __future__ import annotations

from .loopir import View, copy_kernel


def lower(lowering, node) -> None:
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
