"""Lowering of ``cat`` (``ops.movement``): one copy loop per operand into its window of the
result's buffer (no kernel type of its own: copy ``LoopKernel``s).

Layer: lower. Input: a ``cat`` node and the lowering in progress. Output: the copy kernels
appended to the lowering's kernels, and the result's dense buffer. An operand that a loop
computed for the cat alone is already in its window (``place_operands``, planned before the
lowering runs): no copy. A cat of a view and a constant of one value (``cat([1], y[:-1])``:
a shift with a boundary value) is no kernel at all: a view of the other operand with that
fill outside its window (``shift_fill``), which the loops read in place.
"""

from __future__ import annotations

import numpy as np

from ..dims import is_one
from ..ops import get
from ..ops.registry import ELEMENTWISE
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


def place_operands(lw) -> dict:
    """node -> (cat, offset along its axis, the cat's operand): the operands a loop of
    lowering ``lw`` computes for a ``cat`` alone (itself, or through a reshape that only adds
    or drops size-1 dims, or any reshape into a 1-D cat in contiguous memory), which the loop
    stores into their window of the cat's buffer; the cat then copies nothing for them
    (``lower``). A rotation matrix stacked from nine elementwise columns was nine copy
    kernels after the loop that computed them; a sparse Jacobian's values, a (rows, 28)
    block and the weights' rows after it, a copy of 7 MB."""
    placed: dict = {}
    early = lw.before_guards()
    for c in reversed(lw.nodes):       # (a cat in a cat: the outer one first)
        if c.op != "cat" or c in lw.chains.contribution or shift_fill(c) is not None:
            continue
        offset = 0
        # (1-D and contiguous: in a buffer of its own, or placed in such a cat)
        flat = len(c.shape) == 1 and (c not in placed or placed[c][0] in lw.flat_cats)
        if flat:
            lw.flat_cats.add(c)
        for src in c.inputs:
            n = _computed_for(lw, c, src, early, flat)
            if n is not None:
                placed[n] = (c, offset, src)
            offset += src.shape[c.attr("axis")]
        if c not in lw.written_by and c not in placed and \
                any(p[0] is c for p in placed.values()):
            lw.written_by[c] = lw.temp(c)
    return placed


def _computed_for(lw, c, src, early: set, flat: bool):
    """The loop node (or the cat) that computes cat ``c``'s operand ``src`` for ``c`` alone,
    if any (``flat``: ``c`` is 1-D in contiguous memory, where the operand of any reshape is
    dense in the reshape's window)."""
    n = src
    if src.op == "reshape" and (flat or [d for d in src.shape if not is_one(d)] ==
                                [d for d in src.inputs[0].shape if not is_one(d)]):
        n = src.inputs[0]
        if set(lw.users.get(n, ())) != {src}:
            return None
    if (c.inputs.count(src) == 1 and n not in lw.outputs and src not in lw.outputs
            and n not in lw.written_by and n not in early
            and (n in lw.group_of and get(n.op).kind == ELEMENTWISE or
                 n.op == "cat" and shift_fill(n) is None)   # (that one is a view)
            and set(lw.users.get(src, ())) == {c} and n.dtype == c.dtype):
        return n
    return None
