"""The C expression of each elementwise op, per dtype: SymPy's printing, printed ahead of time.

Layer: codegen. Input: an op's ``Expr`` (loop IR) and the C text of its operands. Output: the
statement's C expression, and the libm functions it calls.

An op's C comes from its SymPy expression through ``cprinter``, once per op and dtype, with
placeholders for the operands. Those texts are fixed by the ops' definitions, so they are
printed ahead of time into ``optable.py`` (``make optable`` writes it; a test checks it against
a fresh printing): compiling then imports no SymPy (0.3-1 s per process). An op missing from the
table (a new op, before ``make optable``) is printed here at first use.
"""

from __future__ import annotations

import functools
import re

from ...dtypes import DType, bool_, float32, float64, int64
from ...lower.loopir import Expr
from ...ops import OPS, get
from ...ops.registry import ELEMENTWISE
from . import complex_ops

# libm functions glibc's libmvec has SIMD variants of (sqrt and fabs are instructions).
VECTOR_MATH = ("exp", "log", "log1p", "expm1", "sin", "cos", "tanh", "pow")

PLACEHOLDER = "__sg_arg{}__"
# The dtypes C arithmetic computes in (every other dtype computes in one of them).
DTYPES = (float32, float64, int64, bool_)
# pow with a constant exponent: sqrt for 0.5, 1/sqrt for -0.5, C's pow otherwise (None).
POW_EXPONENTS = (0.5, -0.5, None)

_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\[\]]*\])?")


@functools.cache
def placeholder(i: int) -> str:
    return PLACEHOLDER.format(i)


def c_statement(expr: Expr, args: list[str]) -> tuple[str, tuple[str, ...]]:
    """The C expression of ``expr`` applied to the operand texts ``args``, and the libm
    functions it calls."""
    dtype = expr.operand
    if expr.op == "cast":
        if expr.dtype.name == "bool":
            return f"({args[0]} != 0)", ()
        return f"({expr.dtype.ctype})({args[0]})", ()
    if dtype.is_complex or expr.dtype.is_complex:     # (complex from real parts: its result)
        text, calls = _complex(expr, dtype if dtype.is_complex else expr.dtype)
    elif expr.op == "pow" and expr.exponent is not None:
        text, calls = pow_template(expr.exponent, dtype)
    else:
        text, calls = template(expr.op, dtype)
    simple = _SIMPLE.fullmatch
    for i, a in enumerate(args):
        text = text.replace(placeholder(i), a if simple(a) else f"({a})")
    return text, calls


@functools.cache
def _complex(expr: Expr, dtype: DType) -> tuple[str, tuple[str, ...]]:
    """A complex op's C: ``complex_ops``'s table (hand-written, not SymPy's printing)."""
    if expr.op == "pow" and expr.exponent is not None:
        return complex_ops.pow_template(expr.exponent, dtype, placeholder)
    return complex_ops.template(expr.op, dtype, placeholder)


@functools.cache
def template(op: str, dtype: DType) -> tuple[str, tuple[str, ...]]:
    """An op's C expression with placeholders for its operands, and the functions it calls."""
    from .optable import EXPRESSIONS
    hit = EXPRESSIONS.get((op, dtype.name))
    return hit if hit is not None else print_template(op, dtype)


@functools.cache
def pow_template(exponent: float, dtype: DType) -> tuple[str, tuple[str, ...]]:
    """pow's C for a constant exponent, without the op's general test of the exponent's value
    (see ops/elementwise.py: 0.5 is sqrt, -0.5 is 1/sqrt, anything else C99's pow)."""
    from .optable import POW
    key = exponent if exponent in (0.5, -0.5) else None
    hit = POW.get((key, dtype.name))
    return hit if hit is not None else print_pow(key, dtype)


def print_template(op: str, dtype: DType) -> tuple[str, tuple[str, ...]]:
    """``template`` printed with SymPy."""
    from .cprinter import print_c
    expr, symbols = get(op).expression()
    return print_c(expr, dtype, {s: placeholder(i) for i, s in enumerate(symbols)})


def print_pow(exponent: float | None, dtype: DType) -> tuple[str, tuple[str, ...]]:
    """``pow_template`` printed with SymPy."""
    import sympy

    from .cprinter import print_c
    x, y = get("pow").expression()[1]
    expr = {0.5: sympy.sqrt(x), -0.5: 1 / sympy.sqrt(x)}.get(exponent, x ** y)
    return print_c(expr, dtype, {x: placeholder(0), y: placeholder(1)})


def printed_table() -> tuple[dict, dict]:
    """Every op's template and pow's constant-exponent forms, per dtype that has them (what
    ``optable.py`` holds, keyed by the dtype's name)."""
    ops, pows = {}, {}
    for name in sorted(OPS):
        op = OPS[name]
        if op.kind != ELEMENTWISE or op.scalar is None:
            continue
        for dtype in DTYPES:
            try:
                ops[(name, dtype.name)] = print_template(name, dtype)
            except TypeError:     # no meaning in that dtype (a float function of an int)
                pass
    for exponent in POW_EXPONENTS:
        for dtype in (float32, float64):
            pows[(exponent, dtype.name)] = print_pow(exponent, dtype)
    return ops, pows


def write_table(path: str) -> None:
    """Write ``optable.py`` (``make optable``)."""
    ops, pows = printed_table()
    lines = ['"""The C expression of every elementwise op per dtype, as ``exprs.printed_table``',
             "prints it from the ops' SymPy expressions. Generated by `make optable`; do not edit",
             '(tests/codegen/test_exprs.py checks it against a fresh printing)."""', "",
             "EXPRESSIONS = {"]
    lines += [f"    {key!r}: {value!r}," for key, value in ops.items()]
    lines += ["}", "", "POW = {"]
    lines += [f"    {key!r}: {value!r}," for key, value in pows.items()]
    lines += ["}", ""]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
