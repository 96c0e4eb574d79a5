"""Row loops -> C: one loop over blocks of rows, each inner loop kernel printed for one block.

Layer: codegen (the ``rows`` kernel family, ``lower.rows``). Input: a ``RowLoop``. Output:
its C: ``for (b ...)`` over the full blocks (split over threads when the work is large), in
it the block's local arrays (the buffers of role "row"), a pointer to the block's first row
of each other buffer the run reads or writes by rows, and each inner kernel as the loop
printer prints it for ``block`` rows (read through those pointers); then the same for the
rows left over, if the block does not divide the rows.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...dims import large
from ...lower.loopir import Buffer, LoopKernel, Scalar, Store, View
from ...lower.rows import RowLoop
from .emitted import Emitted
from .loops import PARALLEL_MIN_WORK, THREADS, render_kernel
from .nest import Loop, Nest

FIRST = "r0"          # the block's first row, in C


class _BlockViews:
    """Views of the kernels of one block of ``rows`` rows: a pointer to the block's first
    row of a buffer per row stride (none for a stride of 0), declared once. The row dim is
    any dim of a kernel (``jacfwd``'s tangents lead, the rows come second)."""

    def __init__(self, written: set, rows: int):
        self.written, self.rows = written, rows
        self.pointers: dict = {}        # (buffer, stride) -> the row pointer's Buffer
        self.decls: list = []
        self.local: dict = {}           # block-local buffer -> its declaration

    def __call__(self, v, d: int):
        if not isinstance(v, View):
            return v
        b, stride = v.buffer, v.strides[d]
        if b.role == "row":
            self.local.setdefault(b, f"{b.dtype.ctype} {b.name}[{b.size}];")
        elif stride:
            key = (b, stride)
            if key not in self.pointers:
                ptr = self.pointers[key] = Buffer("rowptr", len(self.pointers), b.dtype, b.size)
                const = "" if b in self.written else "const "
                self.decls.append(f"{const}{b.dtype.ctype} *{ptr.name} = {b.name} + "
                                  f"{FIRST}*{stride};")
            b = self.pointers[key]
        shape = _at(v.shape, d, self.rows)
        window = v.window and _at(v.window, d, (0, self.rows))
        return replace(v, buffer=b, shape=shape, window=window)

    def kernel(self, k: LoopKernel, d: int) -> LoopKernel:
        """``k`` for the block: its row dim ``d`` of the block's rows, read from its first."""
        return LoopKernel(_at(k.shape, d, self.rows), [self(x, d) for x in k.loads], k.body,
                          [Store(s.value, self(s.out, d), s.op,
                                 s.size // k.shape[d] * self.rows if s.size else s.size,
                                 s.reduce, s.loc, s.accumulate) for s in k.stores],
                          k.reduce_axes)


def _at(values: tuple, d: int, value) -> tuple:
    return tuple(values[:d]) + (value,) + tuple(values[d + 1:])


def _block(ctx, number: int, k: RowLoop, rows: int) -> tuple[list, list]:
    """(the declarations, the inner kernels' lines) of a block of ``rows`` rows."""
    views = _BlockViews({s.out.buffer for inner in k.kernels for s in inner.stores}, rows)
    lines = []
    for j, (inner, d) in enumerate(zip(k.kernels, k.dims)):
        # (numbered k<n>.<j>: no status to return, a gather's loop never joins a run)
        text, _ = ctx.loops.emit(f"{number}.{j + 1}", views.kernel(inner, d))
        lines += [line[4:] for line in text.splitlines()]
    return list(views.local.values()) + views.decls, lines


def emit(ctx, number: int, k: RowLoop) -> Emitted:
    full, tail = divmod(k.rows, k.block)
    work = sum(math.prod(inner.shape) * (1 + len(inner.body)) for inner in k.kernels)
    threads = ctx.loops.parallel and large(work, PARALLEL_MIN_WORK)
    nests = []
    if full:
        decls, lines = _block(ctx, number, k, k.block)
        loop = Loop("b", "0", str(full), f"#pragma omp parallel for{THREADS}" if threads else "")
        nests.append(Nest([loop], [f"const int64_t {FIRST} = b*{k.block};"] + decls + lines))
    if tail:
        decls, lines = _block(ctx, number, k, tail)
        nests.append(Nest([], [f"const int64_t {FIRST} = {full * k.block};"] + decls + lines)
                     .scoped())
    title = f"rows [{k.rows}] in blocks of {k.block}: {len(k.kernels)} loops, a block at a time"
    text = render_kernel(ctx.env, number, title, [], nests)
    scalars = {a.name for inner in k.kernels for s in inner.body for a in s.args
               if isinstance(a, Scalar)}
    scalars |= {s.value.name for inner in k.kernels for s in inner.stores
                if isinstance(s.value, Scalar)}
    return Emitted(text, work, uses=frozenset(scalars), threaded=threads)
