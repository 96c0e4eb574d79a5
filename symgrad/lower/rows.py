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
    """``kernels`` (each over (rows, ...)) for the first ``block`` rows, then the next
    ``block``...; buffers of role "row" hold a block's values (``block`` rows of their row
    size), private to each block (and thread)."""

    rows: int
    kernels: list
    block: int = BLOCK
    family: ClassVar[str] = "rows"

    def views(self) -> list:
        """The views of buffers outside the loop (a row's own arrays are none of the buffer
        plan's or the function's business)."""
        return [v for k in self.kernels for v in k.views() if v.buffer.role != "row"]

    def with_views(self, f) -> RowLoop:
        return RowLoop(self.rows, [k.with_views(f) for k in self.kernels], self.block)


def _eligible(k) -> int | None:
    """The rows of a loop kernel that may join a run, else None."""
    if type(k) is not LoopKernel or not k.shape or k.gathers or 0 in (k.reduce_axes or ()):
        return None
    rows = k.shape[0]
    if isinstance(rows, Dim) or any(isinstance(d, Dim) for d in k.shape) or rows < ROW_MIN \
            or math.prod(k.shape[1:]) > ROW_ELEMENTS:
        return None
    for v in k.views():
        if v.window is not None and v.window[0] != (0, rows):
            return None
    return rows


def by_rows(v: View, rows: int) -> bool:
    """Whether ``v`` reads or writes row r of its buffer, and only it, at index r: its row
    stride is the buffer's size over ``rows``, and every other index stays inside the row."""
    b = v.buffer
    if isinstance(b.size, Dim) or b.size % rows:
        return False
    row = b.size // rows
    if v.strides[0] != row:
        return False
    lo = v.offset + sum(min(0, s * (n - 1)) for s, n in zip(v.strides[1:], v.shape[1:]))
    hi = v.offset + sum(max(0, s * (n - 1)) for s, n in zip(v.strides[1:], v.shape[1:]))
    return 0 <= lo and hi < row


def _run_ok(run: list, rows: int) -> bool:
    """Every buffer the run writes is read and written by rows only."""
    written = {s.out.buffer for k in run for s in k.stores}
    return all(by_rows(v, rows) for k in run for v in k.views() if v.buffer in written)


def fuse_rows(kernels: list) -> list:
    """``kernels`` with each run of at least two kernels over the same rows as one RowLoop
    (see the module docstring)."""
    result: list = []
    run: list = []

    def close() -> None:
        result.extend([RowLoop(run[0].shape[0], list(run))] if len(run) > 1 else run)
        run.clear()
    for k in kernels:
        rows = _eligible(k)
        if run and (rows != run[0].shape[0] or not _run_ok(run + [k], rows)):
            close()
        if rows is None or not _run_ok([k], rows):
            result.append(k)
        else:
            run.append(k)
    close()
    return _localized(result)


def _localized(kernels: list) -> list:
    """Each row loop with the temporaries only it touches (and that it writes) held per row."""
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
            local = {b: Buffer("row", b.index, b.dtype, b.size // k.rows * block) for b in mine}
            k = RowLoop(k.rows, k.kernels, block)
            if local:
                k = k.with_views(lambda v, local=local: _local_view(v, local))
        result.append(k)
    return result


def _local_view(v, local: dict):
    """The view of a block's local array: the same layout, row r of the block at r times
    the row size (as row r of the rows is in the whole buffer)."""
    if not isinstance(v, View) or v.buffer not in local:
        return v
    return v.rebased(local[v.buffer], v.offset)
