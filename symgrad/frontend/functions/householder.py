"""Householder reflectors as LAPACK stores them: torch.geqrf (the QR factorization in
reflectors), torch.linalg.householder_product (torch.orgqr: the Q they make) and torch.ormqr
(Q times a matrix).

Layer: front end, above ``basic`` and ``torch_nodes``. Input: tensors of (batches
of) float or complex matrices. Output: geqrf's (a, tau) as LAPACK's ``geqrf`` gives them
(reflector i is v = [0..0, 1, a[i+1:, i]], H_i = I - tau_i v v^H; tau from ``larfg``: beta =
-sign(Re alpha) ||(alpha, x)||), eagerly, whose backward raises as torch's (a complex input
that requires grad: torch's forward error); householder_product and ormqr composed of
matmuls and masks (so differentiable to any order, and compiled too), under torch's grad_fn
names; float32 and complex64 ones computed in float64 and complex128 and rounded once
(``_in_double``).
"""

from __future__ import annotations

import numpy as np

from . import basic as F
from ..core import grad_mode
from ..core.apply import as_tensor
from .basic import composite
from .manipulation import tril
from .shapes import cat, stack
from .printing import return_type
from .torch_nodes import named_outputs
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["geqrf", "householder_product", "orgqr", "ormqr"]

GeqrfResult = return_type("geqrf", ("a", "tau"))


def _np_geqrf(a: np.ndarray) -> tuple:
    """LAPACK's unblocked ``geqr2``: (reflectors and R packed, tau). Column i's reflector
    H_i = I - tau v v^H (``_reflector``) is applied to the columns after it as H_i^H."""
    reflector = _complex_reflector if np.iscomplexobj(a) else _real_reflector
    r = np.array(a, dtype=a.dtype, copy=True)
    k = min(a.shape[-2:])
    tau = np.zeros(a.shape[:-2] + (k,), a.dtype)
    for i in range(k):
        diagonal, tau[..., i], r[..., i + 1:, i] = reflector(r[..., i, i].copy(),
                                                             r[..., i + 1:, i])
        r[..., i, i] = diagonal
        v = np.concatenate([np.ones(a.shape[:-2] + (1,), a.dtype), r[..., i + 1:, i]], -1)
        block = r[..., i:, i + 1:]   # (conj is a no-op on real values)
        r[..., i:, i + 1:] = block - np.conj(tau[..., i])[..., None, None] * v[..., :, None] * (
            v[..., None, :].conj() @ block)
    return r, tau


def _real_reflector(alpha: np.ndarray, x: np.ndarray) -> tuple:
    """``dlarfg``: (beta, tau, v's tail) with beta = -sign(alpha) ||(alpha, x)||; a zero x
    needs no reflection (tau 0, alpha kept)."""
    xnorm = np.sqrt((x * x).sum(-1))
    beta = -np.copysign(np.hypot(alpha, xnorm), alpha)
    keep = xnorm == 0
    safe = np.where(keep, 1, beta)
    scale = np.where(keep, 1, alpha - beta)[..., None]
    return (np.where(keep, alpha, beta), np.where(keep, 0, (beta - alpha) / safe),
            np.where(keep[..., None], x, x / scale))


def _complex_reflector(alpha: np.ndarray, x: np.ndarray) -> tuple:
    """``zlarfg``: beta = -sign(Re alpha) ||(alpha, x)||, real; tau = (beta - alpha) / beta;
    v's tail x / (alpha - beta)."""
    xnorm = np.sqrt((x.real ** 2 + x.imag ** 2).sum(-1))
    norm = np.sqrt(alpha.real ** 2 + alpha.imag ** 2 + xnorm ** 2)
    beta = -np.copysign(norm, alpha.real)
    keep = (xnorm == 0) & (alpha.imag == 0)
    safe = np.where(keep, 1, beta)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(keep, 1, 1 / (alpha - beta))[..., None]
    return (np.where(keep, alpha, beta),
            np.where(keep, 0, (beta - alpha.real) / safe - 1j * alpha.imag / safe),
            np.where(keep[..., None], x, x * scale))


def _real_matrix(name: str, a: Tensor, what: str = "input") -> None:
    if a.ndim < 2:
        raise RuntimeError(f"{name}: {what} must have at least 2 dimensions.")
    if not a.dtype.is_differentiable:
        raise NotImplementedError(f"\"{name.split('.')[-1]}_cpu\" not implemented for "
                                  f"'{a.dtype.scalar_type}'")


def geqrf(input) -> GeqrfResult:  # noqa: A002
    """(a, tau): R in a's upper triangle, the Householder vectors below it."""
    a = tensor_arg(input)
    _real_matrix("torch.geqrf", a)
    if a.dtype.is_complex and a.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("geqrf does not support automatic differentiation for outputs with "
                           "complex dtype.")
    if a.concrete is None:
        raise NotImplementedError("torch.geqrf is not supported inside symgrad.compile (use "
                                  "linalg.qr)")

    def body(a):
        r, tau = _np_geqrf(a.concrete)
        return as_tensor(r, dtype=a.dtype), as_tensor(tau, dtype=a.dtype)

    def rule(gs, ins):
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")
    return GeqrfResult(*named_outputs("GeqrfBackward0", body, [a], rule))


def _reflector(a: Tensor, i: int) -> Tensor:
    """v_i (*, m, 1): zeros above row i, 1 at row i, a[i+1:, i] below."""
    m = a.shape[-2]
    below = as_tensor((np.arange(m) > i).astype(np.dtype(a.dtype.np)))
    at = as_tensor((np.arange(m) == i).astype(np.dtype(a.dtype.np)))
    return (a[..., :, i] * below + at).unsqueeze(-1)


def _apply(a: Tensor, tau: Tensor, c: Tensor, left: bool, transpose: bool) -> Tensor:
    """Q c (Q^H c if ``transpose``; c Q, c Q^H if not ``left``), Q = H_0 H_1 ... H_(k-1)."""
    k = tau.shape[-1]
    # Q c = H_0 (H_1 (... H_(k-1) c)): the last reflector first; Q^T c the first first
    first_last = left == transpose
    order = range(k) if first_last else range(k - 1, -1, -1)
    complex_ = a.dtype.is_complex
    for i in order:
        v = _reflector(a, i)
        vh = v.mT.conj() if complex_ else v.mT
        t = tau[..., i].unsqueeze(-1).unsqueeze(-1)
        t = t.conj() if complex_ and transpose else t   # H^H = I - conj(tau) v v^H
        if left:
            c = c - F.matmul(v * t, F.matmul(vh, c))
        else:
            c = c - F.matmul(F.matmul(c, v), vh * t)
    return c


def _check_pair(name: str, a: Tensor, tau: Tensor) -> None:
    _real_matrix(name, a)
    if tau.ndim != a.ndim - 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.ndim} and input.ndim is equal to "
                           f"{a.ndim}")
    if tau.dtype is not a.dtype:
        raise RuntimeError(f"{name}: tau dtype {tau.dtype.scalar_type} does not match input "
                           f"dtype {a.dtype.scalar_type}")


def householder_product(A, tau) -> Tensor:
    """The first n columns of H_0 ... H_(k-1) (m x n), from geqrf's reflectors in A's
    columns."""
    a, t = tensor_arg(A), tensor_arg(tau)
    name = "torch.linalg.householder_product"
    _check_pair(name, a, t)
    if a.shape[-2] < a.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           f"input.shape[-1]")
    if a.shape[-1] < t.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           f"tau.shape[-1]")
    m, n = a.shape[-2:]

    def body(a, t):
        eye = as_tensor(np.eye(m, n, dtype=np.dtype(a.dtype.np)))
        return _apply(a, t, eye * 1.0 + a[..., :, :n] * 0.0, True, False)
    if a.numel() == 0 or t.numel() == 0 or a.dtype.is_complex:
        rule = None
    else:
        rule = _product_rule
    body, rule = _in_double(body, rule, a.dtype)
    return composite("LinalgHouseholderProductBackward0", body, [a, t], rule)


def _reflect(k: Tensor, v: Tensor, t: Tensor, i: int, left: bool) -> Tensor:
    """(I - t v v^T) K (K (I - t v v^T) if not ``left``), v zero above row i: only K's rows
    (columns) from i change."""
    vi = v[..., i:, :]
    if left:
        u = F.matmul(vi.mT, k[..., i:, :])
        return cat([k[..., :i, :], k[..., i:, :] - (t.unsqueeze(-1) * vi) * u], -2)
    u = F.matmul(k[..., :, i:], t.unsqueeze(-1) * vi)
    return cat([k[..., :, :i], k[..., :, i:] - u * vi.mT], -1)


def _product_rule(g: Tensor, out: Tensor, ins: list) -> tuple:
    """torch's householder_product_backward: K = Q G^T carried from reflector to reflector
    (K <- H_(i+1)^-1 K H_i, H(t)^-1 = H(t / (t ||v||^2 - 1))), each reflector's gradients
    read off K."""
    a, tau = ins
    m, k = a.shape[-2], tau.shape[-1]
    ones = as_tensor(np.eye(m, a.shape[-1], dtype=np.dtype(a.dtype.np)))
    v_all = tril(a, -1) + ones
    sigma = tau / (tau * (v_all[..., :, :k] * v_all[..., :, :k]).sum(-2) - 1.0)
    kk = _reflect(F.matmul(out, g.mT), v_all[..., :, 0:1], sigma[..., 0:1], 0, True)
    grads, tau_grads = [], []
    for i in range(k):
        v, t = v_all[..., :, i:i + 1], tau[..., i:i + 1]
        vi = v[..., i:, :]
        vhk = F.matmul(vi.mT, kk[..., i:, :])
        kv = F.matmul(kk[..., :, i:], vi)
        tu = t.unsqueeze(-1)
        grads.append((-tu * vhk).squeeze(-2) - (tu * kv).squeeze(-1))
        tau_grads.append(-F.matmul(vhk[..., :, i:], vi).squeeze(-1))
        if i != k - 1:
            kk = _reflect(kk, v_all[..., :, i + 1:i + 2], sigma[..., i + 1:i + 2], i + 1, True)
            kk = _reflect(kk, v, t, i, False)
    grads += [a[..., :, 0] * 0.0] * (a.shape[-1] - k)
    return tril(stack(grads, -1), -1), cat(tau_grads, -1)


def orgqr(input, tau) -> Tensor:  # noqa: A002
    """``torch.orgqr``: linalg.householder_product."""
    return householder_product(input, tau)


def ormqr(input, tau, other, left: bool = True, transpose: bool = False) -> Tensor:  # noqa: A002
    """Q other (other Q if not ``left``; Q^T if ``transpose``), Q the m x m product of the
    reflectors in input's columns (geqrf's)."""
    a, t, c = tensor_arg(input), tensor_arg(tau), tensor_arg(other)
    name = "torch.ormqr"
    _real_matrix(name, a)
    if c.ndim < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if c.shape[side] != a.shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
    if t.shape[-1] > min(c.shape[side], a.shape[-1]):
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[{side}], "
                           f"input.shape[-1])")
    _check_pair(name, a, t)
    body, _ = _in_double(lambda a, t, c: _apply(a, t, c, bool(left), bool(transpose)), None,
                         a.dtype if a.dtype is c.dtype else None)
    return composite("OrmqrBackward0", body, [a, t, c])


def _in_double(body, rule, dt):
    """(body, rule) computing float32 (complex64) in float64 (complex128), rounded once: torch's
    LAPACK and BLAS round float32 in an order of their blocking that symgrad does not
    reproduce, so symgrad gives the more accurate result (the sweep accepts a float32 one at
    least as accurate as torch's, measured against torch in float64). The rule recomputes
    the output in the wide dtype rather than reading the rounded one."""
    if dt is None or dt.accumulates_in is dt:
        return body, rule
    wide = dt.accumulates_in

    def wide_body(*ins):
        return body(*[t.to(wide) for t in ins]).to(dt)
    if rule is None:
        return wide_body, None

    def wide_rule(g, out, ins):
        wins = [t.to(wide) for t in ins]
        grads = rule(g.to(wide), body(*wins), wins)
        return tuple(None if x is None else x.to(t.dtype) for x, t in zip(grads, ins))
    return wide_body, wide_rule


METHODS = {"geqrf": geqrf, "orgqr": orgqr, "ormqr": ormqr}
