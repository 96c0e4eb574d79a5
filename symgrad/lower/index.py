"""Lowering of the index ops (``ops.indexing``): ``gather``, ``scatter_add``, ``argmax`` and
``argmin``, one ``IndexKernel`` per node.

Layer: lower. Input: such a node and the lowering in progress. Output: an ``IndexKernel``
appended to the lowering's kernels: its operands as dense views, a dense output buffer.
Codegen (``codegen.c.index``) writes loops that check every index against its bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..ir.graph import Loc
from .loopir import ReadsInputsWritesOut, View

__all__ = ["IndexKernel", "lower"]


@dataclass
class IndexKernel(ReadsInputsWritesOut):
    """gather / scatter_add / argmax / argmin: loops with a checked integer index."""

    kind: str
    inputs: list                # Views
    out: View
    axis: int
    shape: tuple                # the result's
    loc: Loc | None = None
    family: ClassVar[str] = "index"


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` and record where its value lives."""
    ins = [lowering.as_view(i) for i in node.inputs]
    lowering.storage[node] = out = lowering.new_buffer(node)
    lowering.kernels.append(IndexKernel(node.op, ins, out, node.attr("axis"), node.shape,
                                        lowering.locs.get(node)))
