"""torch.special.i0e on float16 the way torch's scalar CPU kernel computes it: a Chebyshev series
summed in float16 arithmetic, every product and sum rounded to float16.

Layer: ops (NumPy only). Input: a float16 array. Output: a float16 array.

torch's ``calc_i0e`` is a template whose float16 instance (unlike i0's, i1's and i1e's, which
convert to float32 first) keeps ``T = Half``: its two tables of Chebyshev coefficients (Cephes's
form: e^-x I0(x) on [0, 8] in y = x/2 - 2, e^-x sqrt(x) I0(x) on (8, inf) in y = 32/x - 2) are
float16 numbers (each double literal rounded to float, then to half), and Clenshaw's
recurrence b0 = y b1 - b2 + c rounds after each operation; above 8 the series is divided by
sqrt(x) in float32 and rounded once. The result is several float16 ulps from e^-|x| I0(x).

The coefficients are the Chebyshev coefficients of those two functions (exact mathematical
quantities): computed here, once, by the discrete cosine transform of symgrad's own
``bessel.i0e`` at 96 Chebyshev nodes, then rounded as torch rounds its table.
"""

from __future__ import annotations

import functools

import numpy as np

from .bessel import i0e as _i0e_f64

NODES = 96


def _chebyshev(f, count: int) -> np.ndarray:
    """The first ``count`` coefficients a_k of f(t) = a_0/2 + sum a_k T_k(t) on [-1, 1],
    highest order first (the order Clenshaw's recurrence reads them)."""
    theta = np.pi * (np.arange(NODES) + 0.5) / NODES
    values = f(np.cos(theta))
    k = np.arange(count)[:, None]
    return (2.0 / NODES * (np.cos(k * theta) @ values))[::-1]


@functools.cache
def tables() -> tuple:
    """(below 8, above 8): the float16 coefficient tables of torch's float16 kernel."""
    def low(t):                       # x = 4 (t + 1) on [0, 8]
        return _i0e_f64(4.0 * (t + 1.0))

    def high(t):                      # x = 16 / (t + 1) on (8, inf)
        x = 16.0 / (t + 1.0)
        return _i0e_f64(x) * np.sqrt(x)
    return tuple(_chebyshev(f, n).astype(np.float32).astype(np.float16)
                 for f, n in ((low, 30), (high, 25)))


def _clenshaw(y: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """0.5 (b0 - b2) of b0 = y b1 - b2 + c, in float16 (NumPy rounds each float16 operation
    once, as c10::Half does)."""
    b0 = np.full_like(y, coefficients[0])
    b1 = np.zeros_like(y)
    b2 = b1
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = y * b1 - b2 + c
    return np.float16(0.5) * (b0 - b2)


def i0e(x: np.ndarray) -> np.ndarray:
    """torch's float16 scalar i0e of the float16 array ``x``."""
    low, high = tables()
    x = np.abs(np.asarray(x, dtype=np.float16))
    with np.errstate(all="ignore"):
        below = _clenshaw(x / np.float16(2.0) - np.float16(2.0), low)
        above = _clenshaw(np.float16(32.0) / x - np.float16(2.0), high)
        above = (above.astype(np.float32) / np.sqrt(x.astype(np.float32))).astype(np.float16)
    return np.where(x <= np.float16(8.0), below, above)
