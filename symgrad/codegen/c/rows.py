"""Row loops -> C: one loop over the rows, each inner loop kernel printed for one row.

Layer: codegen (the ``rows`` kernel family, ``lower.rows``). Input: a ``RowLoop``. Output:
its C: ``for (r ...)`` (split over threads when the work is large), in it the row's local
arrays (the buffers of role "row"), a pointer to row r of each other buffer the run reads
or writes by rows, and each inner kernel as the loop printer prints it for one row (its row
dim of extent 1, read through those pointers).
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...dims import large
from ...lower.loopir import Buffer, IndexedView, LoopKernel, Scalar, Store, View
from ...lower.rows import RowLoop
from .emitted import Emitted
from .loops import PARALLEL_MIN_WORK, THREADS, render_kernel
from .nest import Loop, Nest

ROW = "r"          # the row's C variable


class _RowViews:
    """Views of the row-r kernels: a pointer to row r of a buffer per row stride (none for a
    stride of 0), declared once."""

    def __init__(self, written: set):
        self.written = written
        self.pointers: dict = {}        # (buffer, stride) -> the row pointer's Buffer
        self.decls: list = []
        self.local: dict = {}           # row-local buffer -> its declaration

    def __call__(self, v):
        if not isinstance(v, View):
            return v
        b, stride = v.buffer, v.strides[0]
        if b.role == "row":
            self.local.setdefault(b, f"{b.dtype.ctype} {b.name}[{b.size}];")
        elif stride:
            key = (b, stride)
            if key not in self.pointers:
                ptr = self.pointers[key] = Buffer("rowptr", len(self.pointers), b.dtype, b.size)
                const = "" if b in self.written else "const "
                self.decls.append(f"{const}{b.dtype.ctype} *{ptr.name} = {b.name} + "
                                  f"{ROW}*{stride};")
            b = self.pointers[key]
        shape = (1,) + tuple(v.shape[1:])
        if isinstance(v, IndexedView):
            return replace(v, buffer=b, shape=shape)
        return View(b, v.offset, shape, v.strides, v.window and ((0, 1),) + v.window[1:], v.fill)


def _row_kernel(k: LoopKernel, views: _RowViews) -> LoopKernel:
    shape = (1,) + tuple(k.shape[1:])
    return LoopKernel(shape, [views(x) for x in k.loads], k.body,
                      [Store(s.value, views(s.out), s.op, s.size // k.shape[0] or s.size,
                             s.reduce, s.loc, s.accumulate) for s in k.stores], k.reduce_axes)


def emit(ctx, number: int, k: RowLoop) -> Emitted:
    written = {s.out.buffer for inner in k.kernels for s in inner.stores}
    views = _RowViews(written)
    blocks = []
    simd, ctx.loops.vector_math = ctx.loops.vector_math, False
    try:     # (a row's loops are a few elements: no simd pragma, the compiler unrolls them,
        for inner in k.kernels:      # and sums add in order)
            text, _ = ctx.loops.emit(number, _row_kernel(inner, views))
            blocks += [line[4:] for line in text.splitlines()]
    finally:
        ctx.loops.vector_math = simd
    work = sum(math.prod(inner.shape) * (1 + len(inner.body)) for inner in k.kernels)
    threads = ctx.loops.parallel and large(work, PARALLEL_MIN_WORK)
    loop = Loop(ROW, "0", str(k.rows), f"#pragma omp parallel for{THREADS}" if threads else "")
    body = list(views.local.values()) + views.decls + blocks
    title = f"rows [{k.rows}]: {len(k.kernels)} loops, one row at a time"
    text = render_kernel(ctx.env, number, title, [], [Nest([loop], body)])
    scalars = {a.name for inner in k.kernels for s in inner.body for a in s.args
               if isinstance(a, Scalar)}
    scalars |= {s.value.name for inner in k.kernels for s in inner.stores
                if isinstance(s.value, Scalar)}
    return Emitted(text, work, uses=frozenset(scalars), threaded=threads)
