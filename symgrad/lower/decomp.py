"""Lowering of the matrix decompositions (``ops.decomp``): one ``DecompKernel`` per node.

Layer: lower. Input: a node of ``solve``, ``slogdet``, ``det``, ``cholesky``,
``triangular_solve``, ``eigh``, ``qr`` or ``factor_info`` and the lowering in progress (its
views, buffers and kernel list). Output: a ``DecompKernel`` appended to the lowering's kernels:
the operands as views (strided ones read in place: a transposed A is a permuted view, no copy),
a dense output buffer, and the scratch the algorithm works in (an LU factor, a Jacobi iterate,
Householder vectors), as temporaries of the workspace that live for this kernel only, reused
from one batch element to the next.
Codegen (``codegen.c.decomp``) writes the C.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..ir.graph import Loc
from .loopir import Buffer, ReadsInputsWritesOut, View

__all__ = ["DecompKernel", "lower"]


@dataclass
class DecompKernel(ReadsInputsWritesOut):
    """One decomposition over a batch of matrices. ``inputs`` lists the operands, then the
    scratch buffers (so that the buffer plan places them like any input of a kernel)."""

    kind: str
    inputs: list                # Views: ``operands`` operands, then dense scratch
    out: View                   # dense
    attrs: tuple                # the node's attributes, (name, value) pairs
    operands: int
    loc: Loc | None = None
    family: ClassVar[str] = "decomp"

    @property
    def scratch(self) -> list:
        return self.inputs[self.operands:]

    def attr(self, name: str, default=None):
        return dict(self.attrs).get(name, default)


def scratch_sizes(kind: str, shape: tuple) -> list[int]:
    """Elements of each scratch buffer of ``kind`` for operand 0 of ``shape``."""
    m, n = shape[-2:]
    if kind in ("solve", "slogdet", "det", "eigh", "factor_info"):
        return [n * n]
    if kind == "qr":
        return [m * n, min(m, n)]
    return []


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` (a ``lowering._Lowering``) and record where
    its value lives."""
    ins = [lowering.as_view(i) for i in node.inputs]
    out = lowering.new_buffer(node)
    lowering.storage[node] = out
    scratch = []
    for size in scratch_sizes(node.op, node.inputs[0].shape):
        buf = Buffer("temp", lowering.n_temps, node.inputs[0].dtype, size)
        lowering.n_temps += 1
        scratch.append(View.dense(buf, (size,)))
    attrs = tuple(sorted(node.a.items()))
    lowering.kernels.append(DecompKernel(node.op, ins + scratch, out, attrs, len(ins),
                                         lowering.locs.get(node)))
