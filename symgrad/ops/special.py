"""NumPy references for the special functions NumPy lacks: erf, erfc, lgamma (Python's math,
elementwise), digamma, polygamma, Hurwitz zeta and erfinv (vectorized here).

Layer: ops (NumPy and the standard library only). Input: NumPy arrays. Output: arrays of the
input's floating dtype; float32 is computed in float64 and rounded once.

These are the eager implementation and the interpreter's oracle for the generated C, whose
helpers (``codegen/c/helpers.py``) follow the same algorithms in C; the tests hold both to
mpmath and to torch. The algorithms, and where they differ from torch's:

* digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic series
  ln x - 1/(2x) - sum B_2k / (2k x^2k) (8 terms: below 1e-16 relative there); reflection
  psi(x) = psi(1 - x) - pi / tan(pi x) for x < 0. psi(+-0) = -+inf and NaN at the negative
  integers, as torch.
* trigamma (polygamma of order 1): the same scheme, psi1(x) = psi1(x + 1) + 1/x^2 and
  1/x + 1/(2x^2) + sum B_2k / x^(2k+1); reflection psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x).
  At the negative integers torch's reflection, pi^2 / sin(pi x)^2 with pi x rounded, gives
  a large finite number rather than the pole's +inf: symgrad gives torch's (0 stays +inf).
* zeta(s, q) (Hurwitz), and polygamma of order n >= 2 as (-1)^(n+1) n! zeta(n + 1, x):
  Euler-Maclaurin summation, the first N terms summed directly, N chosen so q + N >= max(16,
  2 s), then 10 Bernoulli terms. inf at s == 1, NaN for s < 1; at q <= 0 an integer is a pole
  (inf), and a negative non-integer q needs an integer s (else NaN), as torch; q = inf and
  orders above 1e6 (no summation) give torch's values (NaN, and inf / 1 / NaN by q).
* erfinv: an approximation good to a few 1e-3, refined by three Halley steps on erf (on erfc
  for |y| > 0.5, where erf(x) - y would cancel). +-inf at +-1, NaN outside [-1, 1].
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["BERNOULLI", "digamma", "erf", "erfc", "erfinv", "lgamma", "polygamma", "zeta"]


def _bernoulli(n: int) -> list[Fraction]:
    """B_0 .. B_n exactly (B_1 = -1/2), from the recurrence sum_k C(m+1, k) B_k = 0."""
    b = [Fraction(1)]
    for m in range(1, n + 1):
        b.append(-sum(math.comb(m + 1, k) * b[k] for k in range(m)) / (m + 1))
    return b


BERNOULLI = _bernoulli(40)


def _float_of(x: np.ndarray):
    """(float64 array of x, the dtype results take)."""
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    return x.astype(np.float64), dtype


def _elementwise(fn):
    """A float function of Python's math applied to every element (NumPy has no erf)."""
    ufunc = np.frompyfunc(fn, 1, 1)

    def numpy(x):
        v, dtype = _float_of(x)
        return np.asarray(ufunc(v), dtype=np.float64).astype(dtype)   # 0-d: a float
    numpy.__name__ = fn.__name__
    return numpy


def _lgamma(v: float) -> float:
    if v <= 0 and math.isfinite(v) and v == math.floor(v):
        return math.inf          # the poles (math raises there)
    return math.lgamma(v)


erf = _elementwise(math.erf)
erfc = _elementwise(math.erfc)
lgamma = _elementwise(_lgamma)


def _series(z, coefficients):
    """sum_k c_k z^k for k = 1.. (Horner)."""
    acc = np.zeros_like(z)
    for c in reversed(coefficients):
        acc = (acc + c) * z
    return acc


# psi(x) ~ ln x - 1/(2x) - sum_k B_2k / (2k) x^-2k ; psi1(x) ~ 1/x + 1/(2x^2) + sum_k B_2k x^-(2k+1)
DIGAMMA_SERIES = [float(BERNOULLI[2 * k] / (2 * k)) for k in range(1, 9)]
TRIGAMMA_SERIES = [float(BERNOULLI[2 * k]) for k in range(1, 10)]
SHIFT = 10.0


def _shifted(x, step):
    """Apply ``acc += step(x); x += 1`` until every x >= SHIFT: (x, acc)."""
    acc = np.zeros_like(x)
    x = x.copy()
    while True:
        low = x < SHIFT
        if not low.any():
            return x, acc
        acc = np.where(low, acc + step(np.where(low, x, 1.0)), acc)
        x = np.where(low, x + 1.0, x)


def _digamma_positive(x):
    x, acc = _shifted(x, lambda v: -1.0 / v)
    z = 1.0 / (x * x)
    return acc + (np.log(x) - 0.5 / x - _series(z, DIGAMMA_SERIES))


def _trigamma_positive(x):
    x, acc = _shifted(x, lambda v: 1.0 / (v * v))
    z = 1.0 / (x * x)
    return acc + (1.0 / x + 0.5 * z + _series(z, TRIGAMMA_SERIES) / x)


def _reflected(x, positive, reflection):
    """``positive`` at x > 0, ``reflection(x, positive(1 - x))`` at x < 0 (NaN stays NaN)."""
    neg = x < 0
    arg = np.where(neg, 1.0 - x, x)
    arg = np.where(np.isfinite(arg) & (arg > 0), arg, SHIFT)   # no work at 0, inf, NaN
    value = positive(arg)
    r = x - np.round(x)            # tan(pi x) = tan(pi r), r in [-1/2, 1/2]: exact, accurate
    with np.errstate(all="ignore"):
        out = np.where(neg, reflection(r, value), value)
    return out, neg


def digamma(x):
    v, dtype = _float_of(x)
    with np.errstate(all="ignore"):
        out, neg = _reflected(v, _digamma_positive, lambda r, p: p - np.pi / np.tan(np.pi * r))
        out = np.where(v == 0, np.copysign(np.inf, -v), out)
        out = np.where(neg & (v == np.floor(v)), np.nan, out)     # negative integers, -inf
        out = np.where(v == np.inf, np.inf, np.where(np.isnan(v), np.nan, out))
    return out.astype(dtype)


_FLOAT64 = np.dtype(np.float64)


def _trigamma(v, dtype=_FLOAT64):
    with np.errstate(all="ignore"):
        out, neg = _reflected(v, _trigamma_positive,
                              lambda r, p: (np.pi / np.sin(np.pi * r)) ** 2 - p)
        out = np.where((v <= 0) & (v == np.floor(v)), np.inf, out)
        out = np.where(np.isinf(v), np.where(v > 0, 0.0, np.nan), np.where(np.isnan(v), v, out))
        return _trigamma_poles(v, out, dtype)


def _trigamma_poles(v, out, dtype):
    """torch's value at the negative integers: its reflection's pi^2 / sin(pi x)^2, with pi x
    rounded in the dtype's precision (float32 for float32 and below), so that sin is tiny
    but not 0: a large finite number. 0 itself stays +inf."""
    pole = (v < 0) & (v == np.floor(v)) & np.isfinite(v)
    if not pole.any():
        return out
    single = dtype.itemsize <= 4
    ct = np.float32 if single else np.float64
    x = v[pole].astype(ct)
    pi = ct(np.pi)
    s = np.sin((pi * x).astype(np.float64)).astype(ct)        # sinf: correctly rounded
    reflected = (pi * pi) / (s * s)
    out = out.copy()
    out[pole] = (reflected.astype(np.float64) - _trigamma_positive(1.0 - v[pole])).astype(ct)
    return out


ZETA_TERMS = 10
ZETA_MIN_SHIFT = 16.0
HUGE_ORDER = 1e6          # orders above it: no summation (its 2 s terms would never end)
# B_2j / (2j)!, j = 1..ZETA_TERMS: the Euler-Maclaurin coefficients.
ZETA_COEFFICIENTS = [float(BERNOULLI[2 * j] / math.factorial(2 * j))
                     for j in range(1, ZETA_TERMS + 1)]


def _zeta_one(s: float, q: float) -> float:
    """Hurwitz zeta at one point (Euler-Maclaurin; see the module's docstring)."""
    if s == 1:
        return math.inf              # torch's order of tests: whatever q is, NaN too;
    if s < 1:
        return math.nan
    if q <= 0:
        if q == np.floor(q):         # the poles (and -inf, as the C helper's floor says),
            return math.inf          # whatever s is, NaN too
        if s != np.floor(s):
            return math.nan
    if math.isnan(s) or math.isnan(q):
        return math.nan
    if math.isinf(q):
        return math.nan              # torch's 0 / 0 in its convergence test
    if s > HUGE_ORDER:               # a^-s is 0 beyond q: torch's q^-s, and NaN past 1
        return math.inf if q < 1 else 1.0 if q == 1 else math.nan
    # NumPy scalars: IEEE overflow to inf, as in C (Python's float ** raises instead)
    shift, total, a = max(ZETA_MIN_SHIFT, 2.0 * s), np.float64(0.0), np.float64(q)
    while a < shift:                # the C helper's loop, in the same order
        total += a ** -s
        a += 1.0
    tail = a ** (1.0 - s) / (s - 1.0) + 0.5 * a ** -s
    rising, power = s, a ** (-s - 1.0)       # s (s+1) ... (s+2j-2) and a^(-s-2j+1)
    for j, c in enumerate(ZETA_COEFFICIENTS, start=1):
        tail += c * rising * power
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        power /= a * a
    return total + tail




def _zeta_quiet(s: float, q: float) -> float:
    with np.errstate(all="ignore"):
        return float(_zeta_one(s, q))


_zeta = np.frompyfunc(_zeta_quiet, 2, 1)


def zeta(s, q):
    (sv, dtype), (qv, dq) = _float_of(s), _float_of(q)
    out = np.asarray(_zeta(sv, qv), dtype=np.float64)
    return out.astype(np.result_type(dtype, dq))


def polygamma(n, x):
    """polygamma(n, x) for a (broadcast) integer order n >= 0."""
    (nv, _), (v, dtype) = _float_of(n), _float_of(x)
    nv, v = np.broadcast_arrays(nv, v)
    out = np.empty(v.shape)
    for order in np.unique(nv):
        at = nv == order
        if order == 0:
            out[at] = digamma(v[at])
        elif order == 1:
            out[at] = _trigamma(v[at], dtype)
        else:
            k = int(order)
            scale = (-1.0) ** (k + 1) * math.factorial(k)
            out[at] = scale * np.asarray(_zeta(order + 1.0, v[at]), dtype=np.float64)
    return out.astype(dtype)


WINITZKI_A = 0.147
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def erfinv(y):
    v, dtype = _float_of(y)
    with np.errstate(all="ignore"):
        w = -np.log1p(-v * v)                       # -ln(1 - y^2) >= 0
        t = 2.0 / (np.pi * WINITZKI_A) - 0.5 * w
        x = np.copysign(np.sqrt(np.sqrt(t * t + w / WINITZKI_A) - t), v)
        tail = np.abs(v) > 0.5
        c = 1.0 - np.abs(v)                          # exact for |y| > 0.5
        for _ in range(3):
            ax = np.abs(x)
            residual = np.where(tail, c - erfc(ax), erf(ax) - np.abs(v))  # f(|x|)
            slope = TWO_OVER_SQRT_PI * np.exp(-ax * ax)
            ax = ax - residual / (slope + ax * residual)                   # Halley
            x = np.copysign(ax, v)
        x = np.where(np.abs(v) == 1.0, np.copysign(np.inf, v), x)
        x = np.where(v == 0, v, x)
        x = np.where((np.abs(v) > 1) | np.isnan(v), np.nan, x)
    return x.astype(dtype)
