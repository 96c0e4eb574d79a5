"""Row loops: consecutive loops over the same many rows of small work run as one loop over
blocks of rows, each loop's work for a block after the one before it, the values that stay
in the run held per block.

Layer: lower. Input: the kernel sequence (before the buffer plan). Output: the same sequence
with runs of loop kernels replaced by ``RowLoop`` kernels (``codegen.c.rows`` prints them).

``vmap`` of a small computation (GradBench's bundle adjustment: a 2 x 15 Jacobian block per
observation, 31,843 observations) lowers to dozens of loops over (rows, a few elements), each
storing its results for every row for the next loop to read back: 40 passes over arrays of
rows x 15. Run block by block instead (``BLOCK`` rows: each loop vectorizes across them, the
block's arrays row-fastest, ``codegen.c.lanes``), every intermediate of a block stays in the
cache (a local array of the block's size), and the loops over the rows become one, which
threads split. A run is a sequence of
``LoopKernel``s over (R, ...) with R >= ``ROW_MIN`` and at most ``ROW_ELEMENTS`` elements
per row, none reducing over the rows, reading or writing across rows, or failing (a
gather's index check); and every buffer the run writes is read
and written in it row by row only (row r's elements at r times its row size, and nowhere
else): then running the loops row after row reads every value after it is written, as the
loops one after another do. A buffer the run writes that nothing after it reads, and no
output, becomes a block-local array.

**Products.** A matrix product whose result is large (``PRODUCT_MIN`` bytes: well past the
L2 cache) and cheap per element (a contraction of at most ``PRODUCT_K``) is written to memory
by BLAS and read back by the loop after it: k-means' 1,000 x 10,000 distance matrix (K = 8)
costs its 80 MB twice, the GEMM itself less. Such a product runs in a row loop too, with the
loops that read it after it and those that write its operands before it (GMM's centred
points): the row dim is a batch dim or a matrix dim of the product that none of them reduces
(k-means' points, the min being over its centroids), a matrix dim only where a block holds
``GEMM_ROWS`` of it at least, each block one GEMM of a block of rows
(or columns) and the loops over the block, the product of a block in a workspace array of
``PRODUCT_BLOCK_BYTES`` (too large for the stack), so the blocks run one after another on
one thread, their GEMMs too (``codegen.c.rows``: OpenMP's threads and BLAS's waking in turn
block after block ran GMM's objective 30x slower). A writer of an operand may pass a few
kernels that do not touch what it writes or write what it reads to join (GMM's centred
points, 8 or 51 MB, pass the scatter that builds L). Measured, one thread: k-means' cost at
k = 1,000 17.7 -> 7.5 ms, GMM's objective at d = 20 2.8 -> 2.0 ms and at d = 64 36 -> 24 ms
(of which GEMM ~20 ms: 819 MFLOP at 40 GFLOP/s), its gradient 113 -> ~100 ms; an 8 MB
product alone (k-means at k = 100) gains ~5-20%.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import ClassVar

from ..dims import Dim
from .loopir import Buffer, IndexedView, LoopKernel, View, touching
from .matmul import MatmulKernel

ROW_MIN = 64          # rows: fewer, and a loop of its own per kernel costs nothing much
ROW_ELEMENTS = 64     # elements of a row: more, and a loop of its own vectorizes well
BLOCK = 32            # rows run together: each loop vectorizes across them
BLOCK_BYTES = 1 << 17  # a block's local arrays at most (fewer rows in a block past this)
PRODUCT_MIN = 1 << 22  # bytes of a product worth computing block by block
PRODUCT_K = 256        # contraction length at most (past it, GEMM's work dwarfs the stores)
PRODUCT_BLOCK_BYTES = 1 << 19  # a product run's block arrays (workspace) at most
GEMM_ROWS = 16         # rows (or columns) of a block's GEMM at least: fewer, and it runs slow
                       # (k-means' direction, blocks of 6 of 100 centroids: 1.55 -> 1.8 ms)


@dataclass
class RowLoop:
    """``kernels`` (each over a shape with ``rows`` along its dim ``dims[i]``) for the first
    ``block`` rows, then the next ``block``...; buffers of role "row" hold a block's values
    (laid out as the whole buffer, with ``block`` rows in place of ``rows``), private to each
    block (and thread)."""

    rows: int
    kernels: list
    dims: tuple
    block: int = BLOCK
    blocks: frozenset = frozenset()   # names of the workspace buffers that hold one block
    family: ClassVar[str] = "rows"

    @property
    def sequential(self) -> bool:
        """Blocks one after another: a run with a matrix product (see the module docstring)."""
        return any(type(k) is MatmulKernel for k in self.kernels)

    def views(self) -> list:
        """The views of buffers outside the loop (a block's own arrays are none of the
        buffer plan's or the function's business; a product run's are workspace buffers)."""
        return [v for k in self.kernels for v in k.views() if v.buffer.role != "row"]

    def with_views(self, f) -> RowLoop:
        return RowLoop(self.rows, [k.with_views(f) for k in self.kernels], self.dims,
                       self.block, self.blocks)


def view_dims(k, d: int) -> list:
    """(view, its row dim or None: the view does not move with the rows, written) of each
    view of kernel ``k`` run with row dim ``d`` (of its loop's shape; of a product's)."""
    if type(k) is MatmulKernel:
        batch = len(k.out.shape) - 2
        a_dim = d if d <= batch else None
        b_dim = d if d < batch or d == batch + 1 else None
        return [(k.a, a_dim, False), (k.b, b_dim, False), (k.out, d, True)]
    return [(v, d, False) for v in k.loads] + [(s.out, d, True) for s in k.stores]


def _row_dim(k) -> tuple | None:
    """(rows, dim) of a loop kernel that may join a run, else None: its longest dim, of at
    least ``ROW_MIN``, the others at most ``ROW_ELEMENTS`` elements together, not reduced
    (nor, behind other dims, by a reduction in place), not padded, and no index it checks
    (a gather can fail; one of an index checked before it cannot)."""
    if type(k) is not LoopKernel or not k.shape or k.fails or \
            any(isinstance(d, Dim) for d in k.shape):
        return None
    d = max(range(len(k.shape)), key=k.shape.__getitem__)
    rows = k.shape[d]
    if rows < ROW_MIN or math.prod(k.shape) // rows > ROW_ELEMENTS:
        return None
    if k.reduces and (d in k.reduce_axes or _outer_reduction(k, d)):
        return None
    if any(v.window is not None and v.window[d] != (0, rows) for v in k.views()):
        return None
    return rows, d


def _outer_reduction(k: LoopKernel, d: int) -> bool:
    """Whether a reduced axis of ``k`` comes before a kept one, rows ``d`` not leading: the
    loop then accumulates in place, first filling its output's elements as one stretch from
    the view's offset (``codegen.c.loops``), which a block's rows are only when the rows
    lead, or lead the kept dims of a dense output (GMM's gradient: a sum over the points
    into (components, d), run by components)."""
    kept = [a for a in range(len(k.shape)) if a not in k.reduce_axes and k.shape[a] > 1]
    if d == 0 or kept[:1] == [d] and all(_dense(s.out, kept) for s in k.stores if s.reduce):
        return False
    return any(a < max(kept, default=-1) for a in k.reduce_axes if k.shape[a] > 1)


def _dense(v: View, kept: list) -> bool:
    """Whether view ``v`` lays its ``kept`` dims out row-major, without gaps."""
    stride = 1
    for a in reversed(kept):
        if v.strides[a] != stride:
            return False
        stride *= v.shape[a]
    return True


def _pairs(v: View, d: int) -> list:
    """The (extent, stride) of the dims of ``v`` other than ``d`` that move in memory."""
    return sorted((n, st) for i, (n, st) in enumerate(zip(v.shape, v.strides))
                  if i != d and n > 1 and st != 0)


def _disjoint(v: View, d: int) -> bool:
    """Whether ``v`` reaches each element of its buffer at most once (its dims, by stride,
    each past the span of the ones below), so that its rows are disjoint."""
    span = 0
    for n, st in sorted(_pairs(v, d) + [(v.shape[d], v.strides[d])], key=lambda p: p[1]):
        if st <= span or st < 0:
            return False
        span = st * (n - 1) + span
    return True


def by_rows(v: View, rows: int) -> bool:
    """Whether ``v`` reads or writes row r of its buffer, and only it, at index r of its
    leading dim: its row stride is the buffer's size over ``rows``, and every other index
    stays inside the row (any part of the row: a column, a slice; of a padded view, the
    indices inside its window, the only ones it reads)."""
    b = v.buffer
    if isinstance(b.size, Dim) or b.size % rows:
        return False
    row = b.size // rows
    return v.strides[0] == row and _inside(v, 0, row)


def _inside(v: View, d: int, row: int, base: int = 0) -> bool:
    """Whether ``v``'s indices other than its row dim ``d`` stay at elements base .. base +
    row - 1 of the buffer (of a padded view, the indices inside its window: the only ones it
    reads; an empty window reads nothing)."""
    span = _span(v, d)
    return span is not None and (span == () or base <= span[0] and span[1] < base + row)


def _span(v: View, d: int) -> tuple | None:
    """(lowest, highest) element ``v`` reaches at index 0 of dim ``d``; () if it reaches
    none (an empty window), None if a call-time size decides."""
    spans = [(0, n) if v.window is None else v.window[k] for k, n in enumerate(v.shape)]
    if any(hi <= lo for lo, hi in spans):
        return ()
    pairs = [(s, w) for k, (s, w) in enumerate(zip(v.strides, spans)) if k != d]
    if any(isinstance(x, Dim) for x in (v.offset, *(s for s, _ in pairs), *v.shape)):
        return None
    return (v.offset + sum(min(s * a, s * (z - 1)) for s, (a, z) in pairs),
            v.offset + sum(max(s * a, s * (z - 1)) for s, (a, z) in pairs))


def _strided_rows(accesses: list, rows: int) -> bool:
    """Whether the accesses of each row stride S stay inside their row's stretch of S
    elements (row r at base + r * S, ``by_rows``' rows with S not the buffer's size over
    the rows), the stretches of different strides apart: bundle adjustment's Jacobian
    values, 28 per observation written as several column ranges, then one per observation
    for the weights."""
    strides: dict = {}
    for v, d in accesses:
        strides.setdefault(v.strides[d], []).append((v, d))
    regions = []
    for S, group in strides.items():
        spans = [_span(v, d) for v, d in group]
        if isinstance(S, Dim) or S <= 0 or any(sp is None for sp in spans):
            return False
        base = min((sp[0] for sp in spans if sp), default=0)
        if not all(_inside(v, d, S, base) for v, d in group):
            return False
        regions.append((base, base + S * rows))
    regions.sort()
    return all(a[1] <= b[0] for a, b in zip(regions, regions[1:]))


def _consistent(accesses: list, rows: int) -> bool:
    """Whether the (view, row dim) accesses of one buffer that the run writes all reach row
    r's elements at row r: by its leading dim, each inside its row (``by_rows``); else each
    at the writer's offset and row stride, along (a part of) the writer's other dims, the
    writer's rows disjoint; or each in its row's stretch of one stride (``_strided_rows``)."""
    if all(d == 0 and by_rows(v, rows) for v, d in accesses) or _strided_rows(accesses, rows):
        return True
    ref, d = accesses[0]
    if not ref.strides[d] or not _disjoint(ref, d):
        return False
    mine = _pairs(ref, d)
    for v, e in accesses[1:]:
        if v.offset != ref.offset or v.strides[e] != ref.strides[d]:
            return False
        rest = list(mine)
        for p in _pairs(v, e):
            if p not in rest:
                return False
            rest.remove(p)
    return True


def _run_ok(run: list, dims: list, rows: int) -> bool:
    """Every buffer the run writes is read and written by rows only (``_consistent``),
    its writer first; none is a gather's source (read where an index points)."""
    written = {v.buffer for k, d in zip(run, dims) for v, _, w in view_dims(k, d) if w}
    accesses: dict = {b: [] for b in written}
    for k, d in zip(run, dims):
        for v, e, w in view_dims(k, d):
            if v.buffer not in written:
                continue
            if e is None or isinstance(v, IndexedView):
                return False
            if w:
                accesses[v.buffer].insert(0, (v, e))
            else:
                accesses[v.buffer].append((v, e))
    return all(_consistent(a, rows) for a in accesses.values())


def fuse_rows(kernels: list) -> list:
    """``kernels`` with each run of at least two kernels over the same rows as one RowLoop
    (see the module docstring)."""
    result: list = []
    run: list = []
    dims: list = []

    def close() -> None:
        if len(run) > 1:
            result.append(RowLoop(run[0].shape[dims[0]], list(run), tuple(dims)))
        else:
            result.extend(run)
        run.clear()
        dims.clear()
    for k in _product_runs(kernels):
        found = _row_dim(k)
        rows, d = found or (None, None)
        if run and (rows != run[0].shape[dims[0]] or
                    not _run_ok(run + [k], dims + [d], rows)):
            close()
        if found is None or not _run_ok([k], [d], rows):
            result.append(k)
        else:
            run.append(k)
            dims.append(d)
    close()
    return _localized(result)


def _product_runs(kernels: list) -> list:
    """``kernels`` with each large, cheap matrix product (see the module docstring) and the
    loops next to it that write its operands or read its result as one RowLoop, where some
    row dim keeps its product's blocks in the run."""
    result = list(kernels)
    i = 0
    while i < len(result):
        k = result[i]
        found = _product_run(result, i) if type(k) is MatmulKernel and _large_product(k) \
            else None
        if found is None:
            i += 1
            continue
        start, stop, passed, loop = found
        result[start:stop] = passed + [loop]
        i = start + len(passed) + 1
    return result


def _large_product(k: MatmulKernel) -> bool:
    shape = k.out.shape
    if any(isinstance(n, Dim) for n in shape + k.a.shape + k.b.shape) or \
            not len(k.a.shape) == len(k.b.shape) == len(shape):
        return False
    return math.prod(shape) * k.out.buffer.dtype.itemsize >= PRODUCT_MIN and \
        k.a.shape[-1] <= PRODUCT_K


def _product_run(kernels: list, i: int):
    """(start, stop, the kernels passed, RowLoop): ``kernels[start:stop]`` become the kernels
    the run's writers passed (``_before``) and the run around the product ``kernels[i]``: its
    row dim the first of its dims (batch dims, rows, columns) with which the loops after it
    that read it join, the product then touched by the run only; None if there is none."""
    k = kernels[i]
    batch = len(k.out.shape) - 2
    total = math.prod(k.out.shape) * k.out.buffer.dtype.itemsize
    for d in range(len(k.out.shape)):
        rows = k.out.shape[d]
        if rows < 2 or d >= batch and PRODUCT_BLOCK_BYTES * rows // total < GEMM_ROWS:
            continue
        run, dims = [k], [d]
        stop = i + 1
        while stop < len(kernels) and _join(kernels[stop], run, dims, rows, after=True):
            stop += 1
        if stop == i + 1:
            continue
        start, passed = _before(kernels, i, run, dims, rows)
        product = k.out.buffer
        if product.role == "temp" and not any(
                product in {v.buffer for v in x.views()}
                for x in kernels[:start] + passed + kernels[stop:]):
            return start, stop, passed, RowLoop(rows, run, tuple(dims))
    return None


LOOKBACK = 4   # kernels a writer of a run's operand may pass to join it


def _before(kernels: list, i: int, run: list, dims: list, rows: int) -> tuple[int, list]:
    """(start, passed): the loops before ``kernels[i]`` that write what the run reads join
    it (GMM's centred points), passing up to ``LOOKBACK`` kernels that do not touch what they
    write or write what they read (the scatter that builds GMM's L); ``passed`` stay before
    the run, in order, and ``kernels[start:i]`` are the joined and the passed."""
    passed: list = []
    j = i - 1
    while j >= 0 and len(passed) <= LOOKBACK:
        c = kernels[j]
        if not any(_conflict(c, p) for p in passed) and \
                _join(c, run, dims, rows, after=False):
            j -= 1
            continue
        passed.insert(0, c)
        j -= 1
    while passed and passed[0] is kernels[j + 1]:   # (the ones passed by none stay put)
        passed.pop(0)
        j += 1
    return j + 1, passed


def _conflict(c, p) -> bool:
    """Whether kernel ``c`` may not move after kernel ``p``: they share a buffer other than
    an input or a constant (which nothing writes)."""
    mine = {v.buffer for v in c.views()}
    return any(v.buffer in mine and v.buffer.role not in ("input", "const")
               for v in p.views())


def _join(k, run: list, dims: list, rows: int, after: bool) -> bool:
    """Add loop kernel ``k`` to the run (after or before it) if it reads what the run
    writes (after) or writes what it reads (before), along some dim of ``rows`` rows."""
    if type(k) is not LoopKernel or k.fails or not k.shape or \
            any(isinstance(n, Dim) for n in k.shape):
        return False
    mine = {v.buffer for x, d in zip(run, dims) for v, _, w in view_dims(x, d) if w == after}
    theirs = {v.buffer for v, _, w in view_dims(k, 0) if w != after}
    if not mine & theirs:
        return False
    for e in range(len(k.shape)):
        if k.shape[e] != rows or (k.reduces and (e in k.reduce_axes or _outer_reduction(
                k, e))) or any(v.window is not None and v.window[e] != (0, rows)
                               for v in k.views()):
            continue
        new, new_dims = (run + [k], dims + [e]) if after else ([k] + run, [e] + dims)
        if _run_ok(new, new_dims, rows):
            run[:], dims[:] = new, new_dims
            return True
    return False


def _localized(kernels: list) -> list:
    """Each row loop with the temporaries only it touches (and that it writes) held per
    block, where their layout allows."""
    touched = touching(kernels)
    result = []
    for i, k in enumerate(kernels):
        if type(k) is RowLoop:
            k = _with_block_arrays(k, i, touched)
        result.append(k)
    return result


def _with_block_arrays(k: RowLoop, i: int, touched: dict) -> RowLoop:
    """``k`` with its block size and the arrays of its block (on the stack; a product run's
    in the workspace, see the module docstring)."""
    written = {v.buffer for inner, d in zip(k.kernels, k.dims)
               for v, _, w in view_dims(inner, d) if w}
    mine = sorted((b for b in written if b.role == "temp" and touched[b] == {i}),
                  key=lambda b: b.index)
    row_bytes = max(sum(b.size // k.rows * b.dtype.itemsize for b in mine), 1)
    if k.sequential:
        block = _product_block(k.rows, PRODUCT_BLOCK_BYTES // row_bytes)
    else:
        block = max(1, min(BLOCK, BLOCK_BYTES // row_bytes))
    k = RowLoop(k.rows, k.kernels, k.dims, block)
    local = {}
    for b in mine:
        layout = _block_layout(k, b)
        if layout is not None:
            local[b] = layout
    if not local:
        return k
    blocks = frozenset(buf.name for buf, _ in local.values()) if k.sequential else frozenset()
    return RowLoop(k.rows, k.kernels, k.dims, block, blocks).with_views(
        lambda v: _local_view(v, local))


def _product_block(rows: int, most: int) -> int:
    """Rows of a product run's block: at most ``most``, a multiple of 8 (whole vectors of
    the loops along them), one that divides ``rows`` if there is one down to half of it."""
    if most < 8 or rows <= most:
        return max(1, min(rows, most))
    most -= most % 8
    for block in range(most, most // 2 - 1, -8):
        if rows % block == 0:
            return block
    return most


def _block_layout(k: RowLoop, b: Buffer):
    """(the block's array, stride -> its stride there) for buffer ``b`` of row loop ``k``:
    strides below the row stride S stay, strides past the rows (multiples of S * rows)
    count ``block`` rows instead; None if ``b`` is laid out otherwise. The array is a
    buffer of role "row" (a local array), a product run's of role "temp" (the workspace)."""
    views = [(v, d) for inner, dd in zip(k.kernels, k.dims)
             for v, d, _ in view_dims(inner, dd) if v.buffer is b]
    ref, d = views[0]
    role = "temp" if k.sequential else "row"
    row = ref.strides[d]
    span = row * k.rows
    # (a C array has one element at least: an array of size-0 dims holds none)
    if all(e == 0 for _, e in views) and b.size == span:   # (rows lead: the block's rows)
        return Buffer(role, b.index, b.dtype, max(row * k.block, 1)), {}
    strides = {st for v, _ in views for st in v.strides if st}
    if ref.offset >= row or any(row < st < span or (st >= span and st % span)
                                for st in strides):
        return None
    remap = {st: (st if st <= row else st // span * row * k.block) for st in strides}
    size = ref.offset + 1 + sum((n - 1) * remap.get(st, 0)
                                for n, st in zip(ref.shape[:d] + (k.block,) + ref.shape[d + 1:],
                                                 ref.strides) if st)
    return Buffer(role, b.index, b.dtype, max(size, 1)), remap


def _local_view(v, local: dict):
    """The view of a block's local array: its strides as the block lays them out."""
    if not isinstance(v, View) or v.buffer not in local:
        return v
    buf, remap = local[v.buffer]
    if not remap:
        return v.rebased(buf, v.offset)
    return dataclasses.replace(v, buffer=buf, strides=tuple(remap.get(st, 0) if st else 0
                                                            for st in v.strides))
