"""``MultivariateNormal(loc, covariance_matrix= | precision_matrix= | scale_tril=)``: the
Gaussian over vectors, held as the lower Cholesky factor L of its covariance, and its KL
divergence to another.

Layer: front end. Input: ``loc`` (..., n) and one of the (..., n, n) matrices; their batch
dimensions broadcast. Output: the distribution: ``rsample`` (``loc + L eps``, eps from
``normal_``: torch's numbers after ``manual_seed``), ``log_prob`` (a triangular solve per
batch matrix, all samples as its columns), ``entropy``, the three matrices computed on first
use, moments; ``kl_multivariate_normal(p, q)``.
"""

from __future__ import annotations

import math

from ..frontend.functions.assorted import broadcast_shapes
from ..frontend.functions.basic import matmul
from ..frontend.functions.creation import eye
from ..frontend.functions.decompositions import cholesky, cholesky_inverse, solve_triangular
from ..frontend.functions.manipulation import flip
from ..size import Size
from . import constraints
from .distribution import Distribution
from .utils import lazy_property, standard_normal

__all__ = ["MultivariateNormal", "batch_mahalanobis", "batch_mv", "kl_multivariate_normal"]

_LOG_2PI = math.log(2 * math.pi)


def batch_mv(bmat, bvec):
    """Matrix-vector products with broadcast batch dimensions."""
    return matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def batch_mahalanobis(L, x):
    """x^T (L L^T)^-1 x for each vector of ``x`` (..., n), L's batch dimensions broadcast
    against x's trailing ones (each either 1 or equal). x's batch is regrouped so that one
    triangular solve per matrix of L takes every vector that uses it as a column."""
    n, x_batch, k = x.size(-1), tuple(x.shape[:-1]), L.dim() - 2
    outer = len(x_batch) - k
    split = x_batch[:outer]
    for size_l, size_x in zip(L.shape[:-2], x_batch[outer:]):
        split += (size_x // size_l, size_l)
    repeats = [outer + 2 * i for i in range(k)]
    own = [outer + 2 * i + 1 for i in range(k)]
    x = x.reshape(split + (n,)).permute(list(range(outer)) + repeats + own + [outer + 2 * k])
    flat_l = L.reshape(-1, n, n)
    columns = x.reshape(-1, flat_l.size(0), n).permute(1, 2, 0)
    m = solve_triangular(flat_l, columns, upper=False).pow(2).sum(-2).t()
    back = list(range(outer))
    for i in range(k):
        back += [outer + i, outer + k + i]
    return m.reshape(x.shape[:-1]).permute(back).reshape(x_batch)


def precision_to_scale_tril(P):
    """The lower Cholesky factor of P^-1, from the Cholesky factor of P flipped."""
    flipped = cholesky(flip(P, (-2, -1)))
    l_inv = flip(flipped, (-2, -1)).transpose(-2, -1)
    return solve_triangular(l_inv, eye(P.shape[-1], dtype=P.dtype), upper=False)


def _broadcast_matrix(name: str, matrix, loc):
    if matrix.dim() < 2:
        raise ValueError(f"{name} must be at least two-dimensional, with optional leading "
                         f"batch dimensions")
    batch_shape = broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
    return batch_shape, matrix.expand(batch_shape + (-1, -1))


class MultivariateNormal(Distribution):
    """The multivariate normal distribution of mean ``loc`` and a covariance given by
    itself, its inverse, or its lower Cholesky factor (exactly one of them)."""

    arg_constraints = {"loc": constraints.real_vector,
                       "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite,
                       "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [(name, m) for name, m in (("scale_tril", scale_tril),
                                           ("covariance_matrix", covariance_matrix),
                                           ("precision_matrix", precision_matrix))
                 if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or "
                             "scale_tril may be specified.")
        name, matrix = given[0]
        label = "scale_tril matrix" if name == "scale_tril" else name
        batch_shape, expanded = _broadcast_matrix(label, matrix, loc)
        setattr(self, name, expanded)
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = precision_to_scale_tril(matrix)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(MultivariateNormal, _instance)
        batch_shape = Size(batch_shape)
        matrix_shape = batch_shape + self.event_shape + self.event_shape
        new.loc = self.loc.expand(batch_shape + self.event_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(matrix_shape))
        return self._expanded(new, batch_shape)

    def _matrix_shape(self) -> Size:
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return matmul(L, L.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        return cholesky_inverse(self._unbroadcasted_scale_tril).expand(self._matrix_shape())

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(
            self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + batch_mv(self._unbroadcasted_scale_tril, eps)

    def half_log_det(self):
        """log det(L): half the log determinant of the covariance, per batch matrix of L."""
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    @property
    def unbroadcasted_scale_tril(self):
        """L as given or computed, before its expansion to the batch shape."""
        return self._unbroadcasted_scale_tril

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        m = batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * _LOG_2PI + m) - self.half_log_det()

    def entropy(self):
        h = 0.5 * self._event_shape[0] * (1.0 + _LOG_2PI) + self.half_log_det()
        return h if len(self._batch_shape) == 0 else h.expand(self._batch_shape)


def kl_multivariate_normal(p: MultivariateNormal, q: MultivariateNormal):
    """KL(p || q) of two multivariate normals of the same event shape."""
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with                  "
                         "        different event shapes cannot be computed")
    half_term1 = q.half_log_det() - p.half_log_det()
    p_l, q_l = p.unbroadcasted_scale_tril, q.unbroadcasted_scale_tril
    n = p.event_shape[0]
    batch = broadcast_shapes(q_l.shape[:-2], p_l.shape[:-2])
    ratio = solve_triangular(q_l.expand(batch + (n, n)), p_l.expand(batch + (n, n)),
                             upper=False)
    term2 = ratio.reshape(-1, n * n).pow(2).sum(-1).reshape(ratio.shape[:-2])
    term3 = batch_mahalanobis(q_l, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)
