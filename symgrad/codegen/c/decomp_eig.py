"""The C of the two longer decompositions: the cyclic Jacobi eigenvalue algorithm (``eigh``)
and Householder QR (``qr``).

Layer: codegen. Input: the element type and the triangle read. Output: the C text of one
batch element's computation, written against the macros ``codegen.c.decomp`` defines (``A_``
the operand, ``S_``/``W_``/``TAU_`` scratch, ``V_``/``W_``/``Q_`` the output, ``N_``, ``M_``,
``KMIN_``, ``K_`` the sizes).

Jacobi rotates away each off-diagonal pair in turn, sweep after sweep, until none is left
above rounding (quadratic convergence: a handful of sweeps); it is as accurate as LAPACK's
tridiagonal QR for the eigenvalues and more so for the eigenvectors. The Householder
reflectors are LAPACK's (``dlarfg``: beta = -sign(alpha) * norm, no reflection for a column
already zero below the diagonal), so Q and R carry the signs NumPy's and torch's carry.
"""

from __future__ import annotations

from string import Template

_JACOBI = """\
/* the symmetric matrix from A's $triangle triangle */
double total = 0;
for (int64_t i = 0; i < N_; i++)
    for (int64_t j = 0; j < N_; j++) {
        S_(i, j) = ($keep) ? A_(i, j) : A_(j, i);
        V_(i, j) = i == j;
        total += (double)S_(i, j) * S_(i, j);
    }
/* cyclic Jacobi sweeps: S_ <- J^T S_ J, V_ <- V_ J for a rotation J in each (p, q) plane */
for (int sweep = 0; sweep < 100 && total == total; sweep++) {
    double off = 0;
    for (int64_t p = 0; p < N_; p++)
        for (int64_t q = p + 1; q < N_; q++) off += (double)S_(p, q) * S_(p, q);
    if (!(off > 0)) break;
    for (int64_t p = 0; p < N_; p++)
        for (int64_t q = p + 1; q < N_; q++) {
            const double apq = S_(p, q), app = S_(p, p), aqq = S_(q, q);
            const double g = 100 * fabs(apq);
            if (($T)(fabs(app) + g) == ($T)fabs(app) && ($T)(fabs(aqq) + g) == ($T)fabs(aqq)) {
                S_(p, q) = 0;      /* below rounding next to both diagonal entries */
                S_(q, p) = 0;
                continue;
            }
            const double theta = (aqq - app) / (2 * apq);
            const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
            const double c = 1 / sqrt(t * t + 1), s = t * c;
            for (int64_t r = 0; r < N_; r++) {
                const double x = S_(r, p), y = S_(r, q);
                S_(r, p) = ($T)(c * x - s * y);
                S_(r, q) = ($T)(s * x + c * y);
            }
            for (int64_t r = 0; r < N_; r++) {
                const double x = S_(p, r), y = S_(q, r);
                S_(p, r) = ($T)(c * x - s * y);
                S_(q, r) = ($T)(s * x + c * y);
            }
            for (int64_t r = 0; r < N_; r++) {
                const double x = V_(r, p), y = V_(r, q);
                V_(r, p) = ($T)(c * x - s * y);
                V_(r, q) = ($T)(s * x + c * y);
            }
            S_(p, q) = 0;
            S_(q, p) = 0;
        }
}
/* eigenvalues ascending, the eigenvectors' columns along (selection sort) */
for (int64_t j = 0; j < N_; j++) W_(j) = S_(j, j);
for (int64_t j = 0; j < N_; j++) {
    int64_t m = j;
    for (int64_t i = j + 1; i < N_; i++)
        if (W_(i) < W_(m)) m = i;
    if (m == j) continue;
    const $T w = W_(j); W_(j) = W_(m); W_(m) = w;
    for (int64_t r = 0; r < N_; r++) { const $T v = V_(r, j); V_(r, j) = V_(r, m); V_(r, m) = v; }
}
/* each eigenvector signed so that its largest-magnitude entry (the first of equal ones) is > 0 */
for (int64_t j = 0; j < N_; j++) {
    int64_t m = 0;
    for (int64_t i = 1; i < N_; i++)
        if (fabs((double)V_(i, j)) > fabs((double)V_(m, j))) m = i;
    if (V_(m, j) < 0)
        for (int64_t r = 0; r < N_; r++) V_(r, j) = -V_(r, j);
}
"""

_HOUSEHOLDER = """\
/* Householder QR: W_ <- R above the diagonal, the reflectors' vectors below it */
for (int64_t i = 0; i < M_; i++)
    for (int64_t j = 0; j < N_; j++) W_(i, j) = A_(i, j);
for (int64_t j = 0; j < KMIN_; j++) {
    /* H_j = I - tau v v^T with v = (1, W_(j+1.., j)) zeroes column j below the diagonal */
    double norm2 = 0;
    for (int64_t i = j + 1; i < M_; i++) norm2 += (double)W_(i, j) * W_(i, j);
    TAU_(j) = 0;
    if (norm2 == 0) continue;
    const double alpha = W_(j, j);
    const double beta = -copysign(sqrt(alpha * alpha + norm2), alpha);
    const double tau = (beta - alpha) / beta, scale = 1 / (alpha - beta);
    TAU_(j) = ($T)tau;
    for (int64_t i = j + 1; i < M_; i++) W_(i, j) = ($T)(W_(i, j) * scale);
    W_(j, j) = ($T)beta;
    for (int64_t c = j + 1; c < N_; c++) {
        double s = W_(j, c);
        for (int64_t i = j + 1; i < M_; i++) s += (double)W_(i, j) * W_(i, c);
        s *= TAU_(j);
        W_(j, c) = ($T)(W_(j, c) - s);
        for (int64_t i = j + 1; i < M_; i++) W_(i, c) = ($T)(W_(i, c) - s * W_(i, j));
    }
}
/* Q = H_0 H_1 ... H_(KMIN-1) applied to the first K_ columns of the identity */
for (int64_t i = 0; i < M_; i++)
    for (int64_t c = 0; c < K_; c++) Q_(i, c) = i == c;
for (int64_t j = KMIN_ - 1; j >= 0; j--) {
    if (TAU_(j) == 0) continue;
    for (int64_t c = 0; c < K_; c++) {
        double s = Q_(j, c);
        for (int64_t i = j + 1; i < M_; i++) s += (double)W_(i, j) * Q_(i, c);
        s *= TAU_(j);
        Q_(j, c) = ($T)(Q_(j, c) - s);
        for (int64_t i = j + 1; i < M_; i++) Q_(i, c) = ($T)(Q_(i, c) - s * W_(i, j));
    }
}
"""


def jacobi(ctype: str, upper: bool) -> str:
    """One symmetric matrix's eigenvalues (into ``W_``) and eigenvectors (``V_``)."""
    return Template(_JACOBI).substitute(T=ctype, triangle="upper" if upper else "lower",
                                        keep="i <= j" if upper else "i >= j")


def householder(ctype: str) -> str:
    """One matrix's Q (into ``Q_``, ``K_`` columns)."""
    return Template(_HOUSEHOLDER).substitute(T=ctype)
