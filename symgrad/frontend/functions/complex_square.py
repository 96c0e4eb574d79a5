"""torch.square of a complex tensor: z * z with torch's ``pow(z, 2)`` backward,
``g * conj(2 * z^1)``, where 2 is the complex number 2 + 0i, so that its product with an
infinite part is NaN in the other part (0 * inf); written out part by part, so compiled code
does the same.

Layer: front end (torch-named functions; below ``basic``, which it serves). Input: a complex
tensor. Output: its square, with ``PowBackward0``.
"""

from __future__ import annotations

from ..core import grad_mode
from ..core.apply import apply, attach_function
from ..core.tensor import Tensor


def complex_square(z: Tensor) -> Tensor:
    """z * z with torch's backward (see the module)."""
    def rule(g, out, ins):
        re, im = apply("real", ins[0]), apply("imag", ins[0])
        twice = apply("complex", re * 2.0 - im * 0.0, im * 2.0 + re * 0.0)
        return (g * apply("conj", twice),)
    with grad_mode.no_grad():
        out = apply("mul", z, z)
    return attach_function(out, "PowBackward0", rule, [z], True, False, False, None)
