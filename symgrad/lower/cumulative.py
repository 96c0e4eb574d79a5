"""Lowering of the cumulative ops (``ops.scan``): ``cumsum``, ``cumprod``, ``logcumsumexp``,
``linrec``, ``cumargmax`` and ``cumargmin``, one ``CumulativeKernel`` per node.

Layer: lower. Input: such a node and the lowering in progress. Output: a ``CumulativeKernel``
appended to the lowering's kernels: its operands as views (padded ones with their windows),
a dense output buffer.
Codegen (``codegen.c.cumulative``) writes one sequential loop along the axis. (Not the
``scan`` control-flow op: that is ``lower.control``.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..ir.graph import Loc
from .loopir import ReadsInputsWritesOut, View

__all__ = ["CumulativeKernel", "lower"]


@dataclass
class CumulativeKernel(ReadsInputsWritesOut):
    """One sequential loop along ``axis`` (from its end if ``reverse``) inside loops over the
    other dims."""

    kind: str
    inputs: list                # Views (linrec: coefficients, then values)
    out: View
    axis: int
    shape: tuple                # the result's (= the inputs')
    reverse: bool = False
    loc: Loc | None = None
    family: ClassVar[str] = "cumulative"


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` and record where its value lives."""
    ins = [_operand(lowering, i) for i in node.inputs]
    lowering.storage[node] = out = lowering.new_buffer(node)
    lowering.kernels.append(CumulativeKernel(node.op, ins, out, node.attr("axis"), node.shape,
                                             bool(node.attr("reverse", False)),
                                             lowering.locs.get(node)))


def _operand(lowering, node) -> View:
    """An operand as a view; a padded one (a window and its fill) as it is, read so by the
    scan's loop: ``vander``'s ``cat([ones, t, t, ...])`` is not written before its cumprod."""
    s = lowering.value(node)
    if isinstance(s, View) and s.window is not None:
        return s
    return lowering.as_view(node)
