"""Tests for symgrad.codegen.c.cprinter: printed C is compiled and run, not just compared as text.

The numeric tests print a corpus of expressions for float and double, write ONE C file per
type holding a loop function per expression, compile it with strict warnings (including
-Wdouble-promotion, which turns any float->double promotion into an error) and compare
the results with NumPy computing the same math in the same dtype. The three compiles run
in parallel once per session, so the whole file takes a few seconds.
"""

from __future__ import annotations

import ctypes
import math
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from sympy.codegen.cfunctions import expm1, isnan, log1p

from symgrad import dtypes
from symgrad.codegen.c import cprinter

# The tests name the dtype the printer computes in by its C type, as the C they compile does.
DTYPE_OF = {"float": dtypes.float32, "double": dtypes.float64, "int64_t": dtypes.int64,
            "uint8_t": dtypes.bool_, "int32_t": dtypes.int32, "long double": dtypes.float16}


def c_expr(expr, ctype: str, names: dict) -> str:
    return cprinter.c_expr(expr, DTYPE_OF[ctype], names)


def c_literal(value, ctype: str) -> str:
    return cprinter.c_literal(value, DTYPE_OF[ctype])

X, Y = sp.symbols("x y")
B, C = sp.symbols("b c")
NAMES = {X: "x[i]", Y: "y[i]"}

# ---------------------------------------------------------------------------------------
# Corpora: (id, expression, NumPy reference on arrays of the tested dtype)
# ---------------------------------------------------------------------------------------


def _sign_ref(x, y):
    # Documented choice: sign of +-0 is the zero itself, sign of NaN is NaN.
    return np.where(x == 0, x, np.sign(x))


FLOAT_CORPUS = [
    ("exp", sp.exp(X), lambda x, y: np.exp(x)),
    ("log", sp.log(X), lambda x, y: np.log(x)),
    ("log_1_plus_x", sp.log(1 + X), lambda x, y: np.log(1 + x)),
    ("log1p", log1p(X), lambda x, y: np.log1p(x)),
    ("expm1", expm1(X), lambda x, y: np.expm1(x)),
    ("sqrt", sp.sqrt(X), lambda x, y: np.sqrt(x)),
    ("sin", sp.sin(X), lambda x, y: np.sin(x)),
    ("cos", sp.cos(X), lambda x, y: np.cos(x)),
    ("tanh", sp.tanh(X), lambda x, y: np.tanh(x)),
    ("sigmoid", 1 / (1 + sp.exp(-X)), lambda x, y: 1 / (1 + np.exp(-x))),
    (
        "softplus",
        sp.Max(X, 0) + log1p(sp.exp(-sp.Abs(X))),
        lambda x, y: np.fmax(x, 0) + np.log1p(np.exp(-np.abs(x))),
    ),
    ("square", X**2, lambda x, y: x**2),
    ("cube", X**3, lambda x, y: x**3),
    ("reciprocal", X**-1, lambda x, y: 1 / x),
    ("inv_square", X**-2, lambda x, y: x**-2),
    ("pow_float_half", X**0.5, lambda x, y: x**0.5),  # NumPy's ** also means sqrt here
    ("pow_xy", X**Y, lambda x, y: np.power(x, y)),
    ("pow_five", X**5, lambda x, y: np.power(x, 5)),
    ("scaled_square", 3 * (X + 2) ** 2, lambda x, y: 3 * (x + 2) ** 2),
    (
        "piecewise",
        sp.Piecewise((X * Y, X > 0), (-X, X < -1), (sp.Rational(1, 2), True)),
        lambda x, y: np.where(x > 0, x * y, np.where(x < -1, -x, 0.5)).astype(x.dtype),
    ),
    (
        "piecewise_and",
        sp.Piecewise((X, sp.And(X > 0, Y < 1)), (Y, True)),
        lambda x, y: np.where((x > 0) & (y < 1), x, y),
    ),
    (
        "nan_to_zero",
        sp.Piecewise(
            (0, isnan(X)),
            (X, sp.Or(X > 1, sp.And(Y > 0, sp.Not(sp.And(X < -0.5, Y < 1))))),
            (Y, True),
        ),
        lambda x, y: np.where(
            np.isnan(x), 0, np.where((x > 1) | ((y > 0) & ~((x < -0.5) & (y < 1))), x, y)
        ),
    ),
    ("max3", sp.Max(X, Y, 0.5), lambda x, y: np.fmax(np.fmax(x, y), 0.5)),
    ("min3", sp.Min(X, Y, -1), lambda x, y: np.fmin(np.fmin(x, y), -1)),
    ("third", sp.Rational(1, 3) * X, lambda x, y: x / 3),
    ("pi_x", sp.pi * X, lambda x, y: np.pi * x),
    ("e_plus_x", sp.E + X, lambda x, y: math.e + x),
    ("sign", sp.sign(X), _sign_ref),
    ("gt", X > Y, lambda x, y: (x > y).astype(x.dtype)),
    ("eq", sp.Eq(X, Y), lambda x, y: (x == y).astype(x.dtype)),
    ("ge_const", X >= sp.Rational(1, 2), lambda x, y: (x >= 0.5).astype(x.dtype)),
    ("div", X / Y, lambda x, y: x / y),
    ("neg_square", -(X**2) + Y, lambda x, y: -(x**2) + y),
    ("abs", sp.Abs(X), lambda x, y: np.abs(x)),
    ("atan2", sp.atan2(Y, X), lambda x, y: np.arctan2(y, x)),
    ("neg_zero", sp.Mul(-1, sp.Float(0), evaluate=False), lambda x, y: np.full_like(x, -0.0)),
    ("minus_inf", X - sp.oo, lambda x, y: x - np.inf),
]

# Zero results whose sign C and NumPy legitimately choose differently (fmax(-0, +0) may
# return either zero in C; pow and NumPy's fast paths differ on -0 inputs).
ZERO_SIGN_FREE = {"max3", "min3", "softplus", "pow_xy", "pow_five"}

X_VALUES = [
    -1000.0, -3.5, -1.0, -0.25, -0.0, 0.0, 1e-3, 0.5, 1.0, 2.0, 3.25, 20.0, 1000.0,
    math.inf, -math.inf, math.nan,
]  # fmt: skip
Y_VALUES = [-2.0, -0.0, 0.5, 1.0, 3.0, math.nan]

INT_CORPUS = [
    ("add", X + Y, lambda x, y: x + y),
    ("poly", 3 * X * Y**2 - X + 7, lambda x, y: 3 * x * y**2 - x + 7),
    ("cube", X**3, lambda x, y: x**3),
    ("abs", sp.Abs(X), lambda x, y: np.abs(x)),
    ("max3", sp.Max(X, Y, 0), lambda x, y: np.maximum(np.maximum(x, y), 0)),
    ("min3", sp.Min(X, Y, -1), lambda x, y: np.minimum(np.minimum(x, y), -1)),
    ("sign", sp.sign(X), lambda x, y: np.sign(x)),
    ("mod", sp.Mod(X, Y), lambda x, y: np.mod(x, y)),
    (
        "piecewise",
        sp.Piecewise((X, X > Y), (Y - 1, sp.Eq(X, Y)), (0, True)),
        lambda x, y: np.where(x > y, x, np.where(x == y, y - 1, 0)),
    ),
    ("big_const", sp.Integer(2**40) * X, lambda x, y: np.int64(2**40) * x),
    ("ne", sp.Ne(X, Y), lambda x, y: (x != y).astype(np.int64)),
]
INT_X_VALUES = [-1000, -7, -1, 0, 1, 2, 5, 1000]
INT_Y_VALUES = [-3, -1, 1, 2, 7]  # no zero: Mod(x, 0) is undefined

BOOL_CORPUS = [
    ("and_not", sp.And(B, sp.Not(C)), lambda b, c: b & ~c & 1),
    ("or", sp.Or(B, C), lambda b, c: b | c),
    ("xor", sp.Xor(B, C), lambda b, c: b ^ c),
    ("abs", sp.Abs(B), lambda b, c: b),
    ("sign", sp.sign(B), lambda b, c: (b > 0).astype(np.uint8)),
    ("piecewise", sp.Piecewise((C, B > 0), (1, True)), lambda b, c: np.where(b > 0, c, 1)),
]

# ---------------------------------------------------------------------------------------
# Building and running the C
# ---------------------------------------------------------------------------------------

CFLAGS = [
    "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror",
    "-Wdouble-promotion", "-Wfloat-conversion", "-O2", "-shared", "-fPIC",
]  # fmt: skip

# Values whose literal spelling is read back by the C compiler (checked against NumPy's
# IEEE double->float conversion): random magnitudes plus rounding edge cases.
_F32_MAX = float(np.finfo(np.float32).max)
_F32_HALF_ULP_AT_MAX = 2.0 ** (127 - 24)
LITERAL_VALUES = [
    *np.random.default_rng(12345).standard_normal(120)
    * 10.0 ** np.random.default_rng(54321).integers(-60, 60, 120),
    1 / 3, 2 / 3, 0.1, 1e-3, 1 + 2.0**-24, 1 + 3 * 2.0**-24, 1 - 2.0**-25, 16777217.0,
    _F32_MAX, _F32_MAX + _F32_HALF_ULP_AT_MAX, _F32_MAX + _F32_HALF_ULP_AT_MAX / 2,
    1e-38, 1.1754942e-38, 1e-40, 1.401298464324817e-45, 7.006492321624085e-46,
    7.1e-46, 1e-46, 1e300, 5e-324, -0.0, 0.0, 1.0, -2.5, math.inf, -math.inf,
]  # fmt: skip
EXACT_LITERALS = [Fraction(1, 3), Fraction(2, 3), Fraction(-5, 7), Fraction(10**30 + 1, 7)]


def _ctype_of(dtype: type) -> str:
    return {np.float32: "float", np.float64: "double"}[dtype]


def _float_source(dtype: type) -> str:
    ctype = _ctype_of(dtype)
    suffix = "F" if ctype == "float" else ""
    lines = ["#include <math.h>", "#include <stdint.h>", ""]
    # The same expressions with names that are not plain array reads: '-0.0 + x' equals
    # x exactly for every x, but prints wrong values if a name is not parenthesised.
    compound = {X: f"-0.0{suffix} + x[i]", Y: f"-0.0{suffix} + y[i]"}
    for k, (_, expr, _) in enumerate(FLOAT_CORPUS):
        for prefix, names in (("f", NAMES), ("g", compound)):
            lines.append(
                f"void {prefix}{k}(const {ctype} *restrict x, const {ctype} *restrict y, "
                f"{ctype} *restrict out, long n) {{\n"
                "    (void)x; (void)y;  /* not every expression reads both */\n"
                f"    for (long i = 0; i < n; ++i) out[i] = {c_expr(expr, ctype, names)};\n"
                "}"
            )
    values = [c_literal(v, ctype) for v in LITERAL_VALUES]
    values += [c_literal(v, ctype) for v in EXACT_LITERALS]
    values.append(c_expr(sp.Rational(1, 3), ctype, {}))
    lines.append(f"const {ctype} literals[] = {{\n    " + ",\n    ".join(values) + "\n};")
    return "\n".join(lines) + "\n"


def _int_source() -> str:
    lines = ["#include <stdint.h>", ""]
    for k, (_, expr, _) in enumerate(INT_CORPUS):
        lines.append(
            f"void f{k}(const int64_t *restrict x, const int64_t *restrict y, "
            f"int64_t *restrict out, long n) {{\n"
            "    (void)x; (void)y;\n"
            f"    for (long i = 0; i < n; ++i) out[i] = {c_expr(expr, 'int64_t', NAMES)};\n"
            "}"
        )
    bool_names = {B: "b[i]", C: "c[i]"}
    for k, (_, expr, _) in enumerate(BOOL_CORPUS):
        lines.append(
            f"void b{k}(const uint8_t *restrict b, const uint8_t *restrict c, "
            f"uint8_t *restrict out, long n) {{\n"
            "    (void)b; (void)c;\n"
            f"    for (long i = 0; i < n; ++i) out[i] = {c_expr(expr, 'uint8_t', bool_names)};\n"
            "}"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def libs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ctypes.CDLL]:
    cc = shutil.which("gcc")
    if cc is None:
        pytest.skip("gcc not found")
    root = tmp_path_factory.mktemp("cprinter")
    sources = {
        "float": _float_source(np.float32),
        "double": _float_source(np.float64),
        "int": _int_source(),
    }
    procs = {}
    for key, text in sources.items():
        src, lib = root / f"{key}.c", root / f"lib{key}.so"
        src.write_text(text)
        procs[key] = (
            subprocess.Popen(
                [cc, *CFLAGS, "-o", str(lib), str(src), "-lm"],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            ),
            lib,
            src,
        )
    out = {}
    for key, (proc, lib, src) in procs.items():
        log, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0, f"{src} failed to compile:\n{log}\n{src.read_text()}"
        out[key] = ctypes.CDLL(str(lib))
    return out


def _run(lib: ctypes.CDLL, fname: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty_like(a)
    fn = getattr(lib, fname)
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    fn.restype = None
    fn(a.ctypes.data, b.ctypes.data, out.ctypes.data, a.size)
    return out


def _grid(xs, ys, dtype) -> tuple[np.ndarray, np.ndarray]:
    gx, gy = np.meshgrid(np.array(xs, dtype=dtype), np.array(ys, dtype=dtype), indexing="ij")
    return np.ascontiguousarray(gx.ravel()), np.ascontiguousarray(gy.ravel())


def _ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Number of representable values between a and b (finite inputs, -0 == +0)."""
    itype = np.int32 if a.dtype == np.float32 else np.int64
    lo = np.iinfo(itype).min

    def ordered(v: np.ndarray) -> list[int]:
        bits = v.view(itype)
        return [int(lo) - int(i) if i < 0 else int(i) for i in bits]

    return np.array([abs(p - q) for p, q in zip(ordered(a), ordered(b))])


MAX_ULP = 4

# ---------------------------------------------------------------------------------------
# Numeric tests
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float", "double"])
def test_float_corpus_matches_numpy(libs, dtype):
    lib = libs[_ctype_of(dtype)]
    x, y = _grid(X_VALUES, Y_VALUES, dtype)
    failures = []
    for k, (name, _, ref) in enumerate(FLOAT_CORPUS):
        got = _run(lib, f"f{k}", x, y)
        with np.errstate(all="ignore"):
            want = np.asarray(ref(x, y))
        assert want.dtype == dtype, f"{name}: reference left {dtype.__name__}"
        assert got.dtype == dtype
        nan_got, nan_want = np.isnan(got), np.isnan(want)
        bad = nan_got != nan_want
        inf = ~nan_want & (np.isinf(got) | np.isinf(want))
        bad |= inf & (got != want)
        finite = ~nan_want & ~nan_got & ~inf
        bad[finite] |= _ulp_distance(got[finite], want[finite]) > MAX_ULP
        if name not in ZERO_SIGN_FREE:
            zeros = finite & (want == 0) & (got == 0)
            bad |= zeros & (np.signbit(got) != np.signbit(want))
        for i in np.flatnonzero(bad):
            failures.append(f"{name}(x={x[i]!r}, y={y[i]!r}): C {got[i]!r}, NumPy {want[i]!r}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float", "double"])
def test_non_simple_names_are_parenthesised(libs, dtype):
    lib = libs[_ctype_of(dtype)]
    x, y = _grid(X_VALUES, Y_VALUES, dtype)
    for k, (name, _, _) in enumerate(FLOAT_CORPUS):
        plain, compound = _run(lib, f"f{k}", x, y), _run(lib, f"g{k}", x, y)
        same = (plain == compound) & (np.signbit(plain) == np.signbit(compound))
        same |= np.isnan(plain) & np.isnan(compound)
        assert same.all(), name


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float", "double"])
def test_literals_read_back_correctly_rounded(libs, dtype):
    ctype = _ctype_of(dtype)
    n = len(LITERAL_VALUES) + len(EXACT_LITERALS) + 1
    arr_type = (ctypes.c_float if dtype == np.float32 else ctypes.c_double) * n
    got = np.array(arr_type.in_dll(libs[ctype], "literals"), dtype=dtype)

    with np.errstate(over="ignore"):
        want = np.array(LITERAL_VALUES, dtype=np.float64).astype(dtype)
    head = got[: len(LITERAL_VALUES)]
    assert np.array_equal(head.view(f"u{dtype().itemsize}"), want.view(f"u{dtype().itemsize}"))

    # Exact rationals (and Rational(1, 3) through c_expr): nearest value of the type.
    for value, c_value in zip([*EXACT_LITERALS, Fraction(1, 3)], got[len(LITERAL_VALUES) :]):
        below = np.nextafter(c_value, dtype(-np.inf))
        above = np.nextafter(c_value, dtype(np.inf))
        err = abs(Fraction(float(c_value)) - value)
        assert err <= abs(Fraction(float(below)) - value), value
        assert err <= abs(Fraction(float(above)) - value), value
        if dtype == np.float64:
            assert float(c_value) == float(value)  # CPython's int/int is correctly rounded


def test_int_and_bool_corpus_matches_numpy(libs):
    lib = libs["int"]
    x, y = _grid(INT_X_VALUES, INT_Y_VALUES, np.int64)
    for k, (name, _, ref) in enumerate(INT_CORPUS):
        np.testing.assert_array_equal(_run(lib, f"f{k}", x, y), ref(x, y), err_msg=name)
    b, c = _grid([0, 1], [0, 1], np.uint8)
    for k, (name, _, ref) in enumerate(BOOL_CORPUS):
        got = _run(lib, f"b{k}", b, c)
        np.testing.assert_array_equal(got, np.asarray(ref(b, c)).astype(np.uint8), err_msg=name)


# ---------------------------------------------------------------------------------------
# Text properties
# ---------------------------------------------------------------------------------------

FLOAT_FUNCS = {
    "expf", "logf", "log1pf", "expm1f", "sqrtf", "sinf", "cosf", "tanhf", "fabsf",
    "fmaxf", "fminf", "powf", "atan2f", "erff",
}  # fmt: skip
TYPE_GENERIC = {"isnan"}  # C99 macros that take either type
_CALL = re.compile(r"([A-Za-z_]\w*)\s*\(")
_FLOAT_LIT = re.compile(r"(?<![\w.])(\d+\.\d*(?:e[+-]?\d+)?|\d+e[+-]?\d+)([A-Za-z]?)")
_INT_LIT = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _float_texts():
    for name, expr, _ in FLOAT_CORPUS:
        yield name, c_expr(expr, "float", NAMES)
    yield "erf", c_expr(sp.erf(X) * sp.Rational(1, 3), "float", NAMES)


def test_float_output_has_no_double_functions_or_literals():
    for name, text in _float_texts():
        calls = set(_CALL.findall(text))
        assert calls <= FLOAT_FUNCS | TYPE_GENERIC, (name, text)
        for _, suffix in _FLOAT_LIT.findall(text):
            assert suffix == "F", (name, text)
        assert not _INT_LIT.findall(text), (name, text)  # no int literal either
        assert "M_" not in text and "double" not in text


def test_double_output_uses_plain_libm_and_unsuffixed_literals():
    for name, expr, _ in FLOAT_CORPUS:
        text = c_expr(expr, "double", NAMES)
        for call in _CALL.findall(text):
            assert call in {f[:-1] for f in FLOAT_FUNCS} | TYPE_GENERIC, (name, text)
        for _, suffix in _FLOAT_LIT.findall(text):
            assert suffix == "", (name, text)


def test_specific_spellings():
    names = {X: "x", Y: "y"}
    assert c_expr(sp.exp(X), "float", names) == "expf(x)"
    assert c_expr(sp.exp(X), "double", names) == "exp(x)"
    assert c_expr(X**2, "float", names) == "(x*x)"
    assert c_expr(X**3, "double", names) == "(x*x*x)"
    assert c_expr(X**4, "float", names) == "(x*x*x*x)"
    assert c_expr(X**-1, "float", names) == "(1.0F/x)"
    assert c_expr(X**-1, "double", names) == "(1.0/x)"
    assert c_expr(X**-2, "float", names) == "(1.0F/(x*x))"
    assert c_expr(X ** sp.Rational(1, 2), "float", names) == "sqrtf(x)"
    assert c_expr(X ** sp.Rational(-1, 2), "double", names) == "(1.0/sqrt(x))"
    assert c_expr(X**5, "float", names) == "powf(x, 5.0F)"
    assert c_expr(X**Y, "double", names) == "pow(x, y)"
    assert c_expr((X + 1) ** 2, "float", names) == "((x + 1.0F)*(x + 1.0F))"
    assert c_expr(sp.Max(X, Y, 0), "float", names) == "fmaxf(0.0F, fmaxf(x, y))"
    assert c_expr(sp.Min(X, Y), "double", names) == "fmin(x, y)"
    assert c_expr(sp.Abs(X), "float", names) == "fabsf(x)"
    assert c_expr(sp.Piecewise((X, X > 0), (Y, True)), "float", names) == "((x > 0.0F) ? (x) : (y))"
    assert c_expr(sp.Eq(X, Y), "double", names) == "x == y"
    assert c_expr(X >= 1, "float", names) == "x >= 1.0F"
    # log(1 + x) is printed as given: rewriting to log1p is another stage's job.
    assert c_expr(sp.log(1 + X), "float", names) == "logf(x + 1.0F)"
    assert c_expr(log1p(X), "float", names) == "log1pf(x)"
    assert c_expr(expm1(X), "double", names) == "expm1(x)"


def test_constants():
    assert c_expr(sp.pi, "float", {}) == "3.1415927F"
    assert c_expr(sp.pi, "double", {}) == "3.141592653589793"
    assert float(c_expr(sp.pi, "double", {})) == math.pi
    assert np.float32(c_expr(sp.pi, "float", {})[:-1]) == np.float32(math.pi)
    assert float(c_expr(sp.E, "double", {})) == math.e
    assert "M_PI" not in c_expr(sp.pi * X, "double", NAMES)
    assert c_expr(sp.Rational(1, 3), "float", {}) == "0.33333334F"
    assert c_expr(sp.Rational(1, 3), "double", {}) == "0.3333333333333333"
    assert c_expr(sp.oo, "float", {}) == "INFINITY"
    assert c_expr(-sp.oo, "float", {}) == "-INFINITY"
    assert c_expr(sp.nan, "float", {}) == "NAN"
    # INFINITY and NAN are float in C99; double code widens them explicitly.
    assert c_expr(sp.oo, "double", {}) == "(double)INFINITY"
    assert c_expr(X - sp.oo, "double", {X: "x"}) == "x - (double)INFINITY"
    assert c_expr(sp.Integer(2) ** 40 * X, "float", {X: "x"}) == "1099511627776.0F*x"


def test_negative_zero_survives():
    assert c_literal(-0.0, "float") == "-0.0F"
    assert c_literal(-0.0, "double") == "-0.0"
    assert c_literal(0.0, "float") == "0.0F"
    assert c_expr(sp.Mul(-1, sp.Float(0), evaluate=False), "float", {}) == "-0.0F"
    assert c_literal(-1e-60, "float") == "-0.0F"  # underflow keeps the sign


def test_c_literal():
    assert c_literal(0.5, "float") == "0.5F"
    assert c_literal(1, "float") == "1.0F"
    assert c_literal(1.0, "double") == "1.0"
    assert c_literal(0.1, "double") == "0.1"
    assert c_literal(True, "uint8_t") == "1"
    assert c_literal(False, "float") == "0.0F"
    assert c_literal(3.0, "int64_t") == "3"
    assert c_literal(-(2**63), "int64_t") == "INT64_MIN"
    assert c_literal(2**40, "int64_t") == "INT64_C(1099511627776)"
    assert c_literal(math.inf, "float") == "INFINITY"
    assert c_literal(-math.inf, "double") == "-(double)INFINITY"
    assert c_literal(math.nan, "double") == "(double)NAN"
    assert c_literal(math.nan, "float") == "NAN"
    assert c_literal(1e39, "float") == "INFINITY"  # rounds past FLT_MAX, as IEEE does
    assert c_literal(Fraction(1, 3), "float") == "0.33333334F"
    with pytest.raises(TypeError):
        c_literal(0.5, "int64_t")
    with pytest.raises(OverflowError):
        c_literal(256, "uint8_t")
    with pytest.raises(ValueError):
        c_literal(1, "int32_t")


def test_logic():
    assert c_expr(sp.And(B, sp.Not(C)), "uint8_t", {B: "b", C: "c"}) == "b && !c"
    text = c_expr(sp.Or(sp.And(X > 0, Y < 1), sp.Not(B)), "float", {X: "x", Y: "y", B: "b"})
    # && inside || is parenthesised: C does not need it, but gcc -Wall warns without.
    assert text == "(x > 0.0F && y < 1.0F) || !b"
    assert c_expr(sp.Not(sp.And(B, C)), "uint8_t", {B: "b", C: "c"}) == "!(b && c)"
    assert c_expr(sp.Ne(X, 1), "int64_t", {X: "x"}) == "x != 1"


def test_names_are_wrapped_only_when_needed():
    assert c_expr(X, "float", {X: "in0[i]"}) == "in0[i]"
    assert c_expr(-X, "float", {X: "a[i][j]"}) == "-a[i][j]"
    assert c_expr(-X, "float", {X: "a + b"}) == "-(a + b)"
    assert c_expr(X**2, "double", {X: "p->v"}) == "((p->v)*(p->v))"


def test_sign_expression():
    text = c_expr(sp.sign(X), "float", {X: "x"})
    assert text == "((x > 0.0F) ? 1.0F : ((x < 0.0F) ? -1.0F : x))"
    assert c_expr(sp.sign(X), "int64_t", {X: "x"}) == "((x > 0) - (x < 0))"


def test_integer_arithmetic():
    names = {X: "x", Y: "y"}
    # int64 arithmetic wraps modulo 2**64 (NumPy's semantics) instead of overflowing, which
    # is undefined behaviour for signed types in C: computed in uint64_t, converted back.
    assert c_expr(X * Y + 2, "int64_t", names) == \
        "(int64_t)((uint64_t)x*(uint64_t)y + UINT64_C(2))"
    assert c_expr(X**3, "int64_t", names) == "(int64_t)((uint64_t)x*(uint64_t)x*(uint64_t)x)"
    assert c_expr(sp.Max(X, Y), "int64_t", names) == "((x > y) ? x : y)"
    for bad in (sp.exp(X), X / Y, X**-1, sp.Rational(1, 3) * X, sp.pi * X, X**Y, 0.5 * X):
        with pytest.raises(TypeError):
            c_expr(bad, "int64_t", names)


def test_errors():
    with pytest.raises(TypeError, match="Heaviside"):
        c_expr(sp.Heaviside(X), "float", NAMES)
    with pytest.raises(TypeError):
        c_expr(sp.Function("f")(X), "double", NAMES)
    with pytest.raises(TypeError):
        c_expr(sp.I * X, "double", NAMES)
    with pytest.raises(TypeError):
        c_expr(sp.Mod(X, Y), "float", NAMES)  # fmod truncates, SymPy's Mod floors
    with pytest.raises(ValueError):
        c_expr(X, "long double", NAMES)
    with pytest.raises(ValueError):
        c_expr(sp.Piecewise((X, X > 0)), "float", NAMES)
    with pytest.raises(KeyError):
        c_expr(X + sp.Symbol("z"), "float", NAMES)


def test_deterministic_across_calls_and_hash_seeds():
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])\n"
        "import test_cprinter as t\n"
        "for ct in ('float', 'double'):\n"
        "    for _, e, _ in t.FLOAT_CORPUS: print(t.c_expr(e, ct, t.NAMES))\n"
    )
    here = Path(__file__).resolve().parent
    expected = "".join(
        c_expr(e, ct, NAMES) + "\n" for ct in ("float", "double") for _, e, _ in FLOAT_CORPUS
    )
    # Printing twice in-process gives the same text...
    again = "".join(
        c_expr(e, ct, NAMES) + "\n" for ct in ("float", "double") for _, e, _ in FLOAT_CORPUS
    )
    assert again == expected
    # ...and so do fresh interpreters with different string-hash seeds.
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(here), str(here.parents[1])],
            env={**os.environ, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in ("1", "2")
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out == expected
