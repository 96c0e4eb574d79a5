"""Lowering of ``matmul`` (``ops.linalg``): one ``MatmulKernel`` per node.

Layer: lower. Input: a ``matmul`` node and the lowering in progress. Output: a ``MatmulKernel``
appended to the lowering's kernels: the two operands as views (a transposed operand is read in
place when the backend's matrix product takes it, ``Capabilities.gemm_operand``; else copied),
an output buffer: dense, or laid out as the one permute that reads it (an einsum's
``jab,ijb->ija`` is the product (j, a, i) read as (i, j, a): stored that way, its reader walks
it in order instead of 8 KB apart; measured on GradBench's GMM at d=64). Codegen
(``codegen.c.matmul``) writes BLAS (a transposed output as the transposed product) or a loop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..ir.graph import Loc
from .loopir import View, contiguous_strides

__all__ = ["MatmulKernel", "lower"]


@dataclass
class MatmulKernel:
    """``out = a @ b`` over the leading (batch) dims of ``out``."""

    a: View
    b: View
    out: View
    loc: Loc | None = None
    # "lower" / "upper": every matrix of that operand is zero above / below its diagonal
    # (``ir.zeros``), so codegen may multiply its triangle only (TRMM); None: not known
    triangle_a: str | None = None
    triangle_b: str | None = None
    # the same of the output's elements its readers use (``ir.reads``): the other triangle
    # may be left zero (GEMMT)
    triangle_out: str | None = None
    family: ClassVar[str] = "matmul"

    def views(self) -> list:
        return [self.a, self.b, self.out]

    def with_views(self, f) -> MatmulKernel:
        return replace(self, a=f(self.a), b=f(self.b), out=f(self.out))


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` and record where its value lives."""
    a, b = (_gemm_operand(lowering, i) for i in node.inputs)
    out = _in_readers_layout(lowering, node) or lowering.new_buffer(node)
    lowering.storage[node] = out
    tri_a, tri_b = (lowering.zeros.triangle(i) for i in node.inputs)
    lowering.kernels.append(MatmulKernel(a, b, out, lowering.locs.get(node), tri_a, tri_b,
                                         lowering.used.triangle(node)))


def _in_readers_layout(lowering, node) -> View | None:
    """The product's buffer laid out as the permute of it that is its only reader (a
    temporary; None where it is an output, a cat's window, or no such permute, or where the
    matrix product could not write that layout)."""
    users = set(lowering.users.get(node, ()))
    if len(users) != 1 or node in lowering.outputs or node in lowering.placed or \
            node in lowering.written_by:
        return None
    (p,) = users
    perm = p.attr("perm") if p.op == "permute" else None
    if perm is None or tuple(perm[-2:]) == (node.ndim - 2, node.ndim - 1):
        return None
    dense = contiguous_strides(p.shape)
    strides = [0] * node.ndim
    for k, d in enumerate(perm):
        strides[d] = dense[k]
    if not lowering.capabilities.gemm_operand(node.shape[-2], node.shape[-1], strides[-2],
                                              strides[-1]):
        return None
    return View(lowering.temp(node), 0, tuple(node.shape), tuple(strides))


def _gemm_operand(lowering, node) -> View:
    """The operand as a view, read in place if the backend takes its strides, else a copy."""
    v = lowering.as_view(node)
    if lowering.capabilities.gemm_operand(v.shape[-2], v.shape[-1], v.strides[-2],
                                          v.strides[-1]):
        return v
    return lowering.copy_dense(node, v)
