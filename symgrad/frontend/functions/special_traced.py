"""The compiled forms of the torch.special functions that have a short one: the orthogonal
polynomials of a Python-int degree (up to 64) and ``spherical_bessel_j0``.

Layer: front end. Input: a traced tensor ``x`` (inside ``@symgrad.compile``), the function's
name and, for a polynomial, its int degree. Output: the same values as the eager NumPy
references (``ops.polynomials``, ``ops.bessel``), composed of elementwise ops so that they
compile to C: the recurrence unrolled (a NaN, once reached, stays NaN: torch's early stop
gives the same value), torch's closed values at the edges and its trigonometric forms of a
high degree inside (-1, 1), as ``where`` selections. Other functions, degrees that are
tensors or above 64, raise the caller's TracerValueError.
"""

from __future__ import annotations

import math

from . import basic as F
from . import pointwise as P

MAX_DEGREE = 64
_THRESHOLD = {("t", False): 6, ("u", False): 8, ("v", False): 8, ("w", False): 8,
              ("t", True): 6, ("u", True): 6, ("v", True): 6, ("w", True): 4}


def _ones(x):
    """1 of x's shape (also where x is NaN or infinite)."""
    return F.where(F.eq(x, x), 1.0, 1.0)


def spherical_j0(x):
    s = F.mul(x, x)
    acc = F.div(s, 6227020800.0)
    for c in (-1 / 39916800, 1 / 362880, -1 / 5040, 1 / 120, -1 / 6):
        acc = F.mul(s, F.add(acc, c))
    out = F.where(F.lt(F.abs(x), 0.5), F.add(acc, 1.0), F.div(F.sin(x), x))
    return F.where(F.isinf(x), 0.0, out)


def _recurrence(first, step, x, n: int):
    if n == 0:
        return _ones(x)
    p, q = _ones(x), first(x)
    for k in range(2, n + 1):
        p, q = q, step(k, x, q, p)
    return q


def _chebyshev(kind: str, shifted: bool, x, n: int):
    y = F.sub(F.add(x, x), 1.0) if shifted else x
    first = {"t": lambda v: v, "u": lambda v: F.add(v, v), "v": lambda v: F.sub(F.add(v, v), 1.0),
             "w": lambda v: F.add(F.add(v, v), 1.0)}[kind]
    out = _recurrence(first, lambda k, v, q, p: F.sub(F.mul(F.add(v, v), q), p), y, n)
    if n > _THRESHOLD[kind, shifted]:
        theta = P.acos(F.clamp(y, -1.0, 1.0))
        half = F.div(theta, 2.0)
        odd = n % 2 == 1
        if kind == "t":
            trig = F.cos(F.mul(theta, float(n)))
        elif kind == "u":
            s = F.sin(theta)
            trig = F.where(F.ne(s, 0.0), F.div(F.sin(F.mul(theta, n + 1.0)), s),
                           F.div(F.mul(F.cos(F.mul(theta, n + 1.0)), n + 1.0), y))
        elif kind == "v":
            trig = F.where(F.ne(F.sin(half), 1.0), F.div(F.cos(F.mul(theta, n + 0.5)),
                                                         F.cos(half)),
                           -(2.0 * n + 1) if odd else 2.0 * n + 1)
        else:
            trig = F.where(F.ne(F.cos(half), 1.0), F.div(F.sin(F.mul(theta, n + 0.5)),
                                                         F.sin(half)),
                           F.where(F.gt(y, 0.0), 2.0 * n + 1, -1.0 if odd else 1.0))
        out = F.where(F.lt(F.abs(y), 1.0), trig, out)
    odd = n % 2 == 1
    ends = {"t": (1.0, -1.0 if odd else 1.0), "u": (n + 1.0, -(n + 1.0) if odd else n + 1.0),
            "v": (1.0, -(2.0 * n + 1) if odd else 2.0 * n + 1),
            "w": (2.0 * n + 1, -1.0 if odd else 1.0)}[kind]
    top, bottom = (F.eq(x, 1.0), F.eq(x, 0.0)) if shifted else (F.eq(y, 1.0), F.eq(y, -1.0))
    return F.where(top, ends[0], F.where(bottom, ends[1], out))


def _others(name: str, x, n: int):
    if name == "hermite_polynomial_h":
        if n > (128 if x.dtype.name == "float32" else 512):
            return F.mul(x, math.nan)
        return _recurrence(lambda v: F.add(v, v), lambda k, v, q, p: F.sub(
            F.mul(F.add(v, v), q), F.mul(p, 2.0 * (k - 1))), x, n)
    if name == "hermite_polynomial_he":
        if n > (128 if x.dtype.name == "float32" else 512):
            return F.mul(x, math.nan)
        return _recurrence(lambda v: v, lambda k, v, q, p: F.sub(F.mul(v, q),
                                                                 F.mul(p, k - 1.0)), x, n)
    if name == "laguerre_polynomial_l":
        out = _recurrence(lambda v: F.sub(1.0, v), lambda k, v, q, p: F.div(F.sub(
            F.mul(F.add(F.sub(1.0, v), 2.0 * (k - 1)), q), F.mul(p, k - 1.0)), float(k)), x, n)
        return F.where(F.eq(F.abs(x), 0.0), 1.0, out)
    out = _recurrence(lambda v: v, lambda k, v, q, p: F.div(F.sub(
        F.mul(F.mul(v, 2.0 * k - 1), q), F.mul(p, k - 1.0)), float(k)), x, n)
    odd = n % 2 == 1
    return F.where(F.eq(F.abs(x), 1.0), F.where(F.gt(x, 0.0), 1.0, -1.0 if odd else 1.0), out)


def polynomial(name: str, x, n) -> object:
    """The polynomial ``name`` of int degree ``n`` at traced ``x`` (None: no short form)."""
    if isinstance(n, bool) or not isinstance(n, int) or n > MAX_DEGREE:
        return None
    if n < 0:
        return F.where(F.eq(x, x), 0.0, 0.0)
    if "chebyshev" in name:
        return _chebyshev(name[-1], name.startswith("shifted"), x, n)
    return _others(name, x, n)
