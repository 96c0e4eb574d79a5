"""Lowering of the Fourier transforms (``ops.fft``): one ``FftKernel`` per ``fft_c2c``,
``fft_r2c`` or ``fft_c2r`` node.

Layer: lower. Input: such a node and the lowering in progress. Output: an ``FftKernel``
appended to the lowering's kernels: the operand as a view (read in place, whatever its
strides), a dense output buffer, and one complex128 scratch buffer of the workspace, alive for
this kernel only: the whole signal in double precision (the transforms run in place in it,
one axis after the other), then the largest scratch one axis's transform needs
(``scratch_points``, the C helper's ``sgm_fft_scratch``), and for ``fft_c2r`` the real result
before it is scaled. Codegen (``codegen.c.fft``) writes the C. Every transformed size must be
known when compiling (a shape-generic size there is refused with a clear error).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from ..dtypes import complex128
from ..ir.graph import Loc
from .loopir import Buffer, ReadsInputsWritesOut, View

__all__ = ["FftKernel", "lower", "scratch_points", "pow2_at_least"]


@dataclass
class FftKernel(ReadsInputsWritesOut):
    """``kind`` (the op) of ``inputs[0]`` over ``axes`` into ``out``; ``inputs[1]`` is the
    scratch. ``attrs``: the op's other attributes (norm, forward, onesided, last_dim_size)."""

    kind: str
    inputs: list                # Views: the operand, then the complex128 scratch
    out: View
    axes: tuple
    attrs: dict
    loc: Loc | None = None
    family: ClassVar[str] = "fft"

    @property
    def scratch(self) -> View:
        return self.inputs[1]


def pow2_at_least(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def scratch_points(n: int) -> int:
    """The scratch (double complex values) one transform of length ``n`` takes: twiddles,
    and for a length that is no power of two Bluestein's chirp, its filter and a line."""
    m = n if pow2_at_least(n) == n else pow2_at_least(2 * n - 1)
    return m // 2 + 1 + n + 2 * m


def _sizes(node) -> tuple:
    shapes = [tuple(node.inputs[0].shape), tuple(node.shape)]
    for shape in shapes:
        if not all(isinstance(s, int) for s in shape):
            raise NotImplementedError(
                f"symgrad compiles {node.op} only for sizes known when compiling, got shape "
                f"{shape}: mark the function static in these sizes, or run it eagerly")
    return shapes


def lower(lowering, node) -> None:
    """Append ``node``'s kernel to ``lowering`` and record where its value lives."""
    in_shape, out_shape = _sizes(node)
    axes = tuple(node.attr("axes"))
    lengths = [in_shape[a] for a in axes]
    if node.op == "fft_c2r":
        lengths[-1] = out_shape[axes[-1]]
    size = math.prod(in_shape) + max([scratch_points(n) for n in lengths] or [0])
    if node.op == "fft_c2r":
        size += math.prod(out_shape)
    operand = lowering.as_view(node.inputs[0])
    lowering.storage[node] = out = lowering.new_buffer(node)
    buf = Buffer("temp", lowering.n_temps, complex128, size)
    lowering.n_temps += 1
    attrs = {k: node.attr(k) for k in ("norm", "forward", "onesided", "last_dim_size")
             if node.attr(k) is not None}
    lowering.kernels.append(FftKernel(node.op, [operand, View.dense(buf, (size,))], out, axes,
                                      attrs, lowering.locs.get(node)))
