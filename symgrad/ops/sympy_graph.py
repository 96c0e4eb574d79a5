"""SymPy scalar expression -> graph nodes (through the front end's ``bind``).

Input: a SymPy expression and a map from its symbols to tensors. Output: a tensor (or a
Python number for a constant expression). Used to turn a SymPy derivative into a VJP that
builds ordinary graph nodes, so derived gradients are differentiable again. It must not
simplify (no ``sympy.simplify``: it can hang); it translates the tree as it stands.
"""

from __future__ import annotations

import functools
import operator

import sympy as sp
from sympy.codegen.cfunctions import expm1 as sp_expm1, log1p as sp_log1p

from .registry import bind

_FUNCS = {sp.exp: "exp", sp.log: "log", sp.sin: "sin", sp.cos: "cos", sp.tanh: "tanh",
          sp_log1p: "log1p", sp_expm1: "expm1", sp.Abs: "abs", sp.sign: "sign"}


def to_graph(expr: sp.Expr, env: dict):
    """Rebuild ``expr`` from registered ops applied to the tensors in ``env``."""
    if expr in env:
        return env[expr]
    if expr.is_Number:
        return float(expr)
    if expr is sp.pi or expr is sp.E:
        return float(expr.evalf(17))
    args = [to_graph(a, env) for a in expr.args]
    if isinstance(expr, sp.Add):
        return functools.reduce(operator.add, args)
    if isinstance(expr, sp.Mul):
        return functools.reduce(operator.mul, args)
    if isinstance(expr, sp.Pow):
        base, expo = args
        if expo == -1:
            return 1.0 / base
        if expo == 0.5:
            return bind("sqrt", base)
        if expo == -0.5:
            return 1.0 / bind("sqrt", base)
        if expo == 2:
            return base * base
        return base ** expo
    for func, name in _FUNCS.items():
        if isinstance(expr, func):
            return bind(name, *args)
    raise NotImplementedError(f"no graph translation for SymPy node {type(expr).__name__}")
