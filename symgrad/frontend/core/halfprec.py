"""float16 the way torch's CPU kernels compute it, and the operands its autograd nodes save.

Layer: front end (core), below ``apply``. Input: an op's operand values, or the arguments of
an op application and the operands promotion made of them. Output: the values to compute on
(``widened_values``: float16 as float32, which ``apply`` rounds back once) and the operands a
backward node saves (``as_given``).

torch's kernels compute float16 in float32 (their "opmath" type) and round each result once,
elementwise ops and reductions alike (a float16 sum accumulates in float32); an op's NumPy
reference written as several NumPy steps would round after each step. ``IN_OWN_DTYPE`` names
the ops defined on the float16 representation itself (``nextafter``: the next float16), which
compute in their own dtype. torch's derivative formulas run on the operands as given, each in
its own dtype, one op at a time in the pair's promoted dtype: ``atan2(x16, y32)``'s gradient
reads ``x * x`` rounded to float16; the engine casts each cotangent to its input's dtype.
"""

from __future__ import annotations

import numpy as np

from . import sources
from .tensor import Tensor

IN_OWN_DTYPE = frozenset(("nextafter",))
# Ops of no computing kind (``apply._COMPUTING``) whose float16 kernels accumulate in float32
# too: the scans (each output rounded once from the float32 running value).
SCANS = frozenset(("cumsum", "cumprod"))


def widened_values(values: list) -> list:
    """The float16 arrays among ``values`` as float32 arrays (the others as they are)."""
    return [v.astype(np.float32) if v.dtype == np.float16 else v for v in values]


# The backward functions whose torch formulas give a real operand of a complex result a complex
# gradient (no ``handle_r_to_c``), which torch's engine refuses (``validate_outputs``): their
# nodes save a real operand promoted to complex as given, so that the engine sees the complex
# cotangent meet the real operand and raises torch's error. (Every other function's real
# operand receives the real part, as torch's formulas take it.)
KEEP_COMPLEX = frozenset(("LogaddexpBackward0", "LdexpBackward0", "WhereBackward0"))
REAL_INPUT_COMPLEX_GRAD = (
    "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to "
    "be true, but got false.  (Could this error message be improved?  If so, please report an "
    "enhancement request to PyTorch.)")


def as_given(args: tuple, inputs: list[Tensor], complex_too: bool = False) -> list[Tensor]:
    """The operands an op's node saves: ``inputs`` (what promotion made of ``args``), except
    that a floating tensor cast to the promoted dtype is saved as given, in its own dtype (in
    a loop body being traced, read through the body's inputs as ``apply`` reads operands);
    ``complex_too``: one cast to a complex dtype as well (``KEEP_COMPLEX``)."""
    given = None
    for i, a in enumerate(args):
        if isinstance(a, Tensor) and a is not inputs[i] and a.dtype.is_floating \
                and (inputs[i].dtype.is_floating or complex_too and inputs[i].dtype.is_complex):
            if given is None:
                given = list(inputs)
            given[i] = a
    if given is None:
        return inputs
    rec = sources.current()
    body = None if rec is None else rec.body
    return given if body is None else body.lift(given)
