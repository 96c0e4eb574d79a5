"""Integer arithmetic in C as NumPy does it: int64 that wraps modulo 2**64.

Layer: codegen (a helper of ``cprinter``; imports SymPy). C's signed overflow is undefined
behaviour (gcc folds ``x + c < x`` to false), so an int64 sum, product or power is printed in
``uint64_t`` and converted back: ``(int64_t)((uint64_t)x + UINT64_C(1))``. The conversion
back is implementation-defined, and modular in gcc and clang.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from sympy.core.basic import Basic

from ...dtypes import int64
from .literals import int_literal

# Largest n for which x**n is multiplied out in integer code (which has no pow at all).
MAX_INT_POW_EXPANSION = 64


def exact_fraction(value: sympy.Float) -> Fraction:
    """The exact binary value a SymPy Float holds."""
    sign, man, exp, _bc = value._mpf_
    if man == 0 and exp != 0:  # mpmath's encodings of inf and nan, in case one slips in
        raise ValueError(f"non-finite Float {value!r}")
    frac = Fraction(man) * Fraction(2) ** exp
    return -frac if sign else frac


def integral_value(expr: Basic) -> int | None:
    """The integer a SymPy number equals exactly (Integer or integral Float), else None."""
    if isinstance(expr, sympy.Integer):
        return int(expr)
    if isinstance(expr, sympy.Float) and expr.is_finite:
        frac = exact_fraction(expr)
        if frac.denominator == 1:
            return frac.numerator
    return None


def negated(operand: str) -> str:
    """``-operand`` (unsigned negation: modulo 2**64), never the ``--`` token."""
    return f"-({operand})" if operand.startswith("-") else f"-{operand}"


def wrapping(printer, expr: Basic) -> str:
    """An int64 sum, product or power computed in ``uint64_t`` and converted back: it
    wraps modulo 2**64 like NumPy's int64, where signed overflow would be undefined
    behaviour in C (gcc folds ``x + c < x`` to false). The conversion back is
    implementation-defined, and modular in gcc and clang."""
    for constant in sorted(expr.atoms(sympy.Integer)):
        int_literal(int(constant), int64)   # OverflowError outside the int64 range
    return f"(int64_t)({unsigned(printer, expr)})"

def unsigned(printer, expr: Basic) -> str:
    """``expr`` as ``uint64_t`` arithmetic: sums, products, powers and constants stay
    unsigned, any other value is converted. The text can stand next to ``+``, ``-`` and
    ``*`` (modular arithmetic does not care how a product groups; a sum inside a product
    is parenthesised)."""
    if isinstance(expr, sympy.Add):
        text = ""
        for term in printer._as_ordered_terms(expr, order=None):
            negative = term.could_extract_minus_sign()
            operand = _factor(printer, -term if negative else term)
            if not text:
                text = negated(operand) if negative else operand
            else:
                text += f" - {operand}" if negative else f" + {operand}"
        return text
    if isinstance(expr, sympy.Mul):
        if expr.could_extract_minus_sign():
            return negated(_factor(printer, -expr))
        return "*".join(_factor(printer, f) for f in expr.as_ordered_factors())
    n = integral_value(expr.exp) if isinstance(expr, sympy.Pow) else None
    if n is not None and 0 <= n <= MAX_INT_POW_EXPANSION:
        base = unsigned(printer, expr.base)
        if isinstance(expr.base, (sympy.Add, sympy.Mul)):
            base = f"({base})"
        return "*".join([base] * n) if n else "UINT64_C(1)"
    if isinstance(expr, sympy.Integer):
        value = int(expr)   # in range (checked by wrapping), or a negated INT64_MIN
        return negated(f"UINT64_C({-value})") if value < 0 else f"UINT64_C({value})"
    # Anything else (a name, Max, Piecewise...; or a Rational or negative power, which
    # the signed printer rejects) is printed signed and converted.
    return f"(uint64_t){printer.operand(expr)}"

def _factor(printer, expr: Basic) -> str:
    """``_unsigned(expr)`` that can stand next to ``*`` or unary ``-``."""
    text = unsigned(printer, expr)
    return f"({text})" if isinstance(expr, sympy.Add) else text
