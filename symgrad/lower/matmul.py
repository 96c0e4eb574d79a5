"""Lowering of ``matmul`` (``ops.linalg``): one ``MatmulKernel`` per node.

Layer: lower. Input: a ``matmul`` node and the lowering in progress. Output: a ``MatmulKernel``
appended to the lowering's kernels: the two operands as views (a transposed operand is read in
place when the backend's matrix product takes it, ``Capabilities.gemm_operand``; else copied),
a dense output buffer. Codegen (``codegen.c.matmul``) writes BLAS or a loop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..ir.graph import Loc
from .loopir import View

__all__ = ["MatmulKernel", "lower"]


@dataclass
class MatmulKernel:
    """``out = a @ b`` over the leading (batch) dims of ``out``."""

    a: View
    b: View
    out: View
    loc: Loc | None = None
    family: ClassVar[str] = "matmul"

    def views(self) -> list:
        return [self.a, self.b, self.out]

    def with_views(self, f) -> MatmulKernel:
        return replace(self, a=f(self.a), b=f(self.b), out=f(self.out))


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` and record where its value lives."""
    a, b = (_gemm_operand(lowering, i) for i in node.inputs)
    lowering.storage[node] = out = lowering.new_buffer(node)
    lowering.kernels.append(MatmulKernel(a, b, out, lowering.locs.get(node)))


def _gemm_operand(lowering, node) -> View:
    """The operand as a view, read in place if the backend takes its strides, else a copy."""
    v = lowering.as_view(node)
    if lowering.capabilities.gemm_operand(v.shape[-2], v.shape[-1], v.strides[-2],
                                          v.strides[-1]):
        return v
    return lowering.copy_dense(node, v)
