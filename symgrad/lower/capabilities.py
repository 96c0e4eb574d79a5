"""What a backend's kernels take as they are: the choices lowering asks the backend about.

Layer: lower. The backend (``codegen.backend.Backend.capabilities``) supplies one
``Capabilities``; ``lower(graph, capabilities)`` asks it where the loop IR could either read
an operand in place or copy it first, and copies what the backend does not take. The C
backend's answers are in ``codegen.c.matmul`` (what BLAS accepts).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable


@dataclass(frozen=True)
class Capabilities:
    # gemm_operand(rows, cols, row stride, col stride): whether a matrix product reads an
    # operand with these strides (elements) in place; False: a dense copy is made first.
    gemm_operand: Callable[[object, object, object, object], bool]
