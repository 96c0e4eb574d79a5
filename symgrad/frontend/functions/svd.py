"""torch.linalg.svd, torch.svd and Tensor.svd: the singular value decomposition A = U S V^H.

Layer: front end, above ``decompositions`` and ``basic``. Input: a tensor of (batches of)
float or complex matrices, eager. Output: torch's named tuples (U, S, Vh) or (U, S, V), values
from LAPACK's divide-and-conquer ``gesdd`` (NumPy's, the driver torch uses on the CPU), one
backward node ``LinalgSvdBackward0`` with torch's ``svd_backward`` formula (written on tensors,
so differentiable again; a loss of complex singular vectors that depends on their phase raises
torch's error). Singular vectors are unique only up to sign (phase): the ones given are
LAPACK's. Inside ``symgrad.compile`` (no LAPACK there) U, S and V come from the ``eigh``
primitive of [[0, A], [A^H, 0]] (full_matrices only if square): the same
values up to the singular vectors' signs (phases), the same backward formula.
"""

from __future__ import annotations

import math

import numpy as np

from . import basic as F
from ..core.apply import apply, as_tensor, full as full_like
from .decompositions import check_finite_svd, check_matrix
from .manipulation import diag_embed, flip
from .printing import return_type
from .shapes import broadcast_to, cat
from .torch_nodes import named_outputs
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["svd", "torch_svd"]

SvdResult = return_type("linalg_svd", ("U", "S", "Vh"))
TorchSvdResult = return_type("svd", ("U", "S", "V"))


def _np_svd(a: np.ndarray, full: bool) -> tuple:
    """(U, S, Vh) of each matrix, empty matrices included (identities where torch's are)."""
    m, n = a.shape[-2:]
    k, batch = min(m, n), a.shape[:-2]
    real = np.zeros((), a.dtype).real.dtype
    if a.size == 0:
        eye = lambda r, c: np.broadcast_to(np.eye(r, c, dtype=a.dtype), batch + (r, c)).copy()
        return ((eye(m, m) if full else eye(m, k)), np.zeros(batch + (k,), real),
                (eye(n, n) if full else eye(k, n)))
    u, s, vh = np.linalg.svd(a, full_matrices=full)
    return u.astype(a.dtype), s.astype(real), vh.astype(a.dtype)




def _traced(a: Tensor, full: bool) -> tuple:
    """(U, S, Vh) inside ``symgrad.compile``: from the ``eigh`` primitive (its C kernel) of
    [[0, A], [A^H, 0]], whose k largest eigenvalues are the singular values and whose
    eigenvectors are [u_i; v_i] / sqrt(2) (signs and phases: eigh's convention, not
    LAPACK's)."""
    m, n = a.shape[-2:]
    k = min(m, n)
    if (full and m != n) or k == 0:
        raise NotImplementedError("linalg.svd inside symgrad.compile: only of non-empty "
                                  "matrices, square or with full_matrices=False")
    batch = tuple(a.shape[:-2])
    top = cat([full_like(a, 0.0, batch + (m, m)), a], -1)
    bottom = cat([a.mH, full_like(a, 0.0, batch + (n, n))], -1)
    both = apply("eigh", cat([top, bottom], -2), upper=False)
    lam = flip(both[..., 0, m + n - k:], [-1])
    vec = flip(both[..., 1:, m + n - k:], [-1]) * math.sqrt(2.0)
    return vec[..., :m, :], lam.real if a.dtype.is_complex else lam, vec[..., m:, :].mH


def _decompose(a: Tensor, full: bool) -> tuple:
    check_finite_svd(a)
    if a.concrete is None:
        return _traced(a, full)
    u, s, vh = _np_svd(a.concrete, full)
    return (as_tensor(u, dtype=a.dtype), as_tensor(s, dtype=a.dtype.real_dtype),
            as_tensor(vh, dtype=a.dtype))


def _zero(g, like: Tensor) -> Tensor:
    return g if g is not None else like * 0.0


def svd_rule(gs, ins, full: bool) -> tuple:
    """torch's svd_backward: gA from the cotangents (gU, gS, gVh), any of them None."""
    a = ins[0]
    u, s, vh = linalg_svd(a, full_matrices=False)
    gu, gsv, gvh = gs
    m, n, k = a.shape[-2], a.shape[-1], s.shape[-1]
    if full:   # only the first k singular vectors take part
        gu = None if gu is None else gu[..., :, :k]
        gvh = None if gvh is None else gvh[..., :k, :]
    if gu is None and gvh is None:
        if gsv is None:
            return (None,)
        gsv = gsv.to(a.dtype)
        return (F.matmul(u, gsv.unsqueeze(-1) * vh) if m >= n
                else F.matmul(u * gsv.unsqueeze(-2), vh),)
    uhgu = None if gu is None else _skew(F.matmul(u.mH, gu))
    vhgv = None if gvh is None else _skew(F.matmul(vh, gvh.mH))
    if a.dtype.is_complex and a.concrete is not None:
        _check_phase(uhgu, vhgv, s)
    inner = _inner(uhgu, vhgv, s, gsv, a.dtype)
    if m > n and gu is not None:
        ga = F.matmul(u, inner)
        gusinv = gu / s.unsqueeze(-2)
        ga = ga + gusinv - F.matmul(u, F.matmul(u.mH, gusinv))
        return (F.matmul(ga, vh),)
    if m < n and gvh is not None:
        ga = F.matmul(inner, vh)
        sinvgvh = gvh / s.unsqueeze(-1)
        ga = ga + sinvgvh - F.matmul(F.matmul(sinvgvh, vh.mH), vh)
        return (F.matmul(u, ga),)
    return (F.matmul(u, F.matmul(inner, vh)) if m >= n else F.matmul(F.matmul(u, inner), vh),)


def _skew(x: Tensor) -> Tensor:
    return x - x.mH


def _check_phase(uhgu, vhgv, s) -> None:
    zero = s * 0.0
    im_u = zero if uhgu is None else uhgu.diagonal(0, -2, -1).imag
    im_v = zero if vhgv is None else vhgv.diagonal(0, -2, -1).imag
    if not np.allclose(np.asarray(im_u.detach().numpy()), -np.asarray(im_v.detach().numpy()),
                       rtol=1e-2, atol=1e-2):
        raise RuntimeError("svd_backward: The singular vectors in the complex case are "
                           "specified up to multiplication by e^{i phi}. The specified loss "
                           "function depends on this phase term, making it ill-defined.")


def _inner(uhgu, vhgv, s, gsv, dtype) -> Tensor:
    """Everything of gA between U and V^H: the off-diagonal quotients by
    E_jk = s_k^2 - s_j^2 (1 on the diagonal) and diag(gS)."""
    s2 = s * s
    e = s2.unsqueeze(-2) - s2.unsqueeze(-1)
    k = s.shape[-1]
    eye = broadcast_to(as_tensor(np.eye(k, dtype=bool)), tuple(e.shape))
    e = F.where(eye, 1.0, e)
    sc = s.to(dtype)
    if uhgu is not None and vhgv is not None:
        ret = (uhgu * sc.unsqueeze(-2) + sc.unsqueeze(-1) * vhgv) / e
    elif uhgu is not None:
        ret = (uhgu / e) * sc.unsqueeze(-2)
    else:
        ret = sc.unsqueeze(-1) * (vhgv / e)
    if gsv is not None:
        ret = ret + diag_embed(gsv.to(dtype))
    if dtype.is_complex and uhgu is not None and vhgv is not None:
        ret = ret + diag_embed(uhgu.diagonal(0, -2, -1) / (2.0 * sc))
    return ret


def linalg_svd(A, full_matrices: bool = True, *, driver=None) -> SvdResult:
    """(U, S, Vh) with A = U diag(S) Vh, S descending; U m x m and Vh n x n if
    ``full_matrices``, else m x k and k x n (k = min(m, n))."""
    a = tensor_arg(A)
    check_matrix("linalg.svd", a, square=False)
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    full = bool(full_matrices)
    return SvdResult(*named_outputs("LinalgSvdBackward0", lambda a: _decompose(a, full), [a],
                                    lambda gs, ins: svd_rule(gs, ins, full)))


svd = linalg_svd


def torch_svd(input, some: bool = True, compute_uv: bool = True) -> TorchSvdResult:  # noqa: A002
    """``torch.svd``: (U, S, V) (V, not V^H); with ``compute_uv=False`` U and V are zeros
    (m x m and n x n) and only S is differentiable."""
    a = tensor_arg(input)
    check_matrix("linalg.svd", a, square=False)
    if not compute_uv:
        m, n = a.shape[-2:]
        s = linalg_svd(a, full_matrices=False)[1]
        batch = tuple(a.shape[:-2])
        return TorchSvdResult(as_tensor(np.zeros(batch + (m, m), np.dtype(a.dtype.np))), s,
                              as_tensor(np.zeros(batch + (n, n), np.dtype(a.dtype.np))))
    u, s, vh = linalg_svd(a, full_matrices=not some)
    return TorchSvdResult(u, s, vh.mH)


METHODS = {"svd": torch_svd}
