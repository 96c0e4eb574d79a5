"""The C of a reduction's step, identity and SIMD clauses, per op and dtype.

Layer: codegen (a helper of ``loops``). Input: a reduction op ("sum", "prod", "max", "min")
and the dtype it accumulates in. Output: C text: the step ``a = <step>`` (placeholders
``{a}``, ``{v}``), the identity it starts from, the ``omp simd`` reduction clauses.
"""

from __future__ import annotations

from ...dtypes import DType, int64
from .literals import c_literal

_REDUCE = {
    "sum": "{a} + {v}",
    "prod": "{a} * {v}",
    # NaN propagates (torch): once the accumulator is NaN it stays (the first NaN, whose sign
    # the value at argmin's index has); a NaN value replaces it: !(v >= a) is v < a or either
    # is NaN, one comparison where (v < a || v != v) took two (k-means' min over 10^7
    # distances: 1.1 of 8 ms). `&`, not `&&`: gcc vectorized the short circuit 3x slower.
    "max": "((({a}) == ({a})) & !(({v}) <= ({a}))) ? ({v}) : ({a})",
    "min": "((({a}) == ({a})) & !(({v}) >= ({a}))) ? ({v}) : ({a})",
}

# max and min in SIMD lanes (``omp simd reduction(max:acc)``): the plain compare, which gcc
# vectorizes (the NaN-aware step above is a loop-carried select it does not); a float one
# keeps its NaNs apart in a sum (``acc_nan += v != v ? v : 0``: 0 until a NaN arrives, NaN
# after), which replaces the result when it is NaN. 160,000 doubles: 92 -> 19 us.
LANE_STEP = {"max": "(({v}) > ({a})) ? ({v}) : ({a})",
              "min": "(({v}) < ({a})) ? ({v}) : ({a})"}

# Integer reductions: no NaN to propagate (and `v != v` on an integer is a self-comparison
# that gcc -Wall flags).
_REDUCE_INT = {
    "sum": "{a} + {v}",
    "prod": "{a} * {v}",
    "max": "(({v}) > ({a})) ? ({v}) : ({a})",
    "min": "(({v}) < ({a})) ? ({v}) : ({a})",
}


def combine(op: str, dtype: DType, unsigned: bool = False) -> str:
    """The step ``a = <this>`` of reduction ``op`` accumulating in ``dtype`` (placeholders
    ``{a}``, ``{v}``). An int64 sum or product wraps modulo 2**64 like NumPy's instead of
    overflowing (undefined behaviour for signed types in C): in a ``uint64_t`` accumulator
    (``unsigned``), or converted to uint64_t and back when it accumulates in the int64
    output itself."""
    if dtype.is_differentiable:   # floating and complex
        return _REDUCE[op]
    if op in ("sum", "prod") and dtype is int64:
        step = f"{{a}} {'+' if op == 'sum' else '*'} (uint64_t){{v}}"
        return step if unsigned else f"(int64_t)((uint64_t){step})"
    return _REDUCE_INT[op]


def lane_clause(acc) -> str:
    """The ``reduction`` clauses of one accumulator in SIMD lanes."""
    if acc.op == "sum":
        return f" reduction(+:{acc.name})"
    nan = f" reduction(+:{acc.name}_nan)" if acc.floating else ""
    return f" reduction({acc.op}:{acc.name}){nan}"


def identity(op: str, dtype: DType) -> str:
    if dtype.is_complex:
        return c_literal(0.0 if op == "sum" else 1.0, dtype)
    if dtype.is_floating:
        return {"sum": c_literal(0.0, dtype), "prod": c_literal(1.0, dtype),
                "max": "-INFINITY", "min": "INFINITY"}[op]
    if dtype is int64:
        return {"sum": "0", "prod": "1", "max": "INT64_MIN", "min": "INT64_MAX"}[op]
    return {"sum": "0", "prod": "1", "max": "0", "min": "1"}[op]
