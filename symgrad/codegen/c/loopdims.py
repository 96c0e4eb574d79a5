"""A loop kernel's dims and how it reads its views: dims contiguous in every view merged into
one loop, the views over the merged dims, a windowed view's guard, a gather's indexed read.

Layer: codegen (helpers of ``loops``). Input: a ``LoopKernel``'s shape and views (loop IR).
Output: collapsed dims (extent, strides per view, reduce group, original dim) and C text.
"""

from __future__ import annotations

import dataclasses

from ...dims import is_one, same
from ...lower.loopir import IndexedView, View
from .text import index, loc_comment


def _partial(view: View, d: int) -> bool:
    return view.window is not None and view.window[d] != (0, view.shape[d])


def collapse(shape: tuple, views: list, groups: list) -> list:
    """Loop dims after dropping size-1 dims and merging dims that are contiguous in every
    view (and in the same reduce group; a dim some view reads through a window stays alone).
    Returns a list of (extent, [strides per view], group, original dim or None if merged)."""
    dims = [(shape[d], [v.strides[d] for v in views], groups[d], d)
            for d in range(len(shape)) if not is_one(shape[d])]
    windowed = {d for d in range(len(shape)) if any(_partial(v, d) for v in views)}
    merged: list = []
    for ext, strides, grp, d in dims:
        if merged:
            pext, pstrides, pgrp, pd = merged[-1]
            if pgrp == grp and all(same(ps, s * ext) for ps, s in zip(pstrides, strides)) and \
                    d not in windowed and pd not in windowed:
                merged[-1] = (pext * ext, strides, grp, None)
                continue
        merged.append((ext, strides, grp, d))
    return merged


def flatten_views(views: list, dims: list) -> list:
    """The views over the collapsed loop dims (windows kept on the dims that have one)."""
    flat = []
    for i, v in enumerate(views):
        window = None
        if v.window is not None:
            window = tuple(v.window[d] if d is not None else (0, e) for e, _, _, d in dims)
        shape, strides = tuple(e for e, _, _, _ in dims), tuple(s[i] for _, s, _, _ in dims)
        flat.append(dataclasses.replace(v, shape=shape, strides=strides, window=window)
                    if isinstance(v, IndexedView) else
                    View(v.buffer, v.offset, shape, strides, window, v.fill))
    return flat


def gather_lines(s, source: IndexedView, j: str, loop_vars: list, flag: str) -> list[str]:
    """A gather statement's lines: its index, checked against the bound (out of it, the
    kernel's ``flag`` is set and element 0 read instead), and the element it points to. An
    index checked before the loop (``IndexedView.checked`` false) sets no flag; its read is
    held inside the source all the same when the index is an argument's (``held``: another
    Python thread may write the array while the call runs, without the GIL: a read outside
    the source could crash), and read as it is from the call's own workspace."""
    at = f"{s.local}_at"
    ok = f"(uint64_t){at} < (uint64_t){source.bound}"
    read = f"(({ok}) ? {at} : 0)" if source.checked or source.held else at
    checks = [f"{flag} |= !({ok});"] if source.checked else []
    return [f"const int64_t {at} = {j};", *checks,
            f"const {s.expr.dtype.ctype} {s.local} = {source.buffer.name}["
            f"{index(source, loop_vars)} + {read}*{source.axis_stride}];"
            f"  /* {loc_comment(s.loc, s.expr.op)} */"]


def guard(view: View, loop_vars: list) -> str:
    """The C condition under which a windowed view reads its buffer ("" if always)."""
    if view.window is None:
        return ""
    conds = []
    for (var, d), (lo, hi) in zip(loop_vars, view.window):
        if lo > 0:
            conds.append(f"{var} >= {lo}")
        if hi < view.shape[d]:
            conds.append(f"{var} < {hi}")
    return " && ".join(conds)


def clamped_index(view: View, loop_vars: list) -> str | None:
    """A windowed view's C index with the windowed loop variables held inside the window:
    an address the view's buffer always has, so the load needs no branch (its value outside
    the window is then replaced by the fill). None when the innermost variable is windowed:
    clamping it would turn a contiguous read into a gather."""
    inner = loop_vars[-1][1] if loop_vars else None
    held = []
    for var, d in loop_vars:
        lo, hi = view.window[d]
        if lo == 0 and hi == view.shape[d]:
            held.append((var, d))
            continue
        if d == inner or lo >= hi:
            return None
        expr = var if lo == 0 else f"({var} < {lo} ? {lo} : {var})"
        if hi < view.shape[d]:
            expr = f"({var} < {hi} ? {expr} : {hi - 1})"
        held.append((expr, d))
    return index(view, held)
