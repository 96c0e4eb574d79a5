"""torch-named statistics: var, std, var_mean, std_mean, nanmean, nansum, count_nonzero,
aminmax, dist, cdist, cov, corrcoef.

Layer: front end, above ``functional``. Input: tensors. Output: tensors built from the
reduction and elementwise primitives, so each has a gradient, a second derivative and compiles.
Where torch shows one grad_fn (``VarBackward0``, ``StdBackward0``, ``NansumBackward0``,
``DistBackward0``, ``CdistBackward0``...) the function is a composite whose backward rule is
torch's formula, written with front-end functions (so it can be differentiated again).

torch's behaviours kept: ``correction`` (or ``unbiased``) with a UserWarning and inf/NaN when
it leaves no degrees of freedom; std's gradient is 0 where std is 0; the p-norms' gradients
are 0 at distance 0. cdist computes every difference (no matrix-product shortcut for p=2
above 25 rows, which torch takes by default and which loses digits to cancellation).
"""

from __future__ import annotations

import math
import warnings

from ... import dtypes
from ...dims import Dim, as_count
from ...ops.registry import normalize_axes
from . import basic as F
from ..core.apply import apply, as_tensor, full
from .basic import composite
from .complexes import complex as make_complex, conj, imag, real
from .manipulation import diagonal
from .norms import vector_norm
from .printing import return_type
from .shapes import broadcast_to, reshape, squeeze, unsqueeze
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg
from .underivable import without_derivative

AminmaxResult = return_type("aminmax", ("min", "max"))



def _axes(x: Tensor, dim) -> tuple:
    """torch's reduction dims: None, an int, or a sequence (empty: every dim)."""
    if isinstance(dim, (tuple, list)) and not dim:
        dim = None
    return normalize_axes(dim, x.ndim)


def _kept(g: Tensor, shape: tuple, axes: tuple, keepdim: bool) -> Tensor:
    """A reduction's cotangent (or output) reshaped to keep the reduced dims as size 1."""
    if keepdim:
        return g
    return reshape(g, tuple(1 if i in axes else s for i, s in enumerate(shape)))


def _spread(g: Tensor, shape: tuple, axes: tuple, keepdim: bool) -> Tensor:
    """A reduction's cotangent broadcast back over the input's shape."""
    return broadcast_to(_kept(g, shape, axes, keepdim), shape)


# ---------------------------------------------------------------- var, std

def _correction(name: str, dim, unbiased, correction):
    """(dim, correction): torch's overloads var(x, unbiased), var(x, dim, unbiased, keepdim)
    and var(x, dim, *, correction, keepdim)."""
    if isinstance(dim, bool):            # x.var(False): the bool is ``unbiased``
        dim, unbiased = None, dim
    if correction is not None and unbiased is not None:
        raise TypeError(f"{name}(): give either unbiased= or correction=, not both")
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


def _moments(name: str, x, dim, unbiased, correction):
    """(x, axes, number of elements reduced, degrees of freedom) with torch's checks."""
    x = tensor_arg(x)
    if not x.dtype.is_differentiable:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dim, correction = _correction(name, dim, unbiased, correction)
    axes = _axes(x, dim)
    n = math.prod(x.shape[a] for a in axes)
    dof = n - correction
    if dof <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      f"less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=3)
    return x, axes, n, max(dof, 0), _backward_dof(x, dim, n, dof, correction)


def _backward_dof(x: Tensor, dim, n, dof, correction):
    """What torch's var_backward divides 2 by: N - correction over every element, NaN when
    that is <= 0; for a ``dim`` given, the product of its sizes minus correction, as IEEE
    divides (an empty ``dim`` reduces every element but counts 1 here: 2 / 0 is inf)."""
    if dim is None or x.ndim == 0:
        return dof if isinstance(dof, Dim) or dof > 0 else math.nan
    if isinstance(dim, (tuple, list)) and not dim:
        return 1 - correction
    return dof


def _centered(a: Tensor, axes: tuple, n: int) -> Tensor:
    return a - F.sum(a, axes, keepdim=True) / as_count(max(n, 1)) if n else a


def _var_body(axes: tuple, n: int, dof, keepdim: bool):
    def real_body(a):
        c = _centered(a, axes, n)
        return F.sum(c * c, axes, keepdim) / as_count(dof)   # IEEE: x / 0 is inf or NaN

    def body(a):   # complex (as torch): the variances of the real and imaginary parts, added
        if a.dtype.is_complex:
            return real_body(apply("real", a)) + real_body(apply("imag", a))
        return real_body(a)
    return body


def _var_rule(axes: tuple, n: int, dof, keepdim: bool):
    """torch's var_backward: g * 2 / dof * (x - mean)."""
    # (a call-time dof (dims.Dim) divides at run time: 2.0 / dof would read its traced value)
    scale = 2.0 / as_tensor(dof) if isinstance(dof, Dim) else 2.0 / dof if dof else math.inf

    def rule(g, out, ins):
        a = ins[0]
        return (_kept(g, a.shape, axes, keepdim) * scale * _centered(a, axes, n),)
    return rule


def var(x, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    """The variance over ``dim`` (all elements if None), dividing by N - correction."""
    x, axes, n, dof, back = _moments("var", x, dim, unbiased, correction)
    return composite("VarBackward0", _var_body(axes, n, dof, keepdim), [x],
                     _var_rule(axes, n, back, keepdim), uses_out=False, pure=True)


def _std_rule(axes: tuple, n: int, dof, keepdim: bool):
    """torch's std_backward: the variance's rule with g / (2 std), 0 where std is 0."""
    var_rule = _var_rule(axes, n, dof, keepdim)

    def rule(g, out, ins):
        scaled = F.where(F.eq(out, 0.0), 0.0, g / (2.0 * out))
        return var_rule(scaled, None, ins)
    return rule


def std(x, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    """The standard deviation: the square root of ``var``."""
    x, axes, n, dof, back = _moments("std", x, dim, unbiased, correction)
    body = _var_body(axes, n, dof, keepdim)
    return composite("StdBackward0", lambda a: F.sqrt(body(a)), [x],
                     _std_rule(axes, n, back, keepdim), pure=True)


def _mean(x: Tensor, axes: tuple, keepdim: bool, torch_name: str) -> Tensor:
    """``mean`` showing another grad_fn name (var_mean's and std_mean's second output)."""
    n = math.prod(x.shape[a] for a in axes)

    def rule(g, out, ins):
        return (_spread(g, ins[0].shape, axes, keepdim) / (as_count(n) if n else math.nan),)
    return composite(torch_name, lambda a: F.mean(a, axes, keepdim), [x], rule, saves=False,
                     uses_out=False)


def var_mean(x, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> tuple:
    """(var, mean) over ``dim``: both show torch's ``VarMeanBackward0``."""
    x, axes, n, dof, back = _moments("var_mean", x, dim, unbiased, correction)
    v = composite("VarMeanBackward0", _var_body(axes, n, dof, keepdim), [x],
                  _var_rule(axes, n, back, keepdim), uses_out=False)
    return v, _mean(x, axes, keepdim, "VarMeanBackward0")


def std_mean(x, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> tuple:
    """(std, mean) over ``dim``: both show torch's ``StdMeanBackward0``."""
    x, axes, n, dof, back = _moments("std_mean", x, dim, unbiased, correction)
    body = _var_body(axes, n, dof, keepdim)
    s = composite("StdMeanBackward0", lambda a: F.sqrt(body(a)), [x],
                  _std_rule(axes, n, back, keepdim))
    return s, _mean(x, axes, keepdim, "StdMeanBackward0")


# ---------------------------------------------------------------- NaN-ignoring, counting

def nansum(x, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The sum with NaNs counted as zero; their gradient is 0."""
    x = tensor_arg(x) if dtype is None else tensor_arg(x).to(dtype)
    if not x.dtype.is_floating:
        return F.sum(x, dim, keepdim, dtype=dtype)
    axes = _axes(x, dim)

    def rule(g, out, ins):
        a = ins[0]
        return (F.where(F.isnan(a), 0.0, _spread(g, a.shape, axes, keepdim)),)
    return composite("NansumBackward0",
                     lambda a: F.sum(F.where(F.isnan(a), 0.0, a), axes, keepdim), [x], rule,
                     uses_out=False)


def nanmean(x, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The mean of the non-NaN elements (NaN where there are none), torch's
    ``nansum / count``."""
    x = tensor_arg(x) if dtype is None else tensor_arg(x).to(dtype)
    if not x.dtype.is_floating:
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex "
                           f"dtype but got {x.dtype.scalar_type}")
    axes = _axes(x, dim)
    count = F.sum(F.logical_not(F.isnan(x)).to(x.dtype), axes, keepdim)
    return nansum(x, axes, keepdim) / count


def count_nonzero(x, dim=None) -> Tensor:
    """The number of nonzero elements over ``dim`` (an int64 tensor)."""
    x = tensor_arg(x)
    return F.sum(F.ne(x, 0).to(dtypes.int64), _axes(x, dim), False)


def aminmax(x, *, dim=None, keepdim: bool = False):
    """(min, max) over ``dim`` (every element if None), as torch's ``aminmax`` named tuple."""
    x = tensor_arg(x)
    if dim is not None and not isinstance(dim, int):
        raise TypeError(f"aminmax(): dim must be an int or None, got {dim!r}")
    axes = normalize_axes(dim, x.ndim)
    if x.numel() == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    out = []
    for name in ("min", "max"):
        r = apply(name, x, axes=axes, _torch_name="AminmaxBackward0")
        if not keepdim:
            shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
            r = apply("reshape", r, shape_to=shape, _torch_name="AminmaxBackward0")
        out.append(r)
    return AminmaxResult(*out)


# ---------------------------------------------------------------- distances

def _pnorm(d: Tensor, p, dim, keepdim: bool, name: str) -> Tensor:
    """The p-norm of ``d`` over ``dim`` (p: 0, 1, 2, inf, -inf or any positive number), with
    torch's gradient (0 where the norm is 0): ``linalg.vector_norm``'s, after the check."""
    if not (p >= 0 or p == -math.inf):
        raise RuntimeError(f"{name}: p must be non-negative (or -inf), got p={p}")
    return vector_norm(d, p, dim, keepdim)


def dist(x, other, p=2) -> Tensor:
    """The p-norm of ``x - other`` (broadcast): ``DistBackward0``."""
    x, other = tensor_arg(x), tensor_arg(other)
    p = float(p)
    if p == 0:   # torch's DistBackward0 has no gradient for the count of nonzeros
        return without_derivative("DistBackward0", lambda a, b: _pnorm(a - b, p, None, False,
                                  "dist"), [x, other], "Expected a proper Tensor but got None "
                                  "(or an undefined Tensor in C++) for argument #0 'self'")
    return composite("DistBackward0",
                     lambda a, b: _pnorm(a - b, p, None, False, "dist"), [x, other])


def cdist(x1, x2, p: float = 2.0, compute_mode=None) -> Tensor:
    """Pairwise p-norm distances between the rows of ``x1`` (..., P, M) and ``x2``
    (..., R, M): a (..., P, R) tensor."""
    x1, x2 = tensor_arg(x1), tensor_arg(x2)
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D, "
                           f"X2 got: {x2.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    for k, t in ((1, x1), (2, x2)):
        if not t.dtype.is_floating:
            raise RuntimeError(f"cdist only supports floating-point dtypes, X{k} got: "
                               f"{t.dtype.scalar_type}")
    if p < 0:
        raise RuntimeError(f"cdist only supports non-negative p values, got p={p}")
    p = float(p)
    # torch's _cdist_backward: zeros for p = 0 (a count of nonzero differences)
    rule = (lambda g, out, ins: tuple(full(t, 0.0) for t in ins)) if p == 0 else None
    return composite("CdistBackward0",
                     lambda a, b: _pnorm(unsqueeze(a, -2) - unsqueeze(b, -3), p, -1, False,
                                         "cdist"), [x1, x2], rule,
                     saves=p != 0, uses_out=p != 0)


# ---------------------------------------------------------------- cov, corrcoef

def _cov_weights(x: Tensor, fweights, aweights):
    """The observation weights (fweights * aweights) with torch's checks, or None."""
    w = None
    n = x.shape[1]
    for name, given in (("fweights", fweights), ("aweights", aweights)):
        if given is None:
            continue
        given = tensor_arg(given)
        if given.ndim > 1 or given.numel() != n:
            raise RuntimeError(f"cov(): expected {name} to have one dimension of size {n} "
                               f"(the number of observations), got shape "
                               f"{tuple(given.shape)}")
        if name == "fweights" and given.dtype.is_floating:
            raise RuntimeError("cov(): expected fweights to have integral dtype")
        given = reshape(given, (n,))
        w = given if w is None else w * given
    return w


def cov(x, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``x`` (observations in its
    columns; a 1-D ``x`` is one variable), torch's weighted formula (complex: the second factor
    conjugated)."""
    x = tensor_arg(x)
    if x.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {x.ndim} dimensions")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = x.to(dtypes.get_default_dtype())
    x2 = reshape(x, (1, -1)) if x.ndim < 2 else x
    w = _cov_weights(x2, fweights, aweights)
    n = x2.shape[1]
    if w is None:
        avg = F.mean(x2, 1, keepdim=True)
        factor = as_count(n - correction)
    else:
        w = w.to(x2.dtype)
        w_sum = F.sum(w)
        avg = F.sum(x2 * w, 1, keepdim=True) / w_sum
        factor = w_sum if correction == 0 else w_sum - correction if aweights is None else \
            w_sum - correction * F.sum(w * tensor_arg(aweights).reshape(n).to(x2.dtype)) / w_sum
    if isinstance(factor, float) and factor <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0", UserWarning, stacklevel=2)
        factor = 0.0
    xm = x2 - avg
    c = F.matmul(xm, conj((xm if w is None else xm * w).transpose(0, 1)))
    return squeeze(c / factor)


def corrcoef(x) -> Tensor:
    """Pearson correlation coefficients of the rows of ``x``, clamped to [-1, 1] (complex:
    the real and imaginary parts each)."""
    c = cov(x)
    if c.ndim == 0:
        return c / c
    d = diagonal(c)
    s = F.sqrt(real(d) if d.dtype.is_complex else d)
    c = c / unsqueeze(s, 1)
    c = c / unsqueeze(s, 0)
    if c.dtype.is_complex:   # each part clamped
        return make_complex(F.clamp(real(c), -1, 1), F.clamp(imag(c), -1, 1))
    return F.clamp(c, -1, 1)


__all__ = ["var", "std", "var_mean", "std_mean", "nansum", "nanmean", "count_nonzero",
           "aminmax", "dist", "cdist", "cov", "corrcoef"]
METHODS = {name: globals()[name] for name in __all__
           if name not in ("var_mean", "std_mean", "cdist")}


def _count_nonzero_method(self, dim=None, *dims) -> Tensor:
    """``x.count_nonzero(0, 1)``: the method takes the dims as varargs too (torch's int-list
    parameter; a bool among them is an int)."""
    return count_nonzero(self, (dim, *dims) if dims else dim)


METHODS["count_nonzero"] = _count_nonzero_method
