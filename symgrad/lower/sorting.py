"""Lowering of the sorting primitive (``ops.sorting``): one ``SortKernel`` per ``argsort`` node.

Layer: lower. Input: an ``argsort`` node and the lowering in progress (its views, buffers and
kernel list). Output: a ``SortKernel`` appended to the lowering's kernels: the operand as a view
(a strided or broadcast one is read in place), a dense int64 output buffer, and one int64
scratch buffer of twice the row's length (the merge sort's two index arrays), a temporary of
the workspace that lives for this kernel only, reused from one row to the next. Codegen
(``codegen.c.sorting``) writes the C.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..dtypes import int64
from ..ir.graph import Loc
from .loopir import Buffer, ReadsInputsWritesOut, View

__all__ = ["SortKernel", "lower"]


@dataclass
class SortKernel(ReadsInputsWritesOut):
    """The stable order of each row of ``inputs[0]`` along ``axis``, written to ``out``.
    ``inputs`` lists the operand, then the scratch buffer (so that the buffer plan places it
    like any input of a kernel)."""

    kind: str
    inputs: list                # Views: the values, then dense int64 scratch (2 * row length)
    out: View                   # dense int64, the operand's shape
    axis: int
    descending: bool
    loc: Loc | None = None
    family: ClassVar[str] = "sorting"

    @property
    def scratch(self) -> View:
        return self.inputs[1]


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` (a ``lowering._Lowering``) and record where
    its value lives."""
    values = lowering.as_view(node.inputs[0])
    out = lowering.new_buffer(node)
    lowering.storage[node] = out
    axis = node.attr("axis")
    size = 2 * node.shape[axis]
    buf = Buffer("temp", lowering.n_temps, int64, size)
    lowering.n_temps += 1
    lowering.kernels.append(SortKernel(node.op, [values, View.dense(buf, (size,))], out, axis,
                                       bool(node.attr("descending")), lowering.locs.get(node)))
