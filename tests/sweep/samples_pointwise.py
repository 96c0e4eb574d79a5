"""Sample generators of the elementwise families: unary math, binary arithmetic and
comparisons, the ternary ones (``where lerp addcmul clamp``...) and their option spellings.

Input: an op's name (``torch.sin``, ``special.xlogy``, ``F.relu``...). Output: its samples
(``spec.Sample``): every dtype of ``spec.ALL_DTYPES``, 0-d, empty and broadcasting shapes,
edge values, Python-number operands, ``out=`` (of the result's dtype, of another, with an
input that requires grad) and the op's own keyword options. The table ``TABLE`` maps each op
to its generator; Tensor methods, in-place forms and operators derive from these
(``registry``).
"""

from __future__ import annotations

import functools

from .spec import ALL_DTYPES, Sample, T

MIXED = [("float32", "float64"), ("int64", "float32"), ("bool", "int64"), ("int32", "int64"),
         ("uint8", "int64"), ("float16", "float32"), ("uint8", "bool"), ("int64", "float16"),
         ("int32", "float32"), ("bool", "float16"), ("float64", "uint8")]
BROADCAST = [((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)), ((0,), (1,)), ((2, 3), (4,)),
             ((0, 3), (2, 1))]


def maker(op: str, pre: tuple = (), post: tuple = (), kw: dict | None = None):
    """``S(*operands, tag=..., **options)``: a sample of ``op`` with fixed leading/trailing
    arguments and keyword options around the operands."""
    ns, name = op.split(".", 1)

    def make(*operands, tag="", **options):
        return Sample(ns, name, pre + operands + post, {**(kw or {}), **options}, tag)
    return make


def unary(op: str, pre: tuple = (), post: tuple = (), kw: dict | None = None) -> list:
    S = maker(op, pre, post, kw)
    out = [S(T((2, 3), dt)) for dt in ALL_DTYPES]
    out += [S(T(shape)) for shape in [(), (0,), (5,)]]
    out += [S(T((16,), dt, "e")) for dt in ("float64", "float32", "float16", "int64")]
    out += [S(T((2, 3), "float64", k)) for k in ("p", "u")]
    out += [S(T((2, 3), "float32", "t")), S(T((2, 3), "float16", "p"))]
    out += [S(T((2, 3), grad=False), out=T((2, 3), grad=False)),
            S(T((2, 3)), out=T((2, 3), grad=False)),
            S(T((2, 3), grad=False), out=T((2, 3), "float32", grad=False)),
            S(T((2, 3), "int64"), out=T((2, 3), "float32", grad=False)),
            S(T((2, 3), "float32", grad=False), out=T((0,), "int64", grad=False))]
    out += [S(2.5), S([1.0, -2.0]), S(T((2, 3), "complex128")), S(T((2, 3), "complex64")),
            S(T((8,), "complex128", "e"))]
    return out


def binary(op: str, pre: tuple = (), post: tuple = (), kw: dict | None = None,
           scalars: bool = True) -> list:
    S = maker(op, pre, post, kw)
    out = [S(T((2, 3), dt), T((2, 3), dt)) for dt in ALL_DTYPES]
    out += [S(T((2, 3), a), T((2, 3), b)) for a, b in MIXED]
    out += [S(T(a), T(b)) for a, b in BROADCAST]
    out += [S(T((3,), "float32"), T((), "float64")), S(T((3,), "int64"), T((), "float64")),
            S(T((), "float64"), T((3,), "int32")), S(T((), "int64"), T((3,), "uint8"))]
    out += [S(T((16,), "float64", "e"), T((16,), "float64", "e")),
            S(T((16,), "float32", "e"), T((16,), "float32", "t")),
            S(T((16,), "float16", "e"), T((16,), "float16", "e")),
            S(T((14,), "int64", "e"), T((14,), "int64", "e")),
            S(T((14,), "int64", "t"), T((14,), "int64", "t")),
            S(T((2, 3), "float64", "p"), T((2, 3), "float64", "u"))]
    if scalars:
        out += [S(T((2, 3), "float32"), 2), S(T((2, 3), "float32"), 2.5),
                S(T((2, 3), "int64"), 2.5), S(T((2, 3), "int64"), 3),
                S(T((2, 3), "int64"), True), S(T((2, 3), "bool"), 2),
                S(T((2, 3), "float16"), 1e5), S(T((2, 3), "uint8"), -1),
                S(T((16,), "float64", "e"), 0.0), S(T((16,), "float64", "e"), -0.0),
                S(T((2, 3), "float64"), float("inf")), S(T((2, 3), "float64"), float("nan")),
                S(2.5, T((2, 3))), S(3, T((2, 3), "int64")), S(T((2, 3)), [1.0, 2.0, 3.0])]
    out += [S(T((2, 3), grad=False), T((3,), grad=False), out=T((2, 3), grad=False)),
            S(T((2, 3)), T((3,)), out=T((2, 3), grad=False)),
            S(T((2, 3), "int64"), T((2, 3), "int64"), out=T((2, 3), "float32", grad=False)),
            S(T((2, 3), "float32", grad=False), T((3,), "float32", grad=False),
              out=T((2, 3), "int64", grad=False))]
    out += [S(T((2, 3), "complex128"), T((2, 3), "complex128")),
            S(T((2, 3), "complex64"), T((3,), "float64")), S(T((2, 3), "complex128"), 2.5)]
    return out


def ternary(op: str, kinds=("n", "n", "n"), kw: dict | None = None) -> list:
    S = maker(op, kw=kw)
    a, b, c = kinds
    out = [S(T((2, 3), dt, a), T((2, 3), dt, b), T((2, 3), dt, c)) for dt in ALL_DTYPES]
    out += [S(T((2, 3), "float32", a), T((3,), "float64", b), T((2, 1), "float32", c)),
            S(T((), kind=a), T((2, 3), kind=b), T((3,), kind=c)),
            S(T((0, 3), kind=a), T((3,), kind=b), T((1,), kind=c)),
            S(T((2, 3), kind=a), T((4,), kind=b), T((3,), kind=c)),
            S(T((16,), "float64", "e"), T((16,), "float64", "e"), T((16,), "float64", "e")),
            S(T((2, 3), "int64", a), T((2, 3), "float32", b), T((2, 3), "float64", c)),
            S(T((2, 3), grad=False, kind=a), T((2, 3), grad=False, kind=b),
              T((2, 3), grad=False, kind=c), out=T((2, 3), grad=False)),
            S(T((2, 3), kind=a), T((2, 3), kind=b), T((2, 3), kind=c),
              out=T((2, 3), grad=False))]
    return out


def with_extras(base: list, op: str, extras: list) -> list:
    """``base`` plus samples ``(args, kwargs)`` of ``extras`` (or ``(args, kwargs, tag)``)."""
    ns, name = op.split(".", 1)
    more = [Sample(ns, name, e[0], e[1] if len(e) > 1 else {}, e[2] if len(e) > 2 else "")
            for e in extras]
    return base + more


X = T((2, 3))
XE = T((16,), "float64", "e")
XI = T((2, 3), "int64")

UNARY = """abs absolute acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan
atanh ceil cos cosh deg2rad digamma erf erfc erfinv exp exp2 expm1 fix floor frac isfinite isinf
isnan isneginf isposinf isreal lgamma log log10 log1p log2 logical_not neg negative positive
rad2deg reciprocal relu rsqrt sgn sigmoid sign signbit sin sinc sinh sqrt square tan tanh trunc
angle conj conj_physical resolve_conj real imag bitwise_not""".split()
SPECIAL_UNARY = "digamma entr erf erfc erfinv exp2 expit expm1 gammaln log1p ndtr psi sinc".split()
# torch.special's Bessel, Airy and error-function family (special_functions)
SPECIAL_MORE = """i0 i0e i1 i1e erfcx log_ndtr ndtri airy_ai bessel_j0 bessel_j1 bessel_y0 bessel_y1
modified_bessel_i0 modified_bessel_i1 modified_bessel_k0 modified_bessel_k1
scaled_modified_bessel_k0 scaled_modified_bessel_k1 spherical_bessel_j0""".split()
POLYNOMIALS = [f"{s}chebyshev_polynomial_{k}" for s in ("", "shifted_") for k in "tuvw"] + [
    "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
    "legendre_polynomial_p"]
BINARY = """add sub mul div divide true_divide multiply subtract atan2 arctan2 pow float_power
fmod remainder floor_divide maximum minimum fmax fmin hypot copysign logaddexp logaddexp2 xlogy
nextafter heaviside ldexp eq ne lt le gt ge greater greater_equal less less_equal not_equal
logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor""".split()

EXTRAS = {
    "torch.add": [((X, X), {"alpha": 2}), ((X, X), {"alpha": 0.5}), ((XI, XI), {"alpha": 0.5}),
                  ((XI, XI), {"alpha": 2}), ((T((2, 3), "bool"), True), {"alpha": True})],
    "torch.sub": [((X, X), {"alpha": 2}), ((XI, XI), {"alpha": 0.5}),
                  ((T((2, 3), "bool"), T((2, 3), "bool")), {})],
    "torch.div": [((X, T((2, 3), kind="t")), {"rounding_mode": m})
                  for m in ("trunc", "floor", None, "bad")]
    + [((T((14,), "int64", "e"), T((14,), "int64", "t")), {"rounding_mode": m})
       for m in ("trunc", "floor")] + [((XE, XE), {"rounding_mode": "floor"})],
    "torch.pow": [((X, 2), {}), ((X, 0.5), {}), ((X, -1), {}), ((XI, -1), {}), ((XI, 2), {}),
                  ((T((2, 3), "bool"), 1), {}), ((2, X), {}), ((2.0, XI), {}), ((XE, 0), {}),
                  ((T((2, 3), "int64"), T((2, 3), "int64", "t")), {}), ((X, 3), {})],
    "torch.round": [((X,), {"decimals": 2}), ((XE,), {"decimals": 1}), ((XI,), {"decimals": 1}),
                    ((T((2, 3), "float32"),), {"decimals": -1})],
    "torch.nan_to_num": [((XE,), {"nan": 1.5, "posinf": 7.0, "neginf": -7.0}),
                         ((T((16,), "float16", "e"),), {"posinf": 1e6}),
                         ((XE, 0.25), {})],
    "torch.logit": [((T((2, 3), kind="01"),), {"eps": 0.1}), ((XE, 1e-6), {}),
                    ((T((2, 3), kind="01"), None), {})],
    "torch.clamp": [((X, -0.5, 0.5), {}), ((X,), {"min": 0.0}), ((X,), {"max": 0.0}),
                    ((X, 2, 1), {}), ((X,), {}), ((XI, -1.5, 2.5), {}), ((XI, 0, 2), {}),
                    ((XE, -1.0, 1.0), {}), ((X, T((3,)), T((2, 1))), {}),
                    ((X, None, T((3,))), {}), ((T((2, 3), "bool"), 0, 1), {}),
                    ((X, T((3,)), 0.5), {}), ((T((2, 3), kind="t"), T((2, 3), kind="t"),
                                               T((2, 3), kind="t")), {})],
    "torch.heaviside": [((XE, T((16,), "float64", "t")), {})],
    "torch.ldexp": [((X, T((2, 3), "int64")), {}), ((X, T((2, 3), "int32")), {})],
}
EXTRAS["torch.clip"] = EXTRAS["torch.clamp"]
EXTRAS["torch.divide"] = EXTRAS["torch.div"]
EXTRAS["torch.subtract"] = EXTRAS["torch.sub"]


def polygamma() -> list:
    S = maker("torch.polygamma")
    out = [S(n, T((2, 3), kind="p")) for n in (0, 1, 2, 3)]
    out += [S(1, T((2, 3), dt)) for dt in ALL_DTYPES] + [S(1, XE), S(-1, X), S(1, T(())),
                                                         S(1.5, X), S(1, T((0,)))]
    out += [S(1, T((2, 3), grad=False), out=T((2, 3), grad=False))]
    return out


def mvlgamma() -> list:
    S = maker("torch.mvlgamma")
    out = [S(T((2, 3), kind="p"), p) for p in (1, 2, 3)]
    out += [S(T((2, 3), dt, "p"), 2) for dt in ALL_DTYPES]
    out += [S(T((2, 3), "float64", "n"), 2), S(T((2, 3), kind="p")), S(T((), kind="p"), 1),
            S(T((2, 3), kind="p"), 0), S(T((2, 3), kind="p"), p=2)]
    return out


def where() -> list:
    S, C = maker("torch.where"), T((2, 3), "bool")
    out = [S(C, T((2, 3), dt), T((2, 3), dt)) for dt in ALL_DTYPES]
    out += [S(T((3,), "bool"), T((2, 3), "float32"), T((2, 1), "float64")),
            S(T((), "bool"), X, T((3,))), S(T((0, 3), "bool"), T((3,)), T((1,))),
            S(C, T((4,)), X), S(C, X, 0.0), S(C, 1, 0), S(C, 1.5, XI), S(C, XI, 2.5),
            S(C, T((2, 3), "float16"), 1e5), S(C), S(T((2, 3), "float32"), X, X),
            S(T((2, 3), "uint8"), X, X), S(T((16,), "bool"), XE, XE),
            S(C, T((2, 3), grad=False), T((2, 3), grad=False), out=T((2, 3), grad=False)),
            S(C, X, X, out=T((2, 3), grad=False)), S(C, [1.0, 2.0, 3.0], X)]
    return out


def special_unary(op: str) -> list:
    """``unary``'s samples and wider values: large arguments, negative ones, probabilities."""
    S = maker(op)
    return unary(op) + [S(T((2, 3), "float64", "p")), S(T((16,), "float32", "e")),
                        S(T((2, 3), "float64", "01")), S(T((3, 4), "float64", "i")),
                        S(T((2, 3), "float32", "01"))]


def incomplete_gamma(op: str) -> list:
    S = maker(op)
    return binary(op, scalars=False) + [
        S(T((2, 3), "float64", "p"), T((2, 3), "float64", "p")),
        S(T((2, 3), "float32", "p"), T((2, 3), "float32", "p")),
        S(T((2, 3), "float64", "p"), T((3,), "float64", "01")),
        S(T((2, 3), "float64", "i"), T((2, 3), "float64", "p")),
        S(T((2, 3), "float64", "p"), T((2, 3), "float64", "p", grad=False)),
        S(T((2, 3), "float64", "p", grad=False), T((2, 3), "float64", "p")),
        S(T((2, 3), "float16", "p"), T((2, 3), "float16", "p")), S(T((2, 3), "float32"), 2.0)]


def polynomial(op: str) -> list:
    """x of every dtype and edge values; n a number (negative, fractional, high: the
    trigonometric forms), or a tensor of degrees (integers, floats, edge values)."""
    S = maker(op)
    out = [S(T((2, 3), dt), 3) for dt in ALL_DTYPES]
    out += [S(T((2, 3), kind="u"), n) for n in (0, 1, 2, 5, 7, 9, 12, -1, 2.5)]
    out += [S(XE, n) for n in (0, 1, 2, 3, 8, 10)] + [S(T((16,), "float32", "e"), 4)]
    out += [S(T((2, 3), kind="u"), T((2, 3), "int64", "p")), S(T((3,)), T((2, 1), "int64", "t")),
            S(T((2, 3), "float32"), T((2, 3), "float64", "i")), S(T((2, 3), "int64"), 2),
            S(0.5, T((2, 3), "int64", "p")), S(T((2, 3), kind="pm1"), 4), S(T((2, 3)), 20),
            S(T(()), 3), S(T((0,)), 3), S(T((2, 3), "float64", "u"), 30),
            S(T((2, 3), grad=False), 3, out=T((2, 3), grad=False)),
            S(T((2, 3), "float32", grad=False), 3, out=T((2, 3), "float64", grad=False)),
            S(T((2, 3), "complex128"), 2), S(T((2, 3), "float16"), 2), S(2.5, 3),
            S(T((2, 3)), T((2, 3), "float64", "e"))]
    return out


def table() -> dict:
    """op -> a function returning its samples."""
    out = {}
    for name in UNARY:
        out[f"torch.{name}"] = functools.partial(unary, f"torch.{name}")
    for name in SPECIAL_UNARY:
        out[f"special.{name}"] = functools.partial(unary, f"special.{name}")
    for name in BINARY:
        out[f"torch.{name}"] = functools.partial(binary, f"torch.{name}")
    for name in SPECIAL_MORE:
        out[f"special.{name}"] = functools.partial(special_unary, f"special.{name}")
    out["torch.i0"] = functools.partial(special_unary, "torch.i0")
    for name in POLYNOMIALS:
        out[f"special.{name}"] = functools.partial(polynomial, f"special.{name}")
    for op in ("torch.igamma", "torch.igammac", "special.gammainc", "special.gammaincc"):
        out[op] = functools.partial(incomplete_gamma, op)
    for name in ("xlogy", "xlog1py", "zeta"):
        out[f"special.{name}"] = functools.partial(binary, f"special.{name}")
    out["special.zeta"] = lambda: binary("special.zeta") + [
        Sample("special", "zeta", (T((6,), kind="u"), 1.0), {}, ""),
        Sample("special", "zeta", (T((2, 3), kind="p"), T((2, 3), kind="p")), {}, "")]
    for name in ("round", "nan_to_num", "logit"):
        out[f"torch.{name}"] = functools.partial(lambda n: with_extras(
            unary(f"torch.{n}"), f"torch.{n}", EXTRAS[f"torch.{n}"]), name)
    out["special.round"] = functools.partial(unary, "special.round")
    out["special.logit"] = functools.partial(unary, "special.logit")
    for name in ("clamp", "clip"):
        out[f"torch.{name}"] = functools.partial(
            lambda n: with_extras(unary(f"torch.{n}", post=(-0.5, 0.5)), f"torch.{n}",
                                  EXTRAS[f"torch.{n}"]), name)
    for op, extras in EXTRAS.items():
        name = op.split(".")[1]
        if name in BINARY:
            out[op] = functools.partial(lambda o, e: with_extras(binary(o), o, e), op, extras)
    for name in ("complex", "polar"):
        out[f"torch.{name}"] = functools.partial(binary, f"torch.{name}")
    out["torch.view_as_real"] = lambda: [Sample("torch", "view_as_real", (T(s, dt),))
                                         for dt in ("complex128", "complex64", "float64")
                                         for s in [(2, 3), ()]]
    out["torch.view_as_complex"] = lambda: [Sample("torch", "view_as_complex", (T(s, dt),))
                                            for dt in ("float64", "float32", "float16",
                                                       "int64", "complex128")
                                            for s in [(3, 2), (2,), (3, 3)]]
    out["torch.polygamma"] = polygamma
    out["special.polygamma"] = lambda: [Sample("special", "polygamma", s.args, s.kwargs, s.tag)
                                        for s in polygamma()]
    out["torch.mvlgamma"] = mvlgamma
    out["special.multigammaln"] = lambda: [Sample("special", "multigammaln", s.args, s.kwargs,
                                                  s.tag) for s in mvlgamma()]
    out["torch.where"] = where
    out["torch.lerp"] = lambda: ternary("torch.lerp", ("n", "n", "01")) + [
        Sample("torch", "lerp", (X, X, 0.3)), Sample("torch", "lerp", (X, X, 2))]
    for name in ("addcmul", "addcdiv"):
        out[f"torch.{name}"] = functools.partial(lambda n: ternary(f"torch.{n}") + [
            Sample("torch", n, (X, X, X), {"value": 0.5}),
            Sample("torch", n, (XI, XI, XI), {"value": 2}),
            Sample("torch", n, (XI, XI, XI), {"value": 0.5})], name)
    return out
