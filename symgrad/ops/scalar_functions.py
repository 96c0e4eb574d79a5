"""SymPy functions for the C99 calls SymPy has no class for, and for symgrad's own C helpers:
rint (round half to even), trunc, fmod, copysign, nextafter, floor division and remainder.

Layer: ops. Imports SymPy: only elementwise ops' expressions use these (built on demand, see
``registry``), and the C printer maps each class to its C name. Input: SymPy expressions.
Output: function applications SymPy keeps as they are: ``eval`` never rewrites them, so no
simplification changes what the C computes. They evaluate numerically (``evalf``) with
Python's own arithmetic, the same IEEE operations as the C, and differentiate where a
derivative exists (zero for the step functions, as torch's gradients).
"""

from __future__ import annotations

import math
from typing import ClassVar
from collections.abc import Callable

import sympy
from sympy.codegen import cfunctions

__all__ = ["BitAnd", "BitNot", "BitOr", "BitXor", "Copysign", "FloorDiv", "Fmod", "IsInf",
           "Nextafter", "Remainder", "Rint", "Trunc", "TruncDiv", "floor_divide", "remainder"]


def floor_divide(a: float, b: float) -> float:
    """torch's floor division of two floats (through fmod, as the C helper)."""
    if b == 0:
        return math.copysign(math.inf, a) * math.copysign(1.0, b) if a and a == a else math.nan
    mod = math.fmod(a, b)
    div = (a - mod) / b
    if mod and (b < 0) != (mod < 0):
        div -= 1.0
    if div == 0:
        return math.copysign(0.0, a / b)
    result = math.floor(div)
    return result + 1.0 if div - result > 0.5 else float(result)


def remainder(a: float, b: float) -> float:
    """torch's remainder of two floats: the sign of the divisor."""
    mod = math.fmod(a, b) if b and math.isfinite(a) else math.nan
    return mod + b if mod and (b < 0) != (mod < 0) else mod


class _CFunction(sympy.Function):
    """A real function SymPy leaves alone, evaluated numerically by ``numeric``."""

    numeric: ClassVar[Callable[..., float]]

    @classmethod
    def eval(cls, *args):
        return None

    def _eval_evalf(self, prec):
        values = [a.evalf(prec) for a in self.args]
        if all(v.is_Number for v in values):
            return sympy.Float(type(self).numeric(*map(float, values)), prec)
        return None


class Rint(_CFunction):
    """Round half to even (C's nearbyint, NumPy's rint, torch's round)."""
    nargs = 1
    numeric = staticmethod(lambda x: float(round(x)) if math.isfinite(x) else x)

    def fdiff(self, argindex=1):
        return sympy.Integer(0)


class Trunc(_CFunction):
    nargs = 1
    numeric = staticmethod(lambda x: float(math.trunc(x)) if math.isfinite(x) else x)

    def fdiff(self, argindex=1):
        return sympy.Integer(0)


class Fmod(_CFunction):
    """C's fmod: the sign of the dividend."""
    nargs = 2
    numeric = staticmethod(math.fmod)

    def fdiff(self, argindex=1):
        x, y = self.args
        return sympy.Integer(1) if argindex == 1 else -Trunc(x / y)


class TruncDiv(_CFunction):
    """x / y rounded toward zero (torch.div's rounding_mode="trunc")."""
    nargs = 2
    numeric = staticmethod(lambda a, b: float(math.trunc(a / b)))

    def fdiff(self, argindex=1):
        return sympy.Integer(0)


class FloorDiv(_CFunction):
    nargs = 2
    numeric = staticmethod(floor_divide)

    def fdiff(self, argindex=1):
        return sympy.Integer(0)


class Remainder(_CFunction):
    """torch's remainder: the sign of the divisor."""
    nargs = 2
    numeric = staticmethod(remainder)

    def fdiff(self, argindex=1):
        x, y = self.args
        return sympy.Integer(1) if argindex == 1 else -FloorDiv(x, y)


class Copysign(_CFunction):
    nargs = 2
    numeric = staticmethod(math.copysign)

    def fdiff(self, argindex=1):
        x, y = self.args
        one = sympy.Integer(1)
        return Copysign(one, x) * Copysign(one, y) if argindex == 1 else sympy.Integer(0)


class Nextafter(_CFunction):
    """C's nextafter; its derivative in x is taken as 1 (torch's), in y as 0."""
    nargs = 2
    numeric = staticmethod(math.nextafter)

    def fdiff(self, argindex=1):
        return sympy.Integer(1 if argindex == 1 else 0)


class _Bitwise(_CFunction):
    """Bitwise logic of integers (bools as 0 and 1): C's ``& | ^ ~``, no derivative."""

    def fdiff(self, argindex=1):
        return sympy.Integer(0)


class BitAnd(_Bitwise):
    nargs = 2
    numeric = staticmethod(lambda a, b: float(int(a) & int(b)))


class BitOr(_Bitwise):
    nargs = 2
    numeric = staticmethod(lambda a, b: float(int(a) | int(b)))


class BitXor(_Bitwise):
    nargs = 2
    numeric = staticmethod(lambda a, b: float(int(a) ^ int(b)))


class BitNot(_Bitwise):
    """``~x`` of an integer; of a bool, its negation."""
    nargs = 1
    numeric = staticmethod(lambda a: float(~int(a)))


class IsInf(cfunctions.isinf):
    """C's isinf, kept even of a real symbol (SymPy's real symbols are finite, so its own
    isinf of one is False at once: a test for an infinite operand would vanish)."""

    @classmethod
    def eval(cls, arg):
        return None

    def _eval_evalf(self, prec):
        value = self.args[0].evalf(prec)
        return sympy.true if value.is_infinite else (sympy.false if value.is_Number else None)
