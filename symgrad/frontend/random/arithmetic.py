"""The arithmetic of torch's CPU sampling kernels, reproduced bit for bit with NumPy.

Layer: front end (imports nothing of symgrad). Input: NumPy arrays. Output: arrays rounded
exactly as torch's compiled kernels round them. It draws nothing (``random_engine`` does) and
knows no distribution (``random_kernels`` does).

Three things make a kernel's numbers differ from a plain NumPy formula, and each has its tool:

- Fused multiply-add. torch's kernels are compiled with FMA contraction on x86-64 with AVX2 or
  AVX-512 (``a*b + c`` rounded once): ``fma32`` and ``fma64`` compute exactly that, from
  error-free transformations (Knuth's TwoSum, Dekker's product) and rounding to odd (Boldo and
  Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to
  odd", IEEE TC 2008). ``muladd`` picks fused or plain by the caller's flag.
- The C library. Scalar kernels call glibc's ``log``, ``log1p``, ``sin``, ``cos``, ``exp``,
  ``tan``; NumPy's own vectorized float64 ``log``/``log1p``/``exp`` differ from glibc's in the
  last bit now and then, so ``libm`` calls Python's ``math`` functions (the same C library)
  element by element.
- torch's AVX2 ``randn`` for float32 computes ``log`` and ``sincos`` with Cephes polynomials in
  8-lane float32 (``avx_mathfun.h``, after Julien Pommier's ``sse_mathfun``), with the
  multiply-adds the compiler fused. ``avx_log`` and ``avx_sincos`` follow those operations one
  by one: which products are fused was found by comparing with torch 2.13, and matches GCC's
  rule (a product whose one use is an addition becomes an FMA).
"""

from __future__ import annotations

import math

import numpy as np

_F = np.float32
_SPLIT = 134217729.0   # 2**27 + 1: Dekker's splitting constant for doubles


def _two_sum(a, b):
    """``s + e == a + b`` exactly, ``s`` the rounded sum."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_prod(a, b):
    """``p + e == a * b`` exactly (no overflow, no underflow of the error term)."""
    p = a * b
    ta, tb = _SPLIT * a, _SPLIT * b
    ah, bh = ta - (ta - a), tb - (tb - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _round_to_odd(s, err):
    """The double nearest ``s + err`` rounded to odd, ``s`` being ``s + err`` rounded to
    nearest: ``s`` if exact or odd, else its neighbour on the side of ``err``."""
    even = (s.view(np.int64) & 1) == 0
    fix = (err != 0) & even
    if not fix.any():
        return s
    toward = np.where(err > 0, np.inf, -np.inf)
    return np.where(fix, np.nextafter(s, toward), s)


def fma64(a, b, c) -> np.ndarray:
    """``a*b + c`` in float64 with one rounding (C's ``fma``)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    uh, ul = _two_prod(a, b)
    th, tl = _two_sum(c, uh)
    return th + _round_to_odd(*_two_sum(tl, ul))


def fma32(a, b, c) -> np.ndarray:
    """``a*b + c`` in float32 with one rounding. The product is exact in float64 and the sum
    ``s`` is rounded once there; rounding ``s`` to float32 then gives the right result unless
    ``s`` is a tie between two floats (or in float32's subnormal range) while the sum was
    inexact: those few are redone, rounding ``s`` to odd first (which makes the double
    rounding harmless)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, _F).astype(np.float64) for v in (a, b, c)))
    s = a * b + c
    out = np.asarray(s.astype(_F))
    bits = s.view(np.int64)
    suspect = ((bits & 0x1FFFFFFF) == 0x10000000) | ((bits & _EXPONENT) < _SUBNORMAL32)
    if suspect.any():
        p = a[suspect] * b[suspect]
        out[suspect] = _round_to_odd(*_two_sum(p, c[suspect])).astype(_F)
    return out


_EXPONENT = 0x7FF0 << 48
_SUBNORMAL32 = (1023 - 126) << 52   # doubles below 2**-126


def muladd(a, b, c, fused: bool):
    """``a*b + c`` as torch's kernel rounds it: once if ``fused``, else after each step."""
    if np.isscalar(b) and np.isscalar(c) and b == 1 and c == 0:
        return np.asarray(a)     # exact either way
    dt = np.result_type(a, b, c)
    if fused:
        return fma32(a, b, c) if dt == _F else fma64(a, b, c)
    return np.asarray(np.asarray(a, dt) * np.asarray(b, dt) + np.asarray(c, dt), dt)


def libm(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` (a ``math`` function: the C library's) applied to every element, in float64."""
    x = np.asarray(x, np.float64)
    return np.fromiter(map(fn, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)


# ------------------------------------------------------------------ avx_mathfun's log, sincos
_LOG_P = tuple(_F(v) for v in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1,
                               -1.2420140846E-1, 1.4249322787E-1, -1.6668057665E-1,
                               2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1))
_LOG_Q1, _LOG_Q2 = _F(-2.12194440e-4), _F(0.693359375)
_SQRTHF = _F(0.707106781186547524)
_MIN_NORM = np.array(0x00800000, np.int32).view(_F)
_HALF_BITS = int(np.array(0.5, _F).view(np.int32))
_DP = tuple(_F(v) for v in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8))
_FOPI = _F(1.27323954473516)   # 4 / pi
_COS_P = tuple(_F(v) for v in (2.443315711809948E-005, -1.388731625493765E-003,
                               4.166664568298827E-002))
_SIN_P = tuple(_F(v) for v in (-1.9515295891E-4, 8.3321608736E-3, -1.6666654611E-1))


def avx_log(x: np.ndarray) -> np.ndarray:
    """Natural log of float32 ``x``, as ``log256_ps`` computes it (NaN for ``x <= 0``)."""
    invalid = x <= 0
    x = np.maximum(x, _MIN_NORM)
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(_F) + _F(1)
    x = ((bits & ~0x7F800000) | _HALF_BITS).view(_F)        # the mantissa, in [0.5, 1)
    small = x < _SQRTHF
    tmp = np.where(small, x, _F(0))
    x = x - _F(1)
    e = e - np.where(small, _F(1), _F(0))
    x = x + tmp
    z = x * x
    y = np.full_like(x, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = fma32(y, x, p)
    y = y * x
    y = fma32(y, z, e * _LOG_Q1)
    y = fma32(z, _F(-0.5), y)
    x = x + y
    x = fma32(e, _LOG_Q2, x)
    return np.where(invalid, _F(np.nan), x)


def avx_sincos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sin, cos) of float32 ``x``, as ``sincos256_ps`` computes them."""
    sign_sin = np.signbit(x)
    x = np.abs(x)
    j = (x * _FOPI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(_F)
    sign_sin = sign_sin ^ ((j & 4) != 0)
    sign_cos = ((j - 2) & 4) == 0
    use_sin_poly = (j & 2) == 0
    for dp in _DP:                       # extended-precision reduction by pi/4
        x = fma32(y, dp, x)
    z = x * x
    c = fma32(fma32(_COS_P[0], z, _COS_P[1]), z, _COS_P[2])
    c = fma32(c * z, z, -(z * _F(0.5))) + _F(1)
    s = fma32(fma32(_SIN_P[0], z, _SIN_P[1]), z, _SIN_P[2])
    s = fma32(s * z, x, x)
    s_part = np.where(use_sin_poly, s, _F(0))
    c_part = np.where(use_sin_poly, _F(0), c)
    sin = c_part + s_part
    cos = (c - c_part) + (s - s_part)
    return (np.where(sign_sin, -sin, sin).astype(_F),
            np.where(sign_cos, -cos, cos).astype(_F))


TWO_PI_F32 = _F(2 * math.pi)
