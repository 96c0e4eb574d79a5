"""Row loops: consecutive loops over the same many rows of small work run as one loop over
blocks of rows, each loop's work for a block after the one before it, the values that stay
in the run held per block.

Layer: lower. Input: the kernel sequence (before the buffer plan). Output: the same sequence
with runs of loop kernels replaced by ``RowLoop`` kernels (``codegen.c.rows`` prints them).

``vmap`` of a small computation (GradBench's bundle adjustment: a 2 x 15 Jacobian block per
observation, 31,843 observations) lowers to dozens of loops over (rows, a few elements), each
storing its results for every row for the next loop to read back: 40 passes over arrays of
rows x 15. Run block by block instead (``BLOCK`` rows: each loop still vectorizes across
them), every intermediate of a block stays in the cache (a local array of the block's size),
and the loops over the rows become one, which threads split. A run is a sequence of
``LoopKernel``s over (R, ...) with R >= ``ROW_MIN`` and at most ``ROW_ELEMENTS`` elements
per row, none reducing over the rows, reading or writing across rows, or failing (a
gather's index check); and every buffer the run writes is read
and written in it row by row only (row r's elements at r times its row size, and nowhere
else): then running the loops row after row reads every value after it is written, as the
loops one after another do. A buffer the run writes that nothing after it reads, and no
output, becomes a block-local array.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import ClassVar

from ..dims import Dim
from .loopir import Buffer, LoopKernel, View

ROW_MIN = 64          # rows: fewer, and a loop of its own per kernel costs nothing much
ROW_ELEMENTS = 64     # elements of a row: more, and a loop of its own vectorizes well
BLOCK = 32            # rows run together: each loop vectorizes across them
BLOCK_BYTES = 1 << 17  # a block's local arrays at most (fewer rows in a block past this)


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
    family: ClassVar[str] = "rows"

    def views(self) -> list:
        """The views of buffers outside the loop (a block's own arrays are none of the
        buffer plan's or the function's business)."""
        return [v for k in self.kernels for v in k.views() if v.buffer.role != "row"]

    def with_views(self, f) -> RowLoop:
        return RowLoop(self.rows, [k.with_views(f) for k in self.kernels], self.dims,
                       self.block)


def _row_dim(k) -> tuple | None:
    """(rows, dim) of a loop kernel that may join a run, else None: its longest dim, of at
    least ``ROW_MIN``, the others at most ``ROW_ELEMENTS`` elements together, not reduced
    (nor, behind other dims, by a reduction in place), not padded, and no index it computes
    (a gather can fail)."""
    if type(k) is not LoopKernel or not k.shape or k.gathers or \
            any(isinstance(d, Dim) for d in k.shape):
        return None
    d = max(range(len(k.shape)), key=k.shape.__getitem__)
    rows = k.shape[d]
    if rows < ROW_MIN or math.prod(k.shape) // rows > ROW_ELEMENTS:
        return None
    if k.reduces and (d in k.reduce_axes or d and _outer_reduction(k)):
        return None
    if any(v.window is not None and v.window[d] != (0, rows) for v in k.views()):
        return None
    return rows, d


def _outer_reduction(k: LoopKernel) -> bool:
    """Whether a reduced axis of ``k`` comes before a kept one: the loop then accumulates
    in place, first filling its output's elements as one stretch from the view's offset
    (``codegen.c.loops``), which a block's rows are only when the rows lead."""
    kept = [a for a in range(len(k.shape)) if a not in k.reduce_axes and k.shape[a] > 1]
    return any(a < max(kept, default=-1) for a in k.reduce_axes if k.shape[a] > 1)


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
    stays inside the row (any part of the row: a column, a slice)."""
    b = v.buffer
    if isinstance(b.size, Dim) or b.size % rows:
        return False
    row = b.size // rows
    if v.strides[0] != row:
        return False
    lo = v.offset + sum(min(0, s * (n - 1)) for s, n in zip(v.strides[1:], v.shape[1:]))
    hi = v.offset + sum(max(0, s * (n - 1)) for s, n in zip(v.strides[1:], v.shape[1:]))
    return 0 <= lo and hi < row


def _consistent(accesses: list, rows: int) -> bool:
    """Whether the (view, row dim) accesses of one buffer that the run writes all reach row
    r's elements at row r: by its leading dim, each inside its row (``by_rows``); else each
    at the writer's offset and row stride, along (a part of) the writer's other dims, the
    writer's rows disjoint."""
    if all(d == 0 and by_rows(v, rows) for v, d in accesses):
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


def _run_ok(run: list, dims: list) -> bool:
    """Every buffer the run writes is read and written by rows only (``_consistent``),
    its writer first."""
    written = {s.out.buffer for k in run for s in k.stores}
    accesses: dict = {b: [] for b in written}
    for k, d in zip(run, dims):
        for st in k.stores:
            accesses[st.out.buffer].insert(0, (st.out, d))
        for v in k.loads:
            if v.buffer in written:
                accesses[v.buffer].append((v, d))
    rows = run[0].shape[dims[0]]
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
    for k in kernels:
        found = _row_dim(k)
        rows, d = found or (None, None)
        if run and (rows != run[0].shape[dims[0]] or not _run_ok(run + [k], dims + [d])):
            close()
        if found is None or not _run_ok([k], [d]):
            result.append(k)
        else:
            run.append(k)
            dims.append(d)
    close()
    return _localized(result)


def _localized(kernels: list) -> list:
    """Each row loop with the temporaries only it touches (and that it writes) held per
    block, where their layout allows."""
    touched: dict = {}
    for i, k in enumerate(kernels):
        for v in k.views():
            touched.setdefault(v.buffer, set()).add(i)
    result = []
    for i, k in enumerate(kernels):
        if type(k) is RowLoop:
            written = {s.out.buffer for inner in k.kernels for s in inner.stores}
            mine = [b for b in written if b.role == "temp" and touched[b] == {i}]
            row_bytes = sum(b.size // k.rows * b.dtype.itemsize for b in mine)
            block = max(1, min(BLOCK, BLOCK_BYTES // max(row_bytes, 1)))
            k = RowLoop(k.rows, k.kernels, k.dims, block)
            local = {}
            for b in mine:
                layout = _block_layout(k, b)
                if layout is not None:
                    local[b] = layout
            if local:
                k = k.with_views(lambda v, local=local: _local_view(v, local))
        result.append(k)
    return result


def _block_layout(k: RowLoop, b: Buffer):
    """(the block's array, stride -> its stride there) for buffer ``b`` of row loop ``k``:
    strides below the row stride S stay, strides past the rows (multiples of S * rows)
    count ``block`` rows instead; None if ``b`` is laid out otherwise."""
    views = [(v, d) for inner, d in zip(k.kernels, k.dims) for v in inner.views()
             if v.buffer is b]
    ref, d = views[0]
    row = ref.strides[d]
    span = row * k.rows
    if all(e == 0 for _, e in views) and b.size == span:   # (rows lead: the block's rows)
        return Buffer("row", b.index, b.dtype, row * k.block), {}
    strides = {st for v, _ in views for st in v.strides if st}
    if ref.offset >= row or any(row < st < span or (st >= span and st % span)
                                for st in strides):
        return None
    remap = {st: (st if st <= row else st // span * row * k.block) for st in strides}
    size = ref.offset + 1 + sum((n - 1) * remap.get(st, 0)
                                for n, st in zip(ref.shape[:d] + (k.block,) + ref.shape[d + 1:],
                                                 ref.strides) if st)
    return Buffer("row", b.index, b.dtype, size), remap


def _local_view(v, local: dict):
    """The view of a block's local array: its strides as the block lays them out."""
    if not isinstance(v, View) or v.buffer not in local:
        return v
    buf, remap = local[v.buffer]
    if not remap:
        return v.rebased(buf, v.offset)
    return dataclasses.replace(v, buffer=buf, strides=tuple(remap.get(st, 0) if st else 0
                                                            for st in v.strides))
