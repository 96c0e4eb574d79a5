"""A matrix product of a short contraction fused into the loop that reads it.

Layer: lower. Input: the kernel sequence (before row loops and the buffer plan) and a maker of
workspace temporaries. Output: the same sequence where each such product is gone and its one
reader computes each element it reads as the contraction itself: ``sum_p a[i, p] * b[p, j]``,
``SMALL_K`` products and sums in order from p = 0 (the order of codegen's plain product loop).

k-means' distances ``|P|^2 + |C|^2 - 2 C @ P.T`` contract over the 8 coordinates: BLAS wrote
the 1,000 x 10,000 product (GEMM at K = 8 runs far below its peak) and the min over the
centroids read it back; fused, the min's loop computes each distance where it reads it, and
with its inner row in tiles (``codegen.c.tiles``) a tile of points stays in
registers for every centroid. A reader that would compute an element more than once (it
broadcasts the product along one of its dims) is left alone, as are batched products. The
operand that runs along the reader's inner loop is copied first into rows of unit stride (a
transposed operand: ``P.T``'s rows are P's columns), so that its loads vectorize.
"""

from __future__ import annotations

from ..dims import Dim
from .loopir import Expr, IndexedView, LoopKernel, Stmt, Store, View, copy_kernel
from .matmul import MatmulKernel

SMALL_K = 8     # contraction lengths fused at most (past it, GEMM's blocking pays)


def fuse_small_products(kernels: list, scratch) -> list:
    """``kernels`` with each small product fused into its reader (module docstring);
    ``scratch(dtype, shape)`` makes a workspace temporary (a transposed operand)."""
    result = list(kernels)
    i = 0
    while i < len(result):
        k = result[i]
        fused = _fused(result, i, scratch) if type(k) is MatmulKernel else None
        if fused is None:
            i += 1
            continue
        j, copies, reader = fused
        result[j] = reader
        result[i:i + 1] = copies
        i += len(copies)
    return result


def _fused(kernels: list, i: int, scratch):
    """(the reader's position, the kernels replacing the product, the new reader) or None."""
    m = kernels[i]
    out = m.out.buffer
    # (sizes of shape-generic code first: comparing one with SMALL_K would guard on it)
    if any(isinstance(n, Dim) for n in m.a.shape + m.b.shape) or len(m.out.shape) != 2 or \
            out.role != "temp" or not out.dtype.is_floating or \
            not 0 < m.a.shape[-1] <= SMALL_K or m.out.offset != 0 or \
            any(v.window is not None for v in (m.a, m.b, m.out)):
        return None
    readers = [j for j, k in enumerate(kernels) if j != i and out in _buffers(k)]
    if len(readers) != 1 or readers[0] < i or type(kernels[readers[0]]) is not LoopKernel:
        return None
    j = readers[0]
    operands = {m.a.buffer, m.b.buffer}
    if any(operands & {v.buffer for v in _written(k)} for k in kernels[i + 1:j]):
        return None
    reader = kernels[j]
    views = [q for q, v in enumerate(reader.loads) if v.buffer is out]
    # (a padded read, the gradient of a slice: the fill outside its window is no product; a
    # gather's read: where its index points)
    if len(views) != 1 or any(s.out.buffer is out for s in reader.stores) or \
            reader.loads[views[0]].window is not None or \
            isinstance(reader.loads[views[0]], IndexedView):
        return None
    where = _axes(reader.loads[views[0]], m.out)
    if where is None:
        return None
    copies, a, b = [], m.a, m.b
    moving = [ax for ax, _ in where[2] if ax is not None]
    inner = moving[-1] if moving else None
    if inner == "j" and b.strides[1] != 1:
        b, copy = _dense(b, scratch)
        copies.append(copy)
    elif inner == "i" and a.strides[0] != 1:
        a, copy = _transposed(a, scratch)
        copies.append(copy)
    return j, copies, _contracted(reader, views[0], where, a, b)


def _buffers(k) -> set:
    return {v.buffer for v in k.views()}


def _written(k) -> list:
    """The views kernel ``k`` writes (every view, for a kernel of another kind: assumed)."""
    if type(k) is LoopKernel:
        return [s.out for s in k.stores]
    if type(k) is MatmulKernel:
        return [k.out]
    return k.views()


def _axes(v: View, out: View):
    """(i0, j0, per dim of the reader: ("i", step) or ("j", step) along the product's rows
    or columns, (None, 0) for a dim of extent 1), or None unless every other dim moves along
    one of them, the dims along one nested (vmap's tangents and rows, both along the rows of
    the product it merged them into), and none broadcasts (an element computed twice).
    The product is stored row-major, or column-major (the layout of a transposed reader:
    ``lower.matmul``)."""
    rows, cols = out.shape
    if tuple(out.strides) == (cols, 1):
        big, small, stride = "i", "j", cols
        i0, j0 = divmod(v.offset, cols)
    elif tuple(out.strides) == (1, rows):
        big, small, stride = "j", "i", rows
        j0, i0 = divmod(v.offset, rows)
    else:
        return None
    if i0 < 0 or j0 < 0:
        return None
    axes = []
    for n, s in zip(v.shape, v.strides):
        if n == 1:
            axes.append((None, 0))
        elif s == 0:
            return None
        elif s % stride == 0:
            axes.append((big, s // stride))
        elif s < stride:
            axes.append((small, s))
        else:
            return None
    if not (_nested(axes, v.shape, "i", i0, rows) and _nested(axes, v.shape, "j", j0, cols)):
        return None
    return i0, j0, axes


def _nested(axes: list, shape: tuple, name: str, start: int, extent: int) -> bool:
    """Whether the reader's dims along the product's axis ``name`` reach each element at most
    once (by step, each past the span of those below) and stay inside its ``extent``."""
    span = 0
    for step, n in sorted((step, n) for (ax, step), n in zip(axes, shape) if ax == name):
        if step <= span:
            return False
        span += step * (n - 1)
    return start + span < extent


def _dense(b: View, scratch):
    """``b`` (K, n) copied into rows of unit stride: (the copy's view, the copy kernel)."""
    buf = scratch(b.buffer.dtype, b.shape)
    dense = View.dense(buf, b.shape)
    return dense, copy_kernel("transpose", b.shape, ("load", 0), dense, [b])


def _transposed(a: View, scratch):
    """``a`` (m, K) stored as (K, m) rows of unit stride, read back as an (m, K) view."""
    m, kk = a.shape
    buf = scratch(a.buffer.dtype, (kk, m))
    t = View(a.buffer, a.offset, (kk, m), (a.strides[1], a.strides[0]))
    copy = copy_kernel("transpose", (kk, m), ("load", 0), View.dense(buf, (kk, m)), [t])
    return View(buf, 0, (m, kk), (1, m)), copy


def _contracted(reader: LoopKernel, q: int, where: tuple, a: View, b: View) -> LoopKernel:
    """``reader`` with its load ``q`` of the product (at ``where``: ``_axes``) replaced by
    the contraction of ``a``'s rows and ``b``'s columns, computed before its statements."""
    i0, j0, axes = where
    v = reader.loads[q]
    loads = reader.loads[:q] + reader.loads[q + 1:]
    dtype = v.buffer.dtype
    body, total = [], None
    tag = sum(1 for s in reader.body if s.local.startswith("mm") and s.local.endswith("_0"))
    for p in range(a.shape[1]):
        la = View(a.buffer, a.offset + i0 * a.strides[0] + p * a.strides[1], v.shape,
                  tuple(step * a.strides[0] if ax == "i" else 0 for ax, step in axes))
        lb = View(b.buffer, b.offset + p * b.strides[0] + j0 * b.strides[1], v.shape,
                  tuple(step * b.strides[1] if ax == "j" else 0 for ax, step in axes))
        args = []
        for view in (la, lb):
            if view not in loads:
                loads.append(view)
            args.append(("load", loads.index(view)))
        body.append(Stmt(f"mm{tag}_{p}", Expr("mul", dtype, dtype), args))
        if total is not None:
            body.append(Stmt(f"ms{tag}_{p}", Expr("add", dtype, dtype),
                             [total, f"mm{tag}_{p}"]))
        total = f"ms{tag}_{p}" if p else f"mm{tag}_0"

    def arg(x):
        if isinstance(x, tuple) and x[0] == "load":
            return total if x[1] == q else ("load", x[1] - (x[1] > q))
        return x
    body += [Stmt(s.local, s.expr, [arg(x) for x in s.args], s.loc) for s in reader.body]
    stores = [Store(arg(s.value), s.out, s.op, s.size, s.reduce, s.loc, s.accumulate)
              for s in reader.stores]
    return LoopKernel(reader.shape, loads, body, stores, reader.reduce_axes)
