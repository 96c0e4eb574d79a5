"""Row loops -> C: one loop over blocks of rows, each inner loop kernel printed for one block.

Layer: codegen (the ``rows`` kernel family, ``lower.rows``). Input: a ``RowLoop``. Output:
its C: ``for (b ...)`` over the full blocks (split over threads when the work is large), in
it the block's local arrays (the buffers of role "row"), a pointer to the block's first row
of each other buffer the run reads or writes by rows, and each inner kernel as the loop
printer prints it for ``block`` rows (read through those pointers); then the same for the
rows left over, if the block does not divide the rows. A run with a matrix product
(``RowLoop.sequential``) runs its blocks one after another on one thread, each block's
product a GEMM of the block's rows (or columns), its block arrays in the workspace
(``RowLoop.blocks``).
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...dims import large
from ...lower.loopir import Buffer, LoopKernel, Store, View
from ...lower.matmul import MatmulKernel
from ...lower.rows import RowLoop, view_dims
from .emitted import Emitted
from .matmul import matmul, work as product_work
from . import lanes, regions
from .loops import PARALLEL_MIN_WORK, THREADS
from .nest import Loop, Nest
from .render import render_kernel

FIRST = "r0"          # the block's first row, in C


class _BlockViews:
    """Views of the kernels of one block of ``rows`` rows: a pointer to the block's first
    row of a buffer per row stride (none for a stride of 0), declared once. The row dim is
    any dim of a kernel (``jacfwd``'s tangents lead, the rows come second)."""

    def __init__(self, written: set, rows: int, blocks: frozenset):
        self.written, self.rows, self.blocks = written, rows, blocks
        self.pointers: dict = {}        # (buffer, stride) -> the row pointer's Buffer
        self.decls: list = []
        self.local: dict = {}           # block-local buffer -> its declaration

    def __call__(self, v, d: int | None):
        if not isinstance(v, View) or d is None:
            return v
        b, stride = v.buffer, v.strides[d]
        if b.role == "row":
            self.local.setdefault(b, f"{b.dtype.ctype} {b.name}[{b.size}];")
        elif stride and b.name not in self.blocks:
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

    def kernel(self, k, d: int):
        """``k`` for the block: its row dim ``d`` of the block's rows, read from its first."""
        if type(k) is MatmulKernel:
            a, b, out = (self(v, e) for v, e, _ in view_dims(k, d))
            batch = len(k.out.shape) - 2     # (a block of a triangle's rows is no triangle)
            return MatmulKernel(a, b, out, k.loc, k.triangle_a if d != batch else None,
                                k.triangle_b if d != batch + 1 else None,
                                k.triangle_out if d < batch else None)
        return LoopKernel(_at(k.shape, d, self.rows), [self(x, d) for x in k.loads], k.body,
                          [Store(s.value, self(s.out, d), s.op,
                                 s.size // k.shape[d] * self.rows if s.size else s.size,
                                 s.reduce, s.loc, s.accumulate) for s in k.stores],
                          k.reduce_axes)


def _at(values: tuple, d: int, value) -> tuple:
    return tuple(values[:d]) + (value,) + tuple(values[d + 1:])


def _block(ctx, number: int, k: RowLoop, rows: int) -> tuple[list, list, set]:
    """(the declarations, the inner kernels' lines, what they use: "threads", "blas") of a
    block of ``rows`` rows."""
    written = {v.buffer for inner, d in zip(k.kernels, k.dims)
               for v, _, w in view_dims(inner, d) if w}
    views = _BlockViews(written, rows, k.blocks)
    kernels = lanes.arrange([views.kernel(inner, d) for inner, d in zip(k.kernels, k.dims)],
                            list(k.dims), rows, k.block)
    lines, uses = [], set()
    for j, inner in enumerate(kernels):
        # (numbered k<n>.<j>: no status to return, a gather's loop never joins a run)
        if type(inner) is MatmulKernel:
            text, blas = matmul(ctx.env, f"{number}.{j + 1}", inner, ctx.target.blas)
            uses |= {"blas"} if blas else set()
        else:
            # (a block's loops stay on its thread: the threads split the blocks. A product
            # run's blocks are on one thread: OpenMP's threads and BLAS's taking turns block
            # after block spin against each other, measured 30x slower on GMM)
            parallel, ctx.loops.parallel = ctx.loops.parallel, False
            try:
                text, _, _ = ctx.loops.emit(f"{number}.{j + 1}", inner)
            finally:
                ctx.loops.parallel = parallel
        lines += [line[4:] for line in text.splitlines()]
    return list(views.local.values()) + views.decls, lines, uses


def _work(k) -> int:
    if type(k) is MatmulKernel:
        return product_work(k)
    return math.prod(k.shape) * (1 + len(k.body))


def emit(ctx, number: int, k: RowLoop) -> Emitted:
    full, tail = divmod(k.rows, k.block)
    work = sum(_work(inner) for inner in k.kernels)
    threads = ctx.loops.parallel and large(work, PARALLEL_MIN_WORK) and not k.sequential
    nests, uses = [], set()
    if full:
        decls, lines, uses = _block(ctx, number, k, k.block)
        loop = Loop("b", "0", str(full), f"#pragma omp parallel for{THREADS}" if threads else "")
        nests.append(Nest([loop], [f"const int64_t {FIRST} = b*{k.block};"] + decls + lines))
    if tail:
        decls, lines, more = _block(ctx, number, k, tail)
        uses |= more
        nests.append(Nest([], [f"const int64_t {FIRST} = {full * k.block};"] + decls + lines)
                     .scoped())
    title = f"rows [{k.rows}] in blocks of {k.block}: {len(k.kernels)} loops, a block at a time"
    if k.sequential:
        title = f"rows [{k.rows}] in blocks of {k.block}: a product and " \
            f"{len(k.kernels) - 1} loops, a block at a time"
    functions = []
    if threads:
        nests, functions = regions.split(ctx.loops.region_name(), nests, [],
                                         regions.known(k.kernels, ctx.loops.sizes), ctx.env)
    one_blas = k.sequential and "blas" in uses and ctx.target.blas == "scipy"
    if one_blas:
        # (BLAS on one thread too: its threads waking for each block's GEMM while OpenMP's
        # spin from the loops before ran GMM's objective 2x slower on 2 threads than on one)
        nests = [Nest([], ["sg_blas_threads(1);"])] + nests + \
            [Nest([], ["sg_blas_threads(nthreads);"])]
    text = render_kernel(ctx.env, number, title, [], nests)
    scalars = {s.name for inner in k.kernels if type(inner) is LoopKernel
               for s in inner.scalars()}
    return Emitted(text, work, uses=frozenset(scalars), threaded=threads or one_blas,
                   blas="blas" in uses, functions=tuple(functions))
