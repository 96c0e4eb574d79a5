"""NumPy references for torch.special's orthogonal polynomials of degree n: Chebyshev T U V W
and their shifted forms, Hermite H and He, Laguerre L, Legendre P.

Layer: ops (NumPy only). Input: x and n, arrays broadcast together, in the dtype torch
computes in (float32 or float64: the recurrences overflow, and stop, where torch's do).
Output: an array of that dtype.

torch's semantics, element by element: n is truncated to an integer (a NaN, an infinity or a
float beyond int64 counts as negative: C's conversion gives INT64_MIN on x86); a negative n
gives 0; the exact edges (x = +-1 for Chebyshev and Legendre, 0 and 1 for the shifted forms,
0 for Laguerre) have closed values; a Chebyshev polynomial of a high degree inside (-1, 1) is
its trigonometric form (cos(n acos y)...); otherwise the three-term recurrence runs up to
degree n, stopping early where a value becomes NaN (an overflow), except Hermite's, which
gives NaN above degree 512 (128 in float32). The recurrence runs for all elements at once,
one step per degree, up to the largest degree still running.
"""

from __future__ import annotations

import numpy as np

__all__ = ["POLYNOMIALS", "evaluate"]

_LIMIT = np.float64(2.0 ** 63)


def _degrees(n: np.ndarray) -> np.ndarray:
    """n as C's (int64_t) cast does it on x86 (INT64_MIN for NaN, infinities, overflow)."""
    if n.dtype.kind in "iub":
        return n.astype(np.int64)
    with np.errstate(all="ignore"):
        ok = np.isfinite(n) & (np.abs(n) < _LIMIT)
        return np.where(ok, np.trunc(np.where(ok, n, 0)), -_LIMIT).astype(np.int64)


def _fused(step):
    """``step(k, x, q, p, narrow)`` of float32 values rounded once, as torch's compiled
    a * b - c is (a fused multiply-add): computed in float64, where the float32 product is
    exact; ``narrow`` rounds a term torch rounds on its own (c's product) to float32."""
    def run(k, x, q, p):
        if x.dtype != np.float32:
            return step(k, x, q, p, lambda v: v)
        wide = np.float64
        return step(k, x.astype(wide), q.astype(wide), p.astype(wide),
                    lambda v: v.astype(np.float32).astype(wide)).astype(np.float32)
    return run


def _recurrence(first, step, x, n, stop_on_nan=True):
    """p_n by p_{k} = step(k, x, p_{k-1}, p_{k-2}), k = 2..n (p_0 = 1, p_1 = first(x))."""
    one = np.ones_like(x)
    p, q = one, first(x)
    out = np.where(n == 0, one, q)
    live = n >= 2
    k = 2
    with np.errstate(all="ignore"):
        while live.any():
            r = step(k, x, q, p)
            out = np.where(live, r, out)
            p, q = q, r
            k += 1
            live = live & (k <= n)
            if stop_on_nan:
                live &= ~np.isnan(q)
    return out


def _chebyshev(kind: str, shifted: bool):
    """T U V W; ``shifted``: of y = 2x - 1 (torch's thresholds differ)."""
    threshold = {"t": 6, "u": 6 if shifted else 8, "v": 6 if shifted else 8,
                 "w": 4 if shifted else 8}[kind]
    first = {"t": lambda y: y, "u": lambda y: y + y, "v": lambda y: y + y - 1,
             "w": lambda y: y + y + 1}[kind]

    def fn(x, n):
        y = x + x - 1 if shifted else x
        two = x.dtype.type(2)
        top, bottom = (x == 1, x == 0) if shifted else (y == 1, y == -1)
        with np.errstate(all="ignore"):
            trig = (n > threshold) & (np.abs(y) < 1)
            closed = trig | top | bottom | (n < 0)
            out = _recurrence(first, _fused(lambda k, y_, q, p, r: (y_ + y_) * q - p), y,
                              np.where(closed, 0, n))
            theta = np.arccos(np.clip(y, -1, 1))
            out = np.where(trig, _trig(kind, theta, n, y, two), out)
        odd = (n % 2) == 1
        ends = {"t": (1, np.where(odd, -1, 1)), "u": (n + 1, np.where(odd, -(n + 1), n + 1)),
                "v": (1, np.where(odd, -(2 * n + 1), 2 * n + 1)),
                "w": (2 * n + 1, np.where(odd, -1, 1))}[kind]
        out = np.where(top, ends[0], np.where(bottom, ends[1], out))
        return np.where(n < 0, 0, out).astype(x.dtype)
    return fn


def _trig(kind, theta, n, y, two):
    """The trigonometric forms inside (-1, 1), with torch's fallbacks where they divide by 0."""
    odd = (n % 2) == 1
    half = theta / two
    if kind == "t":
        return np.cos(n * theta)
    if kind == "u":
        s = np.sin(theta)
        return np.where(s != 0, np.sin((n + 1) * theta) / s, (n + 1) * np.cos((n + 1) * theta) / y)
    if kind == "v":
        return np.where(np.sin(half) != 1, np.cos((n + 0.5) * theta) / np.cos(half),
                        np.where(odd, -(2 * n + 1), 2 * n + 1))
    return np.where(np.cos(half) != 1, np.sin((n + 0.5) * theta) / np.sin(half),
                    np.where(y > 0, 2 * n + 1, np.where(odd, -1, 1)))


def _hermite(physicists: bool):
    def fn(x, n):
        limit = 128 if x.dtype == np.float32 else 512
        if physicists:
            out = _recurrence(lambda v: v + v, _fused(
                lambda k, v, q, p, r: (v + v) * q - r((2 * (k - 1)) * p)), x,
                np.minimum(n, limit + 1), stop_on_nan=False)
        else:
            out = _recurrence(lambda v: v, _fused(lambda k, v, q, p, r: v * q - r(
                (k - 1) * p)), x, np.minimum(n, limit + 1), stop_on_nan=False)
        out = np.where(n > limit, np.nan, out)
        return np.where(n < 0, 0, out).astype(x.dtype)
    return fn


def _laguerre(x, n):
    one = x.dtype.type(1)
    out = _recurrence(lambda v: one - v,
                      lambda k, v, q, p: (((2 * (k - 1)) + (one - v)) * q - (k - 1) * p) / k, x, n)
    out = np.where(np.abs(x) == 0, 1, out)
    return np.where(n < 0, 0, out).astype(x.dtype)


def _legendre(x, n):
    out = _recurrence(lambda v: v, lambda k, v, q, p: ((2 * k - 1) * v * q - (k - 1) * p) / k,
                      x, n)
    out = np.where(np.abs(x) == 1, np.where((x > 0) | (n % 2 == 0), 1, -1), out)
    return np.where(n < 0, 0, out).astype(x.dtype)


POLYNOMIALS = {f"{'shifted_' if s else ''}chebyshev_polynomial_{k}": _chebyshev(k, s)
               for s in (False, True) for k in "tuvw"}
POLYNOMIALS.update({"hermite_polynomial_h": _hermite(True), "hermite_polynomial_he":
                    _hermite(False), "laguerre_polynomial_l": _laguerre,
                    "legendre_polynomial_p": _legendre})


def evaluate(name: str, x: np.ndarray, n: np.ndarray, dtype) -> np.ndarray:
    """The polynomial ``name`` of degree ``n`` at ``x``, computed in ``dtype``."""
    x, n = np.broadcast_arrays(np.asarray(x).astype(dtype), _degrees(np.asarray(n)))
    return POLYNOMIALS[name](x, n)
