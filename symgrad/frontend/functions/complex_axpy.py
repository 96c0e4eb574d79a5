"""torch's complex ``add(x, y, alpha=a)`` and ``sub``: x + a * y as its CPU kernel computes
it (sub: a -> -a), the product a * y by c10's formula, then a sum part by part.

Layer: front end (torch-named functions; below ``basic``, which it serves). Input: two
tensors with a complex result and a Python number ``alpha``. Output: the value (``basic``
gives it its AddBackward0/SubBackward0 node). With alpha = 1 (``+``, ``-``), the ``add``/``sub``
ops compute the same formula themselves (``ops.elementwise.torch_complex_axpy``); here the
scaled product is a ``mul`` (NumPy's formula is c10's) and the sum a real one per part, so
compiled code does the same.
"""

from __future__ import annotations

from ... import dtypes
from ..core.apply import apply
from ..core.tensor import Tensor
from .opmath import mul


def scaled_sum(alpha) -> callable:
    """The body x, y -> x + alpha * y of a complex result, torch's way."""
    def body(x: Tensor, y: Tensor) -> Tensor:
        dt = dtypes.promote_types(x.dtype, y.dtype)
        x, y = (t if t.dtype is dt else apply("cast", t, dtype=dt) for t in (x, y))
        product = mul(y, alpha)
        return apply("complex", apply("add", apply("real", x), apply("real", product)),
                     apply("add", apply("imag", x), apply("imag", product)))
    return body
