"""``cholesky_inverse`` of a factor holding NaN or infinity, as torch's LAPACK computes it.

Layer: front end (imports nothing of symgrad). Input: a NumPy batch of lower (or upper)
triangular factors L (only that triangle is read). Output: (L L^T)^-1 the way LAPACK's ``potri``
reaches it: the triangular inverse W = L^-1 column by column from the last (``trti2``, its
matrix-vector products multiplying zeros too, as MKL's ``trmv`` does), then the lower
triangle of W^T W (``lauu2``: row i sums over k >= i only), reflected to the upper one as
torch does (for an upper factor U the mirror images: W = U^-1 from the first column, the
upper triangle of W W^T). The zeros outside the triangle are never multiplied, so a NaN or
infinity of L reaches only the elements LAPACK's order lets it reach; with finite factors
the plain solves give the same numbers to rounding, and take that path.
"""

from __future__ import annotations

import numpy as np


def _triangular_inverse(low: np.ndarray) -> np.ndarray:
    n = low.shape[-1]
    w = np.tril(low).astype(low.dtype, copy=True)
    for j in range(n - 1, -1, -1):
        w[j, j] = 1 / w[j, j]
        x = w[j + 1:, j].copy()
        for c in range(len(x) - 1, -1, -1):    # x := W[j+1:, j+1:] x (lower, from the end)
            col = j + 1 + c
            x[c + 1:] += x[c] * w[col + 1:, col]
            x[c] *= w[col, col]
        w[j + 1:, j] = x * -w[j, j]
    return w


def _lower_product(w: np.ndarray) -> np.ndarray:
    """The lower triangle of W^T W, each element summed over the rows k >= its row."""
    n = w.shape[-1]
    out = np.zeros_like(w)
    for i in range(n):
        for j in range(i + 1):
            out[i, j] = np.dot(w[i:, i], w[i:, j])
    return np.tril(out) + np.tril(out, -1).T


def _triangular_inverse_upper(up: np.ndarray) -> np.ndarray:
    n = up.shape[-1]
    w = np.triu(up).astype(up.dtype, copy=True)
    for j in range(n):
        w[j, j] = 1 / w[j, j]
        x = w[:j, j].copy()
        for c in range(j):                   # x := W[:j, :j] x (upper, from the start)
            x[:c] += x[c] * w[:c, c]
            x[c] *= w[c, c]
        w[:j, j] = x * -w[j, j]
    return w


def _upper_product(w: np.ndarray) -> np.ndarray:
    """The upper triangle of W W^T, each element summed over the columns k >= its column."""
    n = w.shape[-1]
    out = np.zeros_like(w)
    for j in range(n):
        for i in range(j + 1):
            out[i, j] = np.dot(w[i, j:], w[j, j:])
    return np.triu(out) + np.triu(out, 1).T


def cholesky_inverse_nonfinite(factors: np.ndarray, upper: bool) -> np.ndarray:
    """(L L^T)^-1 (or (U^T U)^-1 if ``upper``) per matrix, in LAPACK's order."""
    out = np.empty(factors.shape, dtype=factors.dtype)
    with np.errstate(all="ignore"):
        for index in np.ndindex(factors.shape[:-2]):
            out[index] = _upper_product(_triangular_inverse_upper(factors[index])) if upper \
                else _lower_product(_triangular_inverse(factors[index]))
    return out
