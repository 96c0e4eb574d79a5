"""NumPy references for torch.special's Bessel and Airy functions: i0 i0e i1 i1e (modified,
first kind), k0 k1 and their scaled forms (second kind), j0 j1 y0 y1 (ordinary), airy_ai and
spherical_bessel_j0.

Layer: ops (NumPy only). Input: float64 arrays. Output: float64 arrays (the front end rounds
to the result's dtype once). The algorithms are symgrad's own, chosen to be accurate to a few
ulps (1e-13 relative or better, absolute near the zeros of the oscillating ones), and to give
torch's values at its edges (0, +-inf, NaN, negative arguments of the K and Y families):

* I_n scaled (e^-|x| I_n(x)), |x| <= 50: the trapezoid rule on (1/pi) int_0^pi e^{|x|(cos t -
  1)} cos(n t) dt, a periodic analytic integrand (the rule converges geometrically; 96 nodes);
  beyond, Hankel's asymptotic series. I_n itself is the scaled value times e^|x|.
* K_n, x <= 2: the power series (A&S 9.6.13, 9.6.11); beyond 2 and up to 50 the trapezoid
  rule on e^x K_nu(x) = int_0^inf e^{-x(cosh t - 1)} cosh(nu t) dt (even in t: geometric
  convergence); beyond 50, the asymptotic series. The same integral gives K_{1/3} for Airy.
* J_n, |x| <= 25: the trapezoid rule on Bessel's integral (1/pi) int_0^pi cos(n t - x sin t)
  dt; beyond, Hankel's P/Q asymptotic series with the phase x - (n/2 + 1/4) pi as torch's
  Cephes rounds it. Y_n, x <= 12: the power series (A&S 9.1.13, 9.1.11); beyond, Hankel's.
* Ai: the Maclaurin series on [-7, 1]; above 1, (1/pi) sqrt(x/3) K_{1/3}(2/3 x^1.5); below -7
  the oscillating asymptotic series (A&S 10.4.60), its phase and prefactor rounded as torch's
  kernel rounds them in the result's dtype (torch's Cephes form applies below -2.09; from -7
  to -2.09 its float32 phase moves the value by less than 1e-6).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["airy_ai", "i0", "i0e", "i1", "i1e", "j0", "j1", "k0", "k0e", "k1", "k1e",
           "spherical_j0", "y0", "y1"]

EULER = 0.5772156649015329
_THETA = np.linspace(0.0, math.pi, 97)            # trapezoid nodes on [0, pi]
_T_WEIGHTS = np.full(97, 1.0 / 96)
_T_WEIGHTS[[0, -1]] = 0.5 / 96
_STEP = 0.05                                      # the K integral's step on t in [0, 6]
_T = np.arange(0.0, 6.0 + _STEP / 2, _STEP)
_K_WEIGHTS = np.full(_T.size, _STEP)
_K_WEIGHTS[0] = _STEP / 2


def _hankel_terms(nu: float, count: int = 40) -> list[float]:
    """a_k(nu) = prod_{j<=k} (4 nu^2 - (2j - 1)^2) / (k! 8^k), k = 0..count-1."""
    mu, out, a = 4.0 * nu * nu, [1.0], 1.0
    for k in range(1, count):
        a *= (mu - (2 * k - 1) ** 2) / (k * 8.0)
        out.append(a)
    return out


def _asymptotic_sum(terms: list[float], z: np.ndarray, sign: float) -> np.ndarray:
    """sum_k sign^k a_k / z^k, stopped (per element) at its smallest term."""
    with np.errstate(all="ignore"):
        inv = 1.0 / z
        total, power, last = np.zeros_like(z), np.ones_like(z), np.full_like(z, np.inf)
        live = np.ones(z.shape, dtype=bool)
        for k, a in enumerate(terms):
            term = (sign ** k) * a * power
            live &= np.abs(term) < last
            total = np.where(live, total + term, total)
            last = np.where(live, np.abs(term), last)
            power = power * inv
    return total


def _guarded(x: np.ndarray, where: np.ndarray, fill: float) -> np.ndarray:
    return np.where(where, x, fill)


# ---------------------------------------------------------------- modified, first kind

def _i_scaled(x: np.ndarray, n: int) -> np.ndarray:
    """e^-|x| I_n(|x|) for x >= 0 (NaN stays NaN)."""
    tiny = x <= 2.0
    small = (x > 2.0) & (x <= 50.0)
    out = np.empty_like(x)
    if tiny.any():
        out[tiny] = _i_series(x[tiny], n) * np.exp(-x[tiny])
    if small.any():
        xs = x[small][:, None]
        with np.errstate(all="ignore"):
            integrand = np.exp(xs * (np.cos(_THETA) - 1.0)) * np.cos(n * _THETA)
        out[small] = integrand @ _T_WEIGHTS
    big = ~(small | tiny)
    if big.any():
        xb = x[big]
        with np.errstate(all="ignore"):
            out[big] = _asymptotic_sum(_hankel_terms(n), xb, -1.0) / np.sqrt(
                2.0 * math.pi * xb)
    return out


def i0e(x):
    x = np.asarray(x, dtype=np.float64)
    return _i_scaled(np.abs(x), 0)


def i1e(x):
    x = np.asarray(x, dtype=np.float64)
    out = _i_scaled(np.abs(x), 1)
    return np.where(x < 0, -out, out)


def i0(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        return i0e(x) * np.exp(np.abs(x))


def i1(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        return i1e(x) * np.exp(np.abs(x))


def _i_series(x: np.ndarray, n: int) -> np.ndarray:
    """I_n(x) by its power series (x <= 2: 20 terms)."""
    q = x * x / 4.0
    term = np.ones_like(x) if n == 0 else x / 2.0
    total = term.copy()
    for k in range(1, 20):
        term = term * q / (k * (k + n))
        total = total + term
    return total


# ---------------------------------------------------------------- modified, second kind

def _k_integral(x: np.ndarray, nu: float) -> np.ndarray:
    """e^x K_nu(x) for 0.2 <= x <= 50 (the trapezoid rule)."""
    with np.errstate(all="ignore"):
        integrand = np.exp(-x[:, None] * (np.cosh(_T) - 1.0)) * np.cosh(nu * _T)
    return integrand @ _K_WEIGHTS


def _k_series(x: np.ndarray, n: int) -> np.ndarray:
    """K_n(x), 0 < x <= 2, by the power series."""
    with np.errstate(all="ignore"):
        log_half = np.log(x / 2.0)
        q = x * x / 4.0
        if n == 0:
            term, harmonic, total = np.ones_like(x), 0.0, np.zeros_like(x)
            for k in range(1, 22):
                term = term * q / (k * k)
                harmonic += 1.0 / k
                total = total + harmonic * term
            return total - (log_half + EULER) * _i_series(x, 0)
        term = np.ones_like(x)
        psi1, psi2 = -EULER, 1.0 - EULER
        total = (psi1 + psi2) * term
        for k in range(1, 22):
            term = term * q / (k * (k + 1))
            psi1, psi2 = psi1 + 1.0 / k, psi2 + 1.0 / (k + 1)
            total = total + (psi1 + psi2) * term
        return 1.0 / x + log_half * _i_series(x, 1) - x / 4.0 * total


def _k_scaled(x: np.ndarray, n: int) -> np.ndarray:
    """e^x K_n(x): inf at 0, NaN below 0 (and at -inf), 0 at +inf."""
    x = np.asarray(x, dtype=np.float64)
    out = np.full_like(x, np.nan)
    out[x == 0] = np.inf
    series = (x > 0) & (x <= 2.0)
    middle = (x > 2.0) & (x <= 50.0)
    big = x > 50.0
    if series.any():
        xs = x[series]
        with np.errstate(all="ignore"):
            out[series] = _k_series(xs, n) * np.exp(xs)
    if middle.any():
        out[middle] = _k_integral(x[middle], float(n))
    if big.any():
        xb = x[big]
        with np.errstate(all="ignore"):
            out[big] = np.sqrt(math.pi / (2.0 * xb)) * _asymptotic_sum(_hankel_terms(n),
                                                                         xb, 1.0)
    return out


def k0e(x):
    return _k_scaled(x, 0)


def k1e(x):
    return _k_scaled(x, 1)


def _k_unscaled(x, n: int):
    x = np.asarray(x, dtype=np.float64)
    out = _k_scaled(x, n)
    series = (x > 0) & (x <= 2.0)
    with np.errstate(all="ignore"):
        unscaled = out * np.exp(-x)
        if series.any():
            unscaled[series] = _k_series(x[series], n)   # no round trip through e^x
    return unscaled


def k0(x):
    return _k_unscaled(x, 0)


def k1(x):
    return _k_unscaled(x, 1)


# ---------------------------------------------------------------- ordinary

def _hankel(x: np.ndarray, n: int, phase_dtype=np.float64) -> tuple[np.ndarray, np.ndarray]:
    """(J_n, Y_n) for x > 0 large, Hankel's expansion with torch's phase, x - (n/2 + 1/4) pi
    rounded in the dtype torch computes in (``phase_dtype``: a float32 result's kernel)."""
    a = _hankel_terms(n)
    with np.errstate(all="ignore"):
        square = x * x
        p = _asymptotic_sum(a[0::2], square, -1.0)
        q = _asymptotic_sum(a[1::2], square, -1.0) / x
        shift = np.dtype(phase_dtype).type((0.25 if n == 0 else 0.75) * math.pi)
        phase = (x.astype(phase_dtype) - shift).astype(np.float64)
        scale = np.sqrt(2.0 / (math.pi * x))
        return (scale * (p * np.cos(phase) - q * np.sin(phase)),
                scale * (p * np.sin(phase) + q * np.cos(phase)))


def _j_series(x: np.ndarray, n: int) -> np.ndarray:
    """J_n(x) by its power series (|x| <= 2: 20 terms)."""
    q = -x * x / 4.0
    term = np.ones_like(x) if n == 0 else x / 2.0
    total = term.copy()
    for k in range(1, 20):
        term = term * q / (k * (k + n))
        total = total + term
    return total


def _j(x: np.ndarray, n: int, phase_dtype=np.float64) -> np.ndarray:
    ax = np.abs(x)
    out = np.full_like(ax, np.nan)
    tiny = ax <= 2.0
    if tiny.any():
        out[tiny] = _j_series(ax[tiny], n)
    small = (ax > 2.0) & (ax <= 25.0)
    if small.any():
        xs = ax[small][:, None]
        out[small] = np.cos(n * _THETA - xs * np.sin(_THETA)) @ _T_WEIGHTS
    big = ax > 25.0
    if big.any():
        out[big] = _hankel(ax[big], n, phase_dtype)[0]
    return out


def j0(x, phase_dtype=np.float64):
    return _j(np.asarray(x, dtype=np.float64), 0, phase_dtype)


def j1(x, phase_dtype=np.float64):
    x = np.asarray(x, dtype=np.float64)
    out = _j(x, 1, phase_dtype)
    return np.where(x < 0, -out, out)


def _y_series(x: np.ndarray, n: int) -> np.ndarray:
    with np.errstate(all="ignore"):
        log_half = np.log(x / 2.0)
        q = -x * x / 4.0
        if n == 0:
            term, harmonic, total = np.ones_like(x), 0.0, np.zeros_like(x)
            for k in range(1, 60):
                term = term * q / (k * k)
                harmonic += 1.0 / k
                total = total - harmonic * term
            return 2.0 / math.pi * ((log_half + EULER) * j0(x) + total)
        term = np.ones_like(x)
        psi1, psi2 = -EULER, 1.0 - EULER
        total = (psi1 + psi2) * term
        for k in range(1, 60):
            term = term * q / (k * (k + 1))
            psi1, psi2 = psi1 + 1.0 / k, psi2 + 1.0 / (k + 1)
            total = total + (psi1 + psi2) * term
        return -2.0 / (math.pi * x) + 2.0 / math.pi * log_half * j1(x) - x / (2.0 * math.pi) * total


def _y(x, n: int, phase_dtype=np.float64):
    x = np.asarray(x, dtype=np.float64)
    out = np.full_like(x, np.nan)
    out[x == 0] = -np.inf
    small = (x > 0) & (x <= 12.0)
    if small.any():
        out[small] = _y_series(x[small], n)
    big = (x > 12.0) & np.isfinite(x)
    if big.any():
        out[big] = _hankel(x[big], n, phase_dtype)[1]
    return out


def y0(x, phase_dtype=np.float64):
    return _y(x, 0, phase_dtype)


def y1(x, phase_dtype=np.float64):
    return _y(x, 1, phase_dtype)


# ---------------------------------------------------------------- Airy, spherical

AI0, AIP0 = 0.3550280538878172, 0.2588194037928068   # Ai(0), -Ai'(0)


def _airy_series(x: np.ndarray) -> np.ndarray:
    cube = x * x * x
    f, g = np.ones_like(x), x.copy()
    tf, tg = f.copy(), g.copy()
    for k in range(1, 60):
        tf = tf * cube / ((3 * k - 1) * (3 * k))
        tg = tg * cube / ((3 * k) * (3 * k + 1))
        f, g = f + tf, g + tg
    return AI0 * f - AIP0 * g


def _airy_negative(x: np.ndarray, phase_dtype=np.float64) -> np.ndarray:
    """Ai(x) for x < -7 (A&S 10.4.60), with torch's phase: zeta + pi/4 = -2x sqrt(-x) / 3 +
    pi/4 rounded step by step in ``phase_dtype`` (float32's is most of the value at |x| ~ 1e9),
    and its prefactor 1 / (sqrt(pi) (-x)^(1/4)) rounded there too."""
    r = -x
    zeta = 2.0 / 3.0 * r * np.sqrt(r)
    narrow = np.dtype(phase_dtype).type
    rn = r.astype(phase_dtype)
    with np.errstate(all="ignore"):
        phase = ((narrow(2.0) * rn * np.sqrt(rn)) / narrow(3.0)
                 + narrow(0.25) * narrow(math.pi)).astype(np.float64)
        scale = (narrow(1.0 / math.sqrt(math.pi)) / np.sqrt(np.sqrt(rn))).astype(np.float64)
    u, terms = 1.0, [1.0]
    for k in range(1, 40):
        u *= (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216.0 * k)
        terms.append(u)
    with np.errstate(all="ignore"):
        square = zeta * zeta
        p = _asymptotic_sum(terms[0::2], square, -1.0)
        q = _asymptotic_sum(terms[1::2], square, -1.0) / zeta
        return scale * (np.sin(phase) * p - np.cos(phase) * q)


def airy_ai(x, phase_dtype=np.float64):
    x = np.asarray(x, dtype=np.float64)
    out = np.full_like(x, np.nan)
    middle = (x >= -7.0) & (x <= 1.0)
    if middle.any():
        out[middle] = _airy_series(x[middle])
    low = (x < -7.0) & np.isfinite(x)
    if low.any():
        out[low] = _airy_negative(x[low], phase_dtype)
    high = (x > 1.0) & np.isfinite(x)
    if high.any():
        xh = x[high]
        with np.errstate(all="ignore"):
            zeta = 2.0 / 3.0 * xh * np.sqrt(xh)
            scaled = np.empty_like(xh)
            near = zeta <= 50.0
            scaled[near] = _k_integral(zeta[near], 1.0 / 3.0)
            far = ~near
            scaled[far] = np.sqrt(math.pi / (2.0 * zeta[far])) * _asymptotic_sum(
                _hankel_terms(1.0 / 3.0), zeta[far], 1.0)
            out[high] = np.sqrt(xh / 3.0) / math.pi * scaled * np.exp(-zeta)
    return out


def spherical_j0(x):
    """sin(x) / x; a Taylor series below |x| < 0.5, 0 at +-inf."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        s = x * x
        series = 1.0 + s * (-1 / 6 + s * (1 / 120 + s * (-1 / 5040 + s * (1 / 362880 + s * (
            -1 / 39916800 + s / 6227020800)))))
        out = np.where(np.abs(x) < 0.5, series, np.sin(x) / x)
    return np.where(np.isinf(x), 0.0, out)
