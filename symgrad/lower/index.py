"""Index kernels: ``scatter_add``, ``argmax``, ``argmin`` (and a 0-d ``gather``), one
``IndexKernel`` per node; the checks of the indices that fused gathers read (``IndexCheck``).

Layer: lower. Input: such a node and the lowering in progress. Output: an ``IndexKernel``
appended to the lowering's kernels: its operands as dense views, a dense output buffer.
Codegen (``codegen.c.index``) writes loops that check every index against its bound.

A gather is a loop node (``lower.fusion``): the loop reads its source where the index points.
An index the loop computes is checked there (``IndexedView.checked``: the loop can fail). An
index in memory before the loop (an argument, a stored value) is checked by an
``IndexCheck`` first, once per element of the index (a broadcast index, one per row of the
gathered rows, once), and the loop reads at it unchecked: it cannot fail, so it vectorizes,
runs on threads and joins row loops like any other. ``hoist_checks`` moves each check up
past the loops before it, so that the loops it stood between are next to each other. Before,
such a gather was an index kernel copying its rows into an array of its own: GradBench's
bundle adjustment objective (two gathers per observation) 0.55-0.58 -> 0.34 ms at ba1,
4.4 -> 2.4 ms at ba5, one thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from ..dims import is_one, same
from ..ir.graph import Loc
from .loopir import ElementStmt, LoopKernel, ReadsInputsWritesOut, ScalarStmt, View
from .matmul import MatmulKernel

__all__ = ["IndexCheck", "IndexKernel", "lower"]


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


@dataclass(frozen=True)
class IndexCheck:
    """Fail (the status of an index kernel) unless every element ``index`` reaches is in
    ``0 <= j < bound``."""

    index: View
    bound: int
    loc: Loc | None = field(default=None, compare=False)   # (the same check from any line)
    family: ClassVar[str] = "index"

    def views(self) -> list:
        return [self.index]

    def with_views(self, f) -> IndexCheck:
        return replace(self, index=f(self.index))


def check_ahead(lowering, gather, at) -> IndexCheck | None:
    """The check of ``gather``'s index before its loop, when the loop loads the index from
    memory (``at``, its operand in the loop: a load) unpadded; None: the loop computes the
    index, and checks it."""
    if type(at) is not tuple:
        return None
    index = lowering.value(gather.inputs[1])
    if not isinstance(index, View) or index.window is not None:
        return None
    # (its elements once each: the dims that move, so that gathers at one index in several
    # shapes have one check)
    moving = [d for d, (n, st) in enumerate(zip(index.shape, index.strides))
              if not (same(st, 0) or is_one(n))]
    index = View(index.buffer, index.offset, tuple(index.shape[d] for d in moving),
                 tuple(index.strides[d] for d in moving))
    return IndexCheck(index, gather.inputs[0].shape[gather.attr("axis")],
                      lowering.locs.get(gather))


# Kernels a check moves up past at most (``hoist_checks``): the walk is linear in them, and
# the row loops it frees are a few kernels long.
HOIST_REACH = 64


def hoist_checks(kernels: list) -> list:
    """``kernels`` with each ``IndexCheck`` moved up past the kernels before it that neither
    write its index nor can fail (loops, products, statements: a guard, an index kernel, a
    checking loop or another check stays before it, whose status comes first: an error names
    the first bad index in the program's order), at most ``HOIST_REACH`` of them; a check of
    the same index and bound as one before it, with no writer of the index between, is
    dropped. The loops the checks were between are then next to each other again, and run
    together (``lower.rows``)."""
    result: list = []
    for k in kernels:
        if type(k) is not IndexCheck:
            result.append(k)
            continue
        at = _reach(result, k, checks_pass=False)
        if k not in result[_reach(result, k, checks_pass=True):]:
            result.insert(at, k)
    return result


def _reach(result: list, check: IndexCheck, checks_pass: bool) -> int:
    """How far up ``check`` may move at the end of ``result`` (past other checks too, with
    ``checks_pass``: where a check the same as it would make it unneeded)."""
    at = len(result)
    while at and len(result) - at < HOIST_REACH and (
            _passes(result[at - 1], check.index.buffer) or
            checks_pass and type(result[at - 1]) is IndexCheck):
        at -= 1
    return at


def _passes(k, buffer) -> bool:
    """Whether a check of an index in ``buffer`` may run before kernel ``k`` instead of after."""
    kind = type(k)
    if kind is ScalarStmt:
        return True
    if kind is LoopKernel:
        return not k.fails and all(s.out.buffer is not buffer for s in k.stores)
    if kind is MatmulKernel:
        return k.out.buffer is not buffer
    if kind is ElementStmt:
        return k.target.buffer is not buffer
    return False


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` and record where its value lives."""
    ins = [lowering.as_view(i) for i in node.inputs]
    lowering.storage[node] = out = lowering.new_buffer(node)
    lowering.kernels.append(IndexKernel(node.op, ins, out, node.attr("axis"), node.shape,
                                        lowering.locs.get(node)))
