"""torch.linalg.matrix_exp (and torch.matrix_exp, Tensor.matrix_exp): the exponential of square
matrices by torch's scheme, the optimised Taylor polynomials of degree 1, 2, 4, 8, 12 or 18 of
Bader, Blanes and Casas (2019), chosen by the matrix's 1-norm against torch's thresholds, and
scaling and squaring above the last one; a batch of more than one matrix always takes degree
18 with scaling, as torch's CPU kernel does.

Layer: front end, above ``basic`` and ``shapes``. Input: a tensor of square float or complex
matrices, eager. Output: a tensor (grad_fn ``LinalgMatrixExpBackward0``) whose backward is
torch's: the top-right block of the exponential of [[A^H, G], [0, A^H]], itself differentiable.
The degree and the scaling depend on the values, so inside ``symgrad.compile`` it raises.
"""

from __future__ import annotations

import math

import numpy as np

from . import basic as F
from ..core.apply import as_tensor
from .basic import composite
from .creation import eye
from .shapes import broadcast_to, cat, reshape
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg

__all__ = ["matrix_exp"]

THETAS = {"float32": (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                      5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
          "float64": (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                      4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00)}

# the coefficients of the degree-12 and degree-18 polynomials (Bader, Blanes, Casas 2019)
B12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
       (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
        0.01108844528519167989),
       (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
        0.00610700528898058230),
       (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
        -0.00675951846863086359))
B18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
        -8.92138498045729985177e-04, 0.),
       (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00,
        4.98289622525382669416e-01, -6.37898194594723280150e-04),
       (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
        -6.98210122488052056106e-03, 3.34975017086070470649e-05),
       (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
        2.95552570429315521194e-02, -1.39180257516060693404e-05),
       (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
        -1.40086798182036094347e-05))


def _real(a: Tensor) -> str:
    return "float32" if a.dtype.real_dtype.name in ("float32", "float16", "bfloat16") \
        else "float64"


def _coef(a: Tensor, c: float) -> float:
    """``c`` rounded to ``a``'s real precision, as torch's coefficient tables are."""
    return float(np.float32(c)) if _real(a) == "float32" else c


def _combination(a: Tensor, powers: list, coefs) -> Tensor:
    """sum_k coefs[k] * powers[k], in order."""
    out = None
    for p, c in zip(powers, coefs):
        term = p * _coef(a, c)
        out = term if out is None else out + term
    return out


def _powers(a: Tensor, count: int) -> list:
    """The first ``count`` of I, A, A^2, A^3, A^6."""
    ident = broadcast_to(eye(a.shape[-1], dtype=a.dtype), tuple(a.shape))
    out = [ident, a]
    if count > 2:
        out.append(F.matmul(a, a))
    if count > 3:
        out.append(F.matmul(a, out[2]))
    if count > 4:
        out.append(F.matmul(out[3], out[3]))
    return out[:count]


def _t8(a: Tensor) -> Tensor:
    r = math.sqrt(177.0)
    if _real(a) == "float32":
        r = float(np.float32(0.1330413469565007072504e+2))
    x3 = 2.0 / 3.0
    x1, x2 = x3 * ((1.0 + r) / 88.0), x3 * ((1.0 + r) / 352.0)
    x4, x5 = (-271.0 + 29.0 * r) / (315.0 * x3), (-11.0 + 11.0 * r) / (1260.0 * x3)
    x6, x7 = (-99.0 + 11.0 * r) / (5040.0 * x3), (89.0 - r) / (5040.0 * x3)
    y2 = (857.0 - 58.0 * r) / 630.0
    i, a1, a2 = _powers(a, 3)
    a4 = F.matmul(a2, _combination(a, [a1, a2], (x1, x2)))
    a8 = F.matmul(_combination(a, [a2, a4], (x3, 1.0)),
                  _combination(a, [i, a1, a2, a4], (x4, x5, x6, x7)))
    return _combination(a, [i, a1, a2, a8], (1.0, 1.0, y2, 1.0))


def _t12(a: Tensor) -> Tensor:
    ps = _powers(a, 4)
    b = [_combination(a, ps, row) for row in B12]
    b2 = b[2] + F.matmul(b[3], b[3])
    return b[0] + F.matmul(b[1] + b2, b2)


def _t18(a: Tensor) -> Tensor:
    ps = _powers(a, 5)
    b = [_combination(a, ps, row) for row in B18]
    b3 = b[3] + F.matmul(b[0], b[4])
    return b[1] + F.matmul(b[2] + b3, b3)


def _taylor(a: Tensor, degree: int) -> Tensor:
    if degree == 1:
        return _powers(a, 2)[0] + a
    if degree == 2:
        i, a1, a2 = _powers(a, 3)
        return i + a1 + a2 / 2.0
    if degree == 4:
        i, a1, a2 = _powers(a, 3)
        return i + a1 + F.matmul(a2, _combination(a, [i, a1, a2], (0.5, 1 / 6.0, 1 / 24.0)))
    return {8: _t8, 12: _t12}[degree](a)


def _scaled(a: Tensor, norms: np.ndarray, theta: float) -> Tensor:
    """exp of each matrix of the (k, n, n) ``a`` by degree 18 after scaling by 2^-s, then s
    squarings, s = max(0, ceil(log2(norm / theta))) per matrix."""
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.maximum(np.ceil(np.log2(norms / np.asarray(theta, norms.dtype))), 0)
    scale = as_tensor(np.power(2.0, -s).astype(norms.dtype).reshape(-1, 1, 1))
    out = _t18(a * scale.to(a.dtype))
    finite = s[np.isfinite(s)]
    for j in range(int(finite.max()) if finite.size else 0):
        more = as_tensor((s > j).reshape(-1, 1, 1))
        out = F.where(more, F.matmul(out, out), out)
    return out


def _exp_flat(a: Tensor) -> Tensor:
    """The exponential of each matrix of the (k, n, n) ``a``, n >= 2, eagerly."""
    thetas = THETAS[_real(a)]
    norms = np.abs(a.concrete).sum(-2).max(-1).astype(np.dtype(_real(a)))
    if a.shape[0] > 1:
        return _scaled(a, norms, thetas[-1])
    if a.shape[0] == 0:
        return a * 1.0
    norm = float(norms[0])
    low = -1.0
    for degree, theta in zip((1, 2, 4, 8, 12), thetas):
        if low < norm <= theta and norm < thetas[4]:
            return _taylor(a, degree)
        low = theta
    if norm >= thetas[4]:
        return _scaled(a, norms, thetas[-1])
    return a * float("nan")   # a NaN norm: torch's NaN-filled result


def _exp(a: Tensor) -> Tensor:
    n = a.shape[-1]
    if n == 0:
        return a * 1.0
    if n == 1:
        return F.exp(a)
    if a.concrete is None:
        raise NotImplementedError("linalg.matrix_exp: the degree and scaling depend on the "
                                  "values of the matrix, so it is not supported inside "
                                  "symgrad.compile (call it eagerly)")
    flat = reshape(a, (-1, n, n))
    return reshape(_exp_flat(flat), tuple(a.shape))


def _backward(g: Tensor, out: Tensor, ins: list) -> tuple:
    """torch's: the top-right n x n block of exp([[A^H, G], [0, A^H]])."""
    a = ins[0]
    n = a.shape[-1]
    ah = a.mT.conj() if a.dtype.is_complex else a.mT
    zero = ah * 0.0
    block = cat([cat([ah, g.to(a.dtype)], -1), cat([zero, ah], -1)], -2)
    return (_exp(block)[..., :n, n:],)


def matrix_exp(A) -> Tensor:
    """exp(A) for each square matrix of A."""
    a = tensor_arg(A)
    if a.ndim < 2:
        raise RuntimeError("linalg.matrix_exp: The input tensor A must have at least 2 "
                           "dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.matrix_exp: A must be batches of square matrices, but they "
                           f"are {a.shape[-2]} by {a.shape[-1]} matrices")
    if not a.dtype.is_differentiable:
        raise RuntimeError(f"linalg.matrix_exp: Expected a floating point or complex tensor as "
                           f"input. Got {a.dtype.scalar_type}")
    return composite("LinalgMatrixExpBackward0", _exp, [a], _backward, holomorphic=False)


METHODS = {"matrix_exp": matrix_exp}
