"""torch.linalg.eig and eigvals: eigenvalues and eigenvectors of general square matrices.

Layer: front end, above ``decompositions``, ``complexes`` and ``basic``. Input: a tensor of
(batches of) square float or complex matrices, eager. Output: complex tensors (complex64 for
float32, complex128 for float64): eigenvalues in LAPACK ``geev``'s order and eigenvectors as
columns of unit norm whose largest component is real (NumPy's ``geev``, as torch's CPU kernel),
one backward node ``LinalgEigBackward0`` with torch's ``linalg_eig_backward`` formula (a loss
that depends on the eigenvectors' phases raises torch's error; a real input takes the real part
of the gradient). Complex solves are real solves of twice the size (the ``solve`` primitive).
Inside ``symgrad.compile`` it raises an error naming the op.
"""

from __future__ import annotations

import numpy as np

from . import basic as F
from ..core import grad_mode
from ..core.apply import as_tensor
from .complexes import complex as make_complex
from .decompositions import check_matrix, solve
from .manipulation import diag_embed
from .printing import return_type
from .shapes import cat
from .torch_nodes import named_outputs
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["eig", "eigvals"]

EigResult = return_type("linalg_eig", ("eigenvalues", "eigenvectors"))

def _complex_dtype(a: Tensor):
    return np.complex64 if a.dtype.name in ("float32", "complex64") else np.complex128


def _np_eig(a: Tensor) -> tuple:
    if a.concrete is None:
        raise NotImplementedError("linalg.eig is not supported inside symgrad.compile (a LAPACK "
                                  "call): compute it eagerly, or use linalg.eigh for symmetric "
                                  "matrices")
    values = a.concrete
    cdt = _complex_dtype(a)
    if values.size == 0:
        return (np.zeros(values.shape[:-1], cdt), np.zeros(values.shape, cdt))
    if not np.isfinite(values).all():
        raise RuntimeError("linalg.eig: input tensor should not contain infs or NaNs.")
    w, v = np.linalg.eig(values)
    return w.astype(cdt), v.astype(cdt)


def _decompose(a: Tensor) -> tuple:
    w, v = _np_eig(a)
    return as_tensor(w), as_tensor(v)




def complex_solve(m: Tensor, b: Tensor) -> Tensor:
    """M^-1 B for complex M and B, as the real system [[Re M, -Im M], [Im M, Re M]]."""
    n = m.shape[-1]
    mr, mi, br, bi = m.real, m.imag, b.real, b.imag
    big = cat([cat([mr, -mi], -1), cat([mi, mr], -1)], -2)
    x = solve(big, cat([br, bi], -2))
    return make_complex(x[..., :n, :], x[..., n:, :])


def eig_rule(gs, ins) -> tuple:
    """torch's linalg_eig_backward: gA = V^-H (diag(gL) + off-diagonal of
    (V^H gV - V^H V diag(Re diag(V^H gV))) / conj(L_j - L_i)) V^H."""
    a = ins[0]
    gl, gv = gs
    if gl is None and gv is None:
        return (None,)
    lam, v = eig(a)
    vh = v.mH
    n = a.shape[-1]
    if gv is None:
        ga = complex_solve(vh, gl.unsqueeze(-1) * vh)
    else:
        vhgv = F.matmul(vh, gv)
        diag = vhgv.diagonal(0, -2, -1)
        if not np.allclose(diag.imag.detach().numpy(), 0.0, rtol=1e-2, atol=1e-2):
            raise RuntimeError("linalg_eig_backward: The eigenvectors in the complex case are "
                               "specified up to multiplication by e^{i phi}. The specified loss "
                               "function depends on this quantity, so it is ill-defined.")
        vhgv = vhgv - F.matmul(vh, v * diag.real.unsqueeze(-2).to(v.dtype))
        lc = lam.conj()
        eye = as_tensor(np.eye(n, dtype=bool))
        e = F.where(eye, as_tensor(np.ones((), _complex_dtype(a))), lc.unsqueeze(-2) -
                    lc.unsqueeze(-1))
        inner = vhgv / e
        if gl is not None:
            inner = F.where(eye, diag_embed(gl), inner)
        ga = complex_solve(vh, F.matmul(inner, vh))
    return (ga if a.dtype.is_complex else ga.real,)


def eig(A) -> EigResult:
    """(eigenvalues, eigenvectors) with A V = V diag(L), complex."""
    a = tensor_arg(A)
    check_matrix("linalg.eig", a)
    return EigResult(*named_outputs("LinalgEigBackward0", _decompose, [a], eig_rule))


def eigvals(A) -> Tensor:
    """The eigenvalues of A, complex (linalg.eig's, the eigenvectors dropped)."""
    a = tensor_arg(A)
    check_matrix("linalg.eigvals", a)
    if not (a.requires_grad and grad_mode.is_grad_enabled()):
        return _decompose(a)[0]
    return eig(a)[0]
