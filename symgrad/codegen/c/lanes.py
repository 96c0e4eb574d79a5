"""A block of a row loop with its rows innermost: the block's arrays laid out row-fastest and
its loops run along the rows in the innermost loop (one SIMD lane per row).

Layer: codegen (a helper of ``rows``). Input: the loop kernels of one block of a row loop
(``lower.rows``), each with its row dim, and the block's rows. Output: the same kernels
reading and writing the block's local arrays (role "row") with the row as the fastest
index, and those that touch such an array looping over the rows innermost.

Why: a row loop's kernels are small per row (bundle adjustment's ``vmap(jacfwd)``: 32 rows
x 15 tangents x 3 coordinates), so with the rows outermost a kernel's inner loops run 2, 3 or
15 times: too short to vectorize (a reduction over 3 coordinates is a horizontal sum each
time), or not at all. With element (r, j) of a block's array at j * rows + r instead of
r * S + j, every loop runs over the block's 32 rows innermost, each row a lane: contiguous
in every local array, a value of the row (a broadcast along the other dims) one vector load,
a sum over the 3 coordinates three vector adds. Arrays of the function (inputs, outputs)
keep their layout: a kernel reading them along the rows reads with their row stride, and a
kernel that writes one keeps its rows outermost, so that its stores stay contiguous (stored
along the rows, 22 doubles apart, BA's copy of its blocks into the output took 1.25x as long).

Every element is computed by the same statements from the same operands; a sum over dims
other than the rows now adds its terms in order, an accumulator per row (the loop printer's
sums over outer dims), where the row-outermost nest summed them in SIMD lanes: a sum may
round otherwise in its last bit (as NumPy's in-order sum of a few terms does).

Measured (one thread): GradBench's bundle adjustment ``jacobian (blocks)`` at ba1, its
exported C in a C harness 8.1 -> 4.9 ms a call (31,843 observations); GMM's objective at
d = 2 0.050 -> 0.026 ms through ``sg.compile``.
"""

from __future__ import annotations

from dataclasses import replace

from ...dims import Dim
from ...lower.loopir import LoopKernel, View


def arrange(kernels: list, dims: list, rows: int, block: int) -> list:
    """``kernels`` (loop kernels of one block of ``rows`` rows, kernel i's rows along its dim
    ``dims[i]``; the local arrays laid out for ``block`` rows) with the local arrays row-fastest
    and the kernels that touch one looping over the rows innermost; unchanged where a layout
    or a reduction does not allow it (see ``_row_fastest`` and ``_in_place_ok``)."""
    if rows < 2 or any(type(k) is not LoopKernel for k in kernels):
        return kernels
    row_strides: dict = {}
    for k, d in zip(kernels, dims):
        for v in k.views():
            if v.buffer.role == "row":
                row_strides.setdefault(v.buffer, set()).add(v.strides[d])
    if not row_strides or any(len(s) != 1 or 0 in s or any(type(x) is not int for x in s)
                              for s in row_strides.values()):
        return kernels
    stride = {b: s.pop() for b, s in row_strides.items()}
    result = []
    for k, d in zip(kernels, dims):
        moved = _moved(k, d, stride, rows, block)
        if moved is None:
            return kernels
        result.append(moved)
    return result


def _moved(k: LoopKernel, d: int, stride: dict, rows: int, block: int) -> LoopKernel | None:
    """Kernel ``k`` with the local arrays row-fastest, its rows innermost if it touches one,
    writes only local arrays and its reductions allow; None if it can be neither (the whole
    block stays as it was)."""
    local = [v for v in k.views() if v.buffer.role == "row"]
    moved = {id(v): _row_fastest(v, d, stride[v.buffer], rows, block) for v in local}
    if None in moved.values():
        return None
    kept = k.with_views(lambda v: moved.get(id(v), v))
    if local and any(n != 1 for n in k.shape[d + 1:]) and \
            all(s.out.buffer.role == "row" for s in k.stores):
        last = _rows_last(kept, d)
        if _in_place_ok(last):
            return last
    return kept if _in_place_ok(kept) else None


def _row_fastest(v: View, d: int, row: int, rows: int, block: int) -> View | None:
    """View ``v`` (of a local array with row stride ``row``: element (r, j) at r * row + j,
    strides past the block's rows multiples of row * block) of the array laid out with element
    (r, j) at j * rows + r; None if ``v`` reaches elements otherwise."""
    if isinstance(v.offset, Dim) or v.strides[d] != row:
        return None
    span = row * block
    outer, rest = divmod(v.offset, span)
    if rest >= row:
        return None
    strides, reach = [], rest
    for e, (n, st) in enumerate(zip(v.shape, v.strides)):
        lo, hi = (0, n) if v.window is None else v.window[e]   # (a padded view reads inside)
        if e == d or n == 1 or st == 0:
            strides.append(1 if e == d else 0)
        elif isinstance(st, Dim) or isinstance(n, Dim) or st < 0:
            return None
        elif st % span == 0:
            strides.append(st)
        elif st < row:
            strides.append(st * rows)
            reach += st * max(hi - 1, 0)
        else:
            return None
    if reach >= row:
        return None
    return View(v.buffer, outer * span + rest * rows, v.shape, tuple(strides), v.window, v.fill)


def _rows_last(k: LoopKernel, d: int) -> LoopKernel:
    """``k`` with its dim ``d`` moved last (the same elements, the rows innermost)."""
    order = [e for e in range(len(k.shape)) if e != d] + [d]

    def permuted(v: View) -> View:      # (a gather's source keeps its kind: replace)
        window = v.window and tuple(v.window[e] for e in order)
        return replace(v, shape=tuple(v.shape[e] for e in order),
                       strides=tuple(v.strides[e] for e in order), window=window)
    p = k.with_views(permuted)
    return LoopKernel(tuple(k.shape[e] for e in order), p.loads, p.body, p.stores,
                      tuple(sorted(order.index(a) for a in k.reduce_axes)))


def _in_place_ok(k: LoopKernel) -> bool:
    """Whether each reduction the loop printer runs in place (a reduced dim before a kept
    one: it fills the output's ``size`` elements from the view's offset, then accumulates)
    has its outputs as exactly that stretch."""
    if not k.reduces:
        return True
    big = [e for e in range(len(k.shape)) if k.shape[e] != 1]
    reduced = set(k.reduce_axes)
    kept = [e for e in big if e not in reduced]
    if not kept or not any(e in reduced for e in big if e < kept[-1]):
        return True       # (reduced dims innermost: summed in a register)
    for s in k.stores:
        if not s.reduce:
            continue
        pairs = sorted((s.out.strides[e], k.shape[e]) for e in kept)
        expect = 1
        for st, n in pairs:
            if st != expect:
                return False
            expect *= n
        if expect != s.size or s.out.window is not None:
            return False
    return True
