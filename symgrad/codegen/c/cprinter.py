"""C99 text for the SymPy scalar expressions that define symgrad's elementwise ops.

Layer: codegen (imports SymPy: only code generation of an op missing from the printed table
``optable.py``, its regeneration, and tests use it). Input: a SymPy expression in scalar
symbols, the dtype the op computes in (``dtypes.DType``: float32, float64, int64 or bool; the
printer decides on its kind, signedness and width, and prints its C name) and a map from each
symbol to the C text that reads it (``x`` -> ``in0[i]``).
Output: one C99 expression as a string. It does not simplify, rewrite (``log(1 + x)`` stays
``log``, it is not turned into ``log1p``), hoist common subexpressions or declare anything: it
prints exactly the tree it is given, or raises.

Decisions a caller can rely on:

* ``float`` output is float all the way down: libm calls carry the ``f`` suffix
  (``expf``, ``fmaxf``, ``powf``) and every floating constant is an ``F`` literal, so no
  subexpression is silently evaluated in double (the tests compile it with
  ``-Wdouble-promotion -Werror``). ``double`` output uses plain libm names and unsuffixed
  literals.
* Every numeric constant (integers, rationals, ``Float``, ``pi``, ``E``, other number
  symbols) becomes ONE literal, correctly rounded in the target type (see ``literals``:
  ``Rational(1, 3)`` -> ``0.33333334F``); ``oo``/``nan`` print as ``INFINITY``/``NAN``,
  ``(double)INFINITY`` in double code; ``M_PI`` and friends are never used (not C99).
  SymPy ``Float`` cannot hold -0.0: spell it ``Mul(-1, Float(0), evaluate=False)``.
* Powers: ``x**n`` for integer ``n`` with ``1 < |n| <= 4`` is expanded into
  multiplications, ``(x*x)``, ``(x*x*x)``, ``(1.0F/(x*x))``; ``x**-1`` is ``(1.0F/x)``;
  ``x**(1/2)`` is ``sqrtf(x)`` and ``x**(-1/2)`` is ``(1.0F/sqrtf(x))`` (an exponent
  given as an integral or one-half ``Float`` counts the same); everything else is
  ``powf``. The base text is repeated in an expansion, so an expensive base should have
  been hoisted into its own variable by an earlier stage. ``x**(1/3)`` is ``powf``, not
  ``cbrtf``: the two disagree for negative ``x``.
* ``Max``/``Min`` are ``fmax``/``fmin`` (nested for more than two arguments), so like C
  they return the other argument when one is NaN. ``sign(x)`` is
  ``((x > 0) ? 1 : ((x < 0) ? -1 : x))``: -1, 1, and ``x`` itself for zeros and NaN, so
  ``sign(0) == 0`` (``-0.0`` for ``-0.0``) and ``sign(NaN)`` is NaN. ``Heaviside`` and
  any function this module does not list raise ``TypeError``.
* Integer and bool dtypes (a bool is stored as the byte ``uint8_t``) get integer
  arithmetic only: ``+``, ``-``, ``*``, non-negative integer powers (multiplied out, up
  to 64), ``Abs``/``Max``/``Min``/``sign`` as ternaries, floor ``Mod`` (SymPy's, not C's
  truncating ``%``), comparisons, logic and ``Piecewise``. Division, non-integer
  constants and float functions raise ``TypeError``. ``Abs``/``sign`` of a bare
  unsigned symbol skip the ``< 0`` test (gcc's -Wtype-limits flags it); other
  always-true/false comparisons of unsigned values are left to earlier simplification.
  int64 sums, products and powers wrap modulo 2**64 as NumPy's do (``intc``);
  ``Abs`` negates the same way.
  ``Mod`` (which no op uses) is not made safe: ``x % 0`` and ``INT64_MIN % -1`` trap.
  bool arithmetic at the top of an expression is compared with zero, so a bool
  result is always the byte 0 or 1 (``True + True`` is ``True``).
* Comparisons yield C ``int`` 0/1. ``dtype`` is the type the operands are computed in.
* Output is deterministic. The returned text is a complete expression but may be a
  binary operation at the top: parenthesise it before embedding it in a larger one.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, ClassVar

import sympy
from sympy.codegen import cfunctions
from sympy.core.basic import Basic
from sympy.core.relational import Relational
from sympy.logic.boolalg import Boolean, BooleanFunction
from sympy.printing.c import C99CodePrinter
from sympy.printing.precedence import PRECEDENCE, precedence

from . import intc
from .cnames import FLOAT_FUNCTIONS, INT_FUNCTIONS
from ...dtypes import DType, int64
from .literals import (FLOAT_FORMATS, BinaryFormat, c_literal, check_dtype, float_literal,
                       int_literal)

__all__ = ["c_expr", "c_literal", "print_c"]


# ---------------------------------------------------------------------------------------
# The printer
# ---------------------------------------------------------------------------------------

# Boolean functions that print as a C call, hence need no parentheses around them.
_BOOLEAN_CALLS: tuple[type, ...] = (cfunctions.isnan, cfunctions.isinf)

# Largest |n| for which x**n is written as repeated multiplication in float code (integer code
# has no pow at all: intc.MAX_INT_POW_EXPANSION).
_MAX_FLOAT_POW_EXPANSION = 4

# A C identifier optionally followed by subscripts: safe as an operand without parens.
_SIMPLE_OPERAND = re.compile(r"[A-Za-z_]\w*(?:\[[^\[\]]*\])*\Z")


def _exact_number(expr: Basic) -> Fraction | None:
    """Exact rational value of a Rational or finite Float, else None."""
    if isinstance(expr, sympy.Rational):
        return Fraction(int(expr.p), int(expr.q))
    if isinstance(expr, sympy.Float) and expr.is_finite:
        return intc.exact_fraction(expr)
    return None


class _SymgradCPrinter(C99CodePrinter):
    """C99 printer for one dtype and one symbol -> C text map.

    Dispatch is restricted to the ``_print_*`` methods defined in this class (see
    ``_print``): the inherited SymPy printers fall back to Python syntax or double-only
    spellings for anything unusual, and we would rather raise than emit wrong C.
    """

    # Never defined on SymPy objects, so no object can print itself in its own style.
    printmethod = "_symgrad_ccode"
    # Setting this at class level keeps C89CodePrinter.__init__ from building the macro
    # table (M_PI and friends), which we never want.
    math_macros: ClassVar[dict[Any, str]] = {}

    def __init__(self, dtype: DType, names: dict[sympy.Symbol, str]) -> None:
        super().__init__()
        self.dtype = dtype
        self.ctype = dtype.ctype        # (printed in casts and messages only)
        self.fmt: BinaryFormat | None = FLOAT_FORMATS.get(dtype.name)
        # 64-bit signed arithmetic wraps modulo 2**64 (``intc``); unsigned values skip sign
        # tests; bool arithmetic is logical
        self.wraps = dtype is int64
        self.unsigned = not self.fmt and not dtype.is_signed
        self.names = names
        self.calls: set[str] = set()   # the libm functions printed (see ``print_c``)

    # -- dispatch ------------------------------------------------------------------------

    def _print(self, expr: Any, **kwargs: Any) -> str:
        if isinstance(expr, str):  # SymPy helpers occasionally pass through strings
            return expr
        if not isinstance(expr, Basic):
            raise TypeError(f"cannot print {type(expr).__name__} {expr!r} as C")
        own = vars(_SymgradCPrinter)
        for cls in type(expr).__mro__:
            name = "_print_" + cls.__name__
            if name in own:
                self._print_level += 1
                try:
                    return getattr(self, name)(expr, **kwargs)
                finally:
                    self._print_level -= 1
        raise TypeError(f"{type(expr).__name__} ({expr}) has no C translation in symgrad")

    # -- helpers -------------------------------------------------------------------------

    @property
    def _is_float(self) -> bool:
        return self.fmt is not None

    def _require_float(self, expr: Basic, what: str) -> BinaryFormat:
        if self.fmt is None:
            raise TypeError(f"{what} ({expr}) has no meaning in {self.ctype} arithmetic")
        return self.fmt

    def _number(self, value: Fraction) -> str:
        """A constant of the current ctype."""
        if self.fmt is not None:
            return float_literal(value, self.fmt)
        if value.denominator != 1:
            raise TypeError(f"non-integer constant {value} in {self.ctype} arithmetic")
        return int_literal(value.numerator, self.dtype)

    def _func(self, name: str) -> str:
        """libm name for the current float type (expf for float, exp for double); every name
        printed is noted in ``calls``."""
        assert self.fmt is not None
        name += self.fmt.func_suffix
        self.calls.add(name)
        return name

    def operand(self, expr: Basic) -> str:
        """Print ``expr`` so it can stand next to any C operator without re-association.

        Our Pow printing always yields a call or a parenthesised group, and every
        function/number symbol prints atomically, so only lower-precedence nodes (and
        relationals, whose SymPy precedence does not match C's) need parentheses.
        """
        text = self._print(expr)
        if isinstance(expr, sympy.Pow):
            return text
        if isinstance(expr, (Relational, BooleanFunction)):
            return f"({text})"
        return text if precedence(expr) >= PRECEDENCE["Func"] else f"({text})"

    def parenthesize(self, item: Any, level: float, strict: bool = False) -> str:
        # SymPy ranks a non-integer Rational like a product (it prints as p/q), but we
        # print every non-negative number as one literal, which never needs parentheses.
        if isinstance(item, (sympy.Rational, sympy.Float)) and not item.is_negative:
            return self._print(item)
        return super().parenthesize(item, level, strict)

    # -- atoms ---------------------------------------------------------------------------

    def _print_Symbol(self, expr: sympy.Symbol) -> str:
        text = self.names[expr]
        # Names may be arbitrary C ("a + b"); keep plain identifiers and array reads bare.
        return text if _SIMPLE_OPERAND.match(text) else f"({text})"

    def _print_Integer(self, expr: sympy.Integer) -> str:
        return self._number(Fraction(int(expr)))

    def _print_Rational(self, expr: sympy.Rational) -> str:
        if not self._is_float:
            raise TypeError(
                f"rational constant {expr} has no exact value in {self.ctype} arithmetic"
            )
        return self._number(Fraction(int(expr.p), int(expr.q)))

    def _print_Float(self, expr: sympy.Float) -> str:
        if not expr.is_finite:  # defensive: SymPy normally turns these into oo / nan
            fmt = self._require_float(expr, "a non-finite constant")
            if expr.is_nan:
                return fmt.special("NAN")
            return fmt.special("INFINITY", negative=bool(expr < 0))
        value = intc.exact_fraction(expr)
        if not self._is_float and value.denominator != 1:
            raise TypeError(f"non-integer constant {expr} in {self.ctype} arithmetic")
        return self._number(value)

    def _print_NumberSymbol(self, expr: sympy.NumberSymbol) -> str:
        fmt = self._require_float(expr, "the constant")
        # 60 significant digits is far more than needed to round correctly to 53 bits.
        approx = expr.evalf(60)
        return float_literal(intc.exact_fraction(approx), fmt)

    def _print_Infinity(self, expr: Basic) -> str:
        return self._require_float(expr, "infinity").special("INFINITY")

    def _print_NegativeInfinity(self, expr: Basic) -> str:
        return self._require_float(expr, "infinity").special("INFINITY", negative=True)

    def _print_NaN(self, expr: Basic) -> str:
        return self._require_float(expr, "NaN").special("NAN")

    def _print_BooleanTrue(self, expr: Basic) -> str:
        return "1"  # not 'true': that would need stdbool.h

    def _print_BooleanFalse(self, expr: Basic) -> str:
        return "0"

    # -- arithmetic ----------------------------------------------------------------------

    def _print_Add(self, expr: sympy.Add, **kwargs: Any) -> str:
        if self.wraps:
            return intc.wrapping(self, expr)
        return super()._print_Add(expr, **kwargs)

    def _print_Mul(self, expr: sympy.Mul, **kwargs: Any) -> str:
        if not self._is_float:
            # CodePrinter turns negative powers into '/', which would be truncating
            # integer division here; refuse before it gets the chance.
            for factor in sympy.Mul.make_args(expr):
                if isinstance(factor, sympy.Rational) and not isinstance(factor, sympy.Integer):
                    raise TypeError(
                        f"rational constant {factor} has no exact value in {self.ctype}"
                    )
                if isinstance(factor, sympy.Pow):
                    n = intc.integral_value(factor.exp)
                    if n is None or n < 0:
                        raise TypeError(
                            f"{factor}: only non-negative integer powers exist in "
                            f"{self.ctype} arithmetic"
                        )
            if self.wraps:
                return intc.wrapping(self, expr)
        # CodePrinter._print_Mul pulls out the sign and builds 'a*b/(c*d)'; the factors
        # come back through our _print, so literals and powers are ours.
        return super()._print_Mul(expr, **kwargs)

    def _print_Pow(self, expr: sympy.Pow, **kwargs: Any) -> str:
        base, exponent = expr.base, expr.exp
        n = intc.integral_value(exponent)

        if not self._is_float:
            if n is None or n < 0:
                raise TypeError(f"{expr}: only non-negative integer powers exist in {self.ctype}")
            if n > intc.MAX_INT_POW_EXPANSION:
                raise TypeError(f"{expr}: integer power above {intc.MAX_INT_POW_EXPANSION}")
            if n == 0:
                return "1"
            if self.wraps and n > 1:
                return intc.wrapping(self, expr)
            b = self.parenthesize(base, PRECEDENCE["Mul"])
            return b if n == 1 else "(" + "*".join([b] * n) + ")"

        one = self._number(Fraction(1))
        if n is not None and abs(n) <= _MAX_FLOAT_POW_EXPANSION:
            if n == 0:
                return one  # pow(x, 0) is 1 even for NaN
            # Parenthesise products too, so (3*x)**2 multiplies the rounded 3*x by itself.
            b = self.parenthesize(base, PRECEDENCE["Mul"])
            product = "*".join([b] * abs(n))
            if n == 1:
                return b
            if n > 0:
                return f"({product})"
            return f"({one}/{product})" if n == -1 else f"({one}/({product}))"

        half = _exact_number(exponent)
        if half == Fraction(1, 2):
            return f"{self._func('sqrt')}({self._print(base)})"
        if half == Fraction(-1, 2):
            return f"({one}/{self._func('sqrt')}({self._print(base)}))"
        return f"{self._func('pow')}({self._print(base)}, {self._print(exponent)})"

    def _print_Mod(self, expr: sympy.Mod) -> str:
        if self._is_float:
            # fmod truncates like C's %, while SymPy's Mod floors; a faithful float
            # version needs a temporary, which a single expression cannot have.
            raise TypeError(f"{expr}: floating Mod is not supported (fmod differs)")
        a, b = (self.operand(arg) for arg in expr.args)
        # C's % truncates toward zero; adding b and reducing again gives the floored
        # result (sign of b), which is what SymPy's Mod means.
        return f"((({a} % {b}) + {b}) % {b})"

    # -- functions -----------------------------------------------------------------------

    def _print_Function(self, expr: sympy.Function) -> str:
        cls = type(expr)
        args = list(expr.args)
        if cls is sympy.zeta and len(args) == 1:
            args.append(sympy.Integer(1))      # SymPy's zeta(s, 1) is Riemann's zeta(s)
        if cls is sympy.polygamma and args[0] == 0:
            cls, args = sympy.digamma, args[1:]   # SymPy's digamma(x) is polygamma(0, x)
        if self.wraps and cls in INT_FUNCTIONS:
            name = INT_FUNCTIONS[cls]
            self.calls.add(name)
        else:
            name = FLOAT_FUNCTIONS.get(cls)
            if name is None:
                raise TypeError(f"function {cls.__name__} has no C translation in symgrad")
            self._require_float(expr, f"function {name}")
            name = self._func(name)
        return f"{name}({', '.join(self._print(arg) for arg in args)})"

    def _print__Bitwise(self, expr: Basic) -> str:
        """C's bitwise operators, on integers and bools only (a bool's ``~`` is ``!``)."""
        if self._is_float:
            raise TypeError(f"{type(expr).__name__} has no meaning in {self.ctype} arithmetic")
        if len(expr.args) == 1:
            sign = "!" if self.dtype.is_bool else "~"
            return f"({sign}{self.operand(expr.args[0])})"
        op = {"BitAnd": "&", "BitOr": "|", "BitXor": "^"}[type(expr).__name__]
        return f"({self.operand(expr.args[0])} {op} {self.operand(expr.args[1])})"

    def _print_Heaviside(self, expr: Basic) -> str:
        # Deliberately unsupported: its value at 0 is a convention we never want baked in.
        raise TypeError("Heaviside is not supported; write a Piecewise with explicit cases")

    def _print_Abs(self, expr: sympy.Abs) -> str:
        (arg,) = expr.args
        if self._is_float:
            return f"{self._func('fabs')}({self._print(arg)})"
        if self.unsigned and isinstance(arg, sympy.Symbol):
            return self._print(arg)  # 'x < 0' on an unsigned value trips -Wtype-limits
        v = self.operand(arg)
        if self.wraps:   # -INT64_MIN overflows: negate modulo 2**64
            return f"(({v} < 0) ? (int64_t)-(uint64_t){v} : {v})"
        return f"(({v} < 0) ? -{v} : {v})"

    def _print_sign(self, expr: sympy.sign) -> str:
        (arg,) = expr.args
        v = self.operand(arg)
        if self._is_float:
            zero, one = self._number(Fraction(0)), self._number(Fraction(1))
            # Zeros and NaN fall through to the argument itself: sign(+-0) = +-0 and
            # sign(NaN) = NaN, unlike (x > 0) - (x < 0) which maps NaN to 0.
            return f"(({v} > {zero}) ? {one} : (({v} < {zero}) ? -{one} : {v}))"
        if self.unsigned and isinstance(arg, sympy.Symbol):
            return f"({v} > 0)"
        return f"(({v} > 0) - ({v} < 0))"

    def _min_max(self, expr: Basic, c_name: str, c_op: str) -> str:
        args = list(expr.args)  # SymPy keeps them in canonical order: deterministic
        if self._is_float:
            text = self._print(args[-1])
            for arg in reversed(args[:-1]):
                text = f"{self._func(c_name)}({self._print(arg)}, {text})"
            return text
        text = self.operand(args[-1])
        for arg in reversed(args[:-1]):
            a = self.operand(arg)
            text = f"(({a} {c_op} {text}) ? {a} : {text})"
        return text

    def _print_Max(self, expr: sympy.Max) -> str:
        return self._min_max(expr, "fmax", ">")

    def _print_Min(self, expr: sympy.Min) -> str:
        return self._min_max(expr, "fmin", "<")

    def _print_isnan(self, expr: Basic) -> str:
        self._require_float(expr, "isnan")
        return f"isnan({self._print(expr.args[0])})"  # type-generic macro in C99

    def _print_isinf(self, expr: Basic) -> str:
        self._require_float(expr, "isinf")
        return f"isinf({self._print(expr.args[0])})"

    # -- conditions ----------------------------------------------------------------------

    def _print_Piecewise(self, expr: sympy.Piecewise) -> str:
        pieces = list(expr.args)
        if pieces[-1].cond != sympy.true:
            raise ValueError(
                f"Piecewise needs a final (value, True) branch to be an expression: {expr}"
            )
        text = f"({self._print(pieces[-1].expr)})"
        for piece in reversed(pieces[:-1]):
            text = f"(({self._print(piece.cond)}) ? ({self._print(piece.expr)}) : {text})"
        return text

    def _print_Relational(self, expr: Basic) -> str:
        op = expr.rel_op
        if op not in ("==", "!=", "<", "<=", ">", ">="):
            raise TypeError(f"relational {op!r} has no C operator")
        # Arithmetic binds tighter than comparisons in C; anything boolean gets parens.
        lhs, rhs = (
            self.operand(arg)
            if isinstance(arg, (Boolean, Relational))
            else self.parenthesize(arg, PRECEDENCE["Relational"], strict=True)
            for arg in (expr.lhs, expr.rhs)
        )
        return f"{lhs} {op} {rhs}"

    def _logic_operands(self, expr: Basic, bare: tuple[type, ...]) -> list[str]:
        """Arguments of And/Or in canonical order; boolean functions other than ``bare``
        (Or inside &&, And inside ||, Xor's expansion...) get parentheses."""
        return [
            f"({self._print(a)})"
            if isinstance(a, BooleanFunction) and not isinstance(a, bare)
            else self._print(a)
            for a in sorted(expr.args, key=sympy.default_sort_key)
        ]

    def _print_And(self, expr: Basic) -> str:
        # Comparisons bind tighter than && in C, so they stay bare.
        return " && ".join(self._logic_operands(expr, (sympy.Not, *_BOOLEAN_CALLS)))

    def _print_Or(self, expr: Basic) -> str:
        # && inside || is parenthesised even though C does not need it: gcc -Wall warns.
        return " || ".join(self._logic_operands(expr, (sympy.Not, *_BOOLEAN_CALLS)))

    def _print_Not(self, expr: Basic) -> str:
        return "!" + self.operand(expr.args[0])

    def _print_BooleanFunction(self, expr: Basic) -> str:
        # Xor, Implies, Equivalent, ITE...: print their And/Or/Not normal form.
        nnf = expr.to_nnf()
        if type(nnf) is type(expr):
            raise TypeError(f"{type(expr).__name__} has no C translation in symgrad")
        return self._print(nnf)


def c_expr(expr: sympy.Basic, dtype: DType, names: dict[sympy.Symbol, str]) -> str:
    """C99 text computing ``expr`` in ``dtype`` with each symbol replaced by ``names[sym]``.

    Raises ``ValueError`` for a dtype with no C arithmetic or a Piecewise without a default
    branch, ``KeyError`` for a symbol missing from ``names`` and ``TypeError`` for anything
    with no C meaning in that dtype (see the module docstring for the exact rules).
    """
    return print_c(expr, dtype, names)[0]


def print_c(expr: sympy.Basic, dtype: DType,
            names: dict[sympy.Symbol, str]) -> tuple[str, tuple[str, ...]]:
    """``c_expr``'s text, and the libm functions it calls (sorted): what code generation
    declares for the vector math library, known from the printing, not found in the text."""
    check_dtype(dtype)
    expr = sympy.sympify(expr, strict=True)
    missing = sorted((s for s in expr.free_symbols if s not in names), key=sympy.default_sort_key)
    if missing:
        raise KeyError(f"no C name given for symbol(s) {', '.join(map(str, missing))}")
    for sym, text in names.items():
        if not isinstance(text, str) or not text.strip():
            raise TypeError(f"C name for {sym} must be a non-empty string, got {text!r}")
    printer = _SymgradCPrinter(dtype, names)
    text = printer._print(expr)
    if dtype.is_bool and isinstance(expr, (sympy.Add, sympy.Mul, sympy.Pow)):
        # A bool is stored as the byte 0 or 1 (NumPy sums the bytes of a bool array, so a 2
        # from True + True would count twice): arithmetic on bools is logical.
        text = f"(({text}) != 0)"
    return text, tuple(sorted(printer.calls))
