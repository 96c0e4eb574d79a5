"""Lowering of ``matmul`` (``ops.linalg``): one ``MatmulKernel`` per node.

Layer: lower. Input: a ``matmul`` node and the lowering in progress. Output: a ``MatmulKernel``
appended to the lowering's kernels: the two operands as views (a transposed operand is read in
place when GEMM can take it: a unit stride along one matrix dim and a valid leading dim; else
copied), a dense output buffer. Codegen (``codegen.matmul``) writes BLAS or a loop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..dims import is_one
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
    """BLAS needs a unit stride along one of the two matrix dims, and a valid leading dim."""
    v = lowering.as_view(node)
    rows, cols = v.shape[-2], v.shape[-1]
    sr, sc = v.strides[-2], v.strides[-1]
    if (is_one(sc) or is_one(cols)) and sr >= max(cols, 1):
        return v
    if (is_one(sr) or is_one(rows)) and sc >= max(rows, 1):
        return v
    return lowering.copy_dense(node, v)
