"""Every op in the registry has every piece: shape rule, dtype rule, NumPy reference, a VJP
rule (or a stated absence of gradient), a scalar SymPy expression for elementwise ops, torch's
name; and every elementwise VJP rule is the derivative of the op's expression.

The last check runs each rule on SymPy symbols, through a ``Builder`` (the interface VJP rules
build with) whose values are SymPy expressions: ``b.op(name, ...)`` substitutes into that op's
own expression. The rule's result, a SymPy expression, must equal ``sympy.diff`` of the op's
expression at random points away from its kinks (evaluated numerically: no simplification, which
can hang). An oracle independent of the rules as written: they build graph nodes, SymPy
differentiates the definition.
"""

import math

import numpy as np
import pytest
import sympy

from symgrad.dtypes import bool_, float64
from symgrad.ops import OPS
from symgrad.ops.registry import ELEMENTWISE, SOURCE

NO_GRADIENT = {"lt", "le", "gt", "ge", "eq", "ne", "logical_and", "logical_or", "logical_not",
               "argmax", "argmin", "cumargmax", "cumargmin", "argsort", "guard", "poison",
               "factor_info",
               "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"}


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_is_complete(name):
    op = OPS[name]
    assert callable(op.shape) and callable(op.dtype)
    if op.kind == SOURCE:
        return
    assert callable(op.numpy)
    if name in NO_GRADIENT:
        assert op.vjp is None
    elif op.bodies:
        # Loops and branches are applied as autograd Functions whose backward builds another
        # application (frontend.control_vjp), on tensors: the op names the rule.
        from symgrad.ops.registry import rule
        assert op.vjp is None and callable(rule(name, "vjp")) and callable(rule(name, "vmap"))
    else:
        assert callable(op.vjp), f"{name} has no VJP rule"
        assert op.torch_name.endswith(tuple("0123456789")) \
            or op.torch_name == "NotImplemented", op.torch_name
    if op.kind == ELEMENTWISE and name != "cast":
        expr, symbols = op.expression()
        assert isinstance(expr, sympy.Basic)
        assert symbols and set(expr.free_symbols) <= set(symbols)
        assert op.promotion, f"{name} says nothing of how its operands promote"


def test_importing_the_registry_does_not_import_sympy():
    import subprocess
    import sys
    code = "import sys, symgrad; assert 'sympy' not in sys.modules, 'sympy was imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


class _Value:
    """A SymPy expression standing for a tensor in a rule: it has the attributes rules read."""

    def __init__(self, expr):
        self.expr = sympy.sympify(expr)
        self.shape, self.ndim = (), 0
        self.dtype = float64        # (real: SymPy's symbols here are real)

    def _wrap(self, other):
        return other.expr if isinstance(other, _Value) else other

    def __add__(self, o): return _Value(self.expr + self._wrap(o))  # noqa: E704
    def __radd__(self, o): return _Value(self._wrap(o) + self.expr)  # noqa: E704
    def __sub__(self, o): return _Value(self.expr - self._wrap(o))  # noqa: E704
    def __rsub__(self, o): return _Value(self._wrap(o) - self.expr)  # noqa: E704
    def __mul__(self, o): return _Value(self.expr * self._wrap(o))  # noqa: E704
    def __rmul__(self, o): return _Value(self._wrap(o) * self.expr)  # noqa: E704
    def __truediv__(self, o): return _Value(self.expr / self._wrap(o))  # noqa: E704
    def __rtruediv__(self, o): return _Value(self._wrap(o) / self.expr)  # noqa: E704
    def __neg__(self): return _Value(-self.expr)  # noqa: E704


class SymPyBuilder:
    """The registry's ``Builder`` over SymPy expressions: an op is its own expression."""

    @staticmethod
    def op(name, *inputs, **attrs):
        op = OPS[name]
        expr, symbols = op.expression()
        args = [i.expr if isinstance(i, _Value) else sympy.sympify(i) for i in inputs]
        # A bool operand is a number 0/1 in the expressions (``Ne(c, 0)``): a condition
        # becomes one, else SymPy would compare the condition object itself with 0.
        conditions = (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction,
                      sympy.logic.boolalg.BooleanAtom)
        args = [sympy.Piecewise((1, a), (0, True))
                if i in op.bool_operands and isinstance(a, conditions) else a
                for i, a in enumerate(args)]
        return _Value(expr.xreplace(dict(zip(symbols, args))))

    @staticmethod
    def full(like, value, shape=None, dtype=None):
        return _Value(value)

    @staticmethod
    def constant_value(x):
        return None          # a symbol is never a known number


# Points where each op is smooth (kinks, branch switches and singularities avoided).
DOMAINS = {"log": (0.2, 3.0), "log1p": (-0.5, 3.0), "sqrt": (0.2, 3.0), "pow": (0.3, 2.0),
           "rsqrt": (0.2, 3.0), "div": (0.3, 2.0), "asin": (-0.9, 0.9), "acos": (-0.9, 0.9),
           "atanh": (-0.9, 0.9),
           "erfinv": (-0.9, 0.9), "acosh": (1.2, 3.0), "log2": (0.2, 3.0),
           "log10": (0.2, 3.0), "lgamma": (0.2, 3.0), "entr": (0.2, 3.0),
           "xlogy": (0.2, 3.0), "xlog1py": (0.2, 3.0), "zeta": (1.2, 3.0)}
# Operands torch does not differentiate (their VJP part raises): not checked.
NOT_DIFFERENTIATED = {"polygamma": (0,), "zeta": (0,), "heaviside": (0, 1)}
# Integer-valued operands: drawn as integers.
INTEGER_OPERANDS = {"polygamma": (0,)}
def _bool_valued(op):
    """Whether the op's result is bool (a comparison's derivative means nothing)."""
    n = op.scalar.__code__.co_argcount - 1
    try:
        return op.dtype(*[float64] * n) is bool_
    except TypeError:
        return False     # where: its condition must be bool


# Steps: SymPy leaves their derivative unevaluated; it is zero away from the jumps.
STEPS = {"floor", "ceil"}
# Complex numbers' own ops: their rules are in torch's complex convention (not a real
# derivative); tests/frontend/test_complex.py checks them against finite differences in the
# real and imaginary parts, and against torch.
COMPLEX_RULES = {"real", "imag", "conj", "complex", "angle", "sgn"}
# Gradient barriers: the value itself, differentiated as a constant (stop_gradient) or not at
# all (no_derivative raises); tests/frontend/test_body_barriers.py checks what they are for.
BARRIERS = {"stop_gradient", "no_derivative"}   # (as tests/transforms/samples.py)
DIFFERENTIABLE = sorted(n for n, op in OPS.items()
                        if op.kind == ELEMENTWISE and op.vjp is not None and op.scalar is not None
                        and not _bool_valued(op) and n not in COMPLEX_RULES | BARRIERS)


def _cotangents(op, g, out, symbols):
    """The rule's cotangents, None for the operands ``NOT_DIFFERENTIATED``."""
    skip = NOT_DIFFERENTIATED.get(op.name, ())
    inputs = [_Value(s) for s in symbols]
    if not skip:
        return op.vjp(SymPyBuilder, _Value(g), out, inputs)
    return [None if i in skip else part(SymPyBuilder, _Value(g), out, inputs)
            for i, part in enumerate(op.vjp.parts)]


def _derivative(name, expr, symbol):
    return sympy.Integer(0) if name in STEPS else sympy.diff(expr, symbol)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_elementwise_vjp_is_the_derivative_of_the_expression(name):
    op = OPS[name]
    expr, symbols = op.expression()
    g = sympy.Symbol("g", real=True)
    out = _Value(expr)
    cts = _cotangents(op, g, out, symbols)
    lo, hi = DOMAINS.get(name, (-2.0, 2.0))
    rng = np.random.default_rng(sum(map(ord, name)))
    real = [i for i, s in enumerate(symbols) if s.is_real]   # where: the condition has none
    checked = 0
    for _ in range(12):
        point = {s: (rng.uniform(lo, hi) if s.is_real else int(rng.integers(0, 2)))
                 for s in symbols}
        for i in INTEGER_OPERANDS.get(name, ()):
            point[symbols[i]] = int(rng.integers(0, 4))
        if name in ("maximum", "minimum") and abs(point[symbols[0]] - point[symbols[1]]) < 1e-3:
            continue
        if name in ("relu", "abs", "sign") and abs(point[symbols[0]]) < 1e-3:
            continue
        point[g] = rng.uniform(0.5, 1.5)
        for i in real:
            if i in NOT_DIFFERENTIATED.get(name, ()):
                continue
            want = float((g * _derivative(name, expr, symbols[i])).evalf(subs=point))
            got = float(cts[i].expr.evalf(subs=point)) if cts[i] is not None else 0.0
            assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), \
                (name, i, point, got, want)
        checked += 1
    assert checked >= 6
