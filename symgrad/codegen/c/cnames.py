"""Which C function each SymPy function class prints as.

Layer: codegen (imports SymPy: only the C printer uses this). Input: nothing. Output:
``FLOAT_FUNCTIONS``, class -> C name in double spelling (float code adds the ``f`` suffix:
``expf``, ``sgm_digammaf``), and ``INT_FUNCTIONS``, class -> the int64 helper for the few
functions that have integer meaning. Names starting ``sgm_`` are symgrad's own helpers
(``helpers.py`` defines them); the others are C99's libm. Keyed by exact class, so a user
subclass with a different meaning is not misprinted.
"""

from __future__ import annotations

import sympy
from sympy.codegen import cfunctions

from ...ops import scalar_functions as sf

__all__ = ["FLOAT_FUNCTIONS", "INT_FUNCTIONS"]

FLOAT_FUNCTIONS: dict[type, str] = {
    sympy.exp: "exp",
    sympy.log: "log",
    cfunctions.log1p: "log1p",
    cfunctions.expm1: "expm1",
    cfunctions.exp2: "exp2",
    cfunctions.log2: "log2",
    cfunctions.log10: "log10",
    cfunctions.Sqrt: "sqrt",
    cfunctions.Cbrt: "cbrt",
    cfunctions.hypot: "hypot",
    cfunctions.fma: "fma",
    sympy.sin: "sin",
    sympy.cos: "cos",
    sympy.tan: "tan",
    sympy.asin: "asin",
    sympy.acos: "acos",
    sympy.atan: "atan",
    sympy.atan2: "atan2",
    sympy.sinh: "sinh",
    sympy.cosh: "cosh",
    sympy.tanh: "tanh",
    sympy.asinh: "asinh",
    sympy.acosh: "acosh",
    sympy.atanh: "atanh",
    sympy.erf: "erf",
    sympy.erfc: "erfc",
    sympy.gamma: "tgamma",
    sympy.loggamma: "lgamma",
    sympy.floor: "floor",
    sympy.ceiling: "ceil",
    sf.Rint: "nearbyint",
    sf.Trunc: "trunc",
    sf.Fmod: "fmod",
    sf.Copysign: "copysign",
    sf.Nextafter: "nextafter",
    sympy.erfinv: "sgm_erfinv",
    sympy.digamma: "sgm_digamma",
    sympy.polygamma: "sgm_polygamma",
    sympy.zeta: "sgm_zeta",
    sf.FloorDiv: "sgm_floordiv",
    sf.Remainder: "sgm_remainder",
    sf.TruncDiv: "sgm_truncdiv",
}

INT_FUNCTIONS: dict[type, str] = {
    sf.Fmod: "sgm_fmod_i64",
    sf.FloorDiv: "sgm_floordiv_i64",
    sf.Remainder: "sgm_remainder_i64",
    sf.TruncDiv: "sgm_truncdiv_i64",
}
