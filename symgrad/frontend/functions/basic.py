"""torch-named math on tensors: elementwise, reductions and composites (the matrix products
are ``matmul.py``'s, re-exported here).

Layer: front end. Input: tensors (eager or traced) and Python numbers. Output: tensors, built
only by applying registered primitives (``apply``). Composites (mean, softmax, logsumexp, norm,
clamp, ...) are written here from primitives; where torch shows one grad_fn for them, or where
the derivative of the composition is unstable or wrong at a kink, they attach one backward rule
that is itself built from primitives (so it can be differentiated again).
"""

from __future__ import annotations

import math
from typing import Callable  # noqa: UP035

from ... import dtypes
from ...dims import as_count
from ...ops.registry import normalize_axes
from ..core.apply import apply, full, tensor_operands
from ..core.builder import ruled
from .composites import composite, linear_composite  # noqa: F401  (with the rest of F)
from ..core.shown import apply_reduction, total
from ..core.conversions import check_fits
from .printing import return_type
from .matmul import bmm, dot, matmul, mm  # noqa: F401  (the products, with the rest of F)
from .opmath import IN_FLOAT32, div, in_float32, mul  # noqa: F401  (div, mul: float16 rules)
from ..core.tensor import Tensor
from ..core.arguments import Deferred, tensor_arg
from .arith_checks import alpha_check, sub_check
from .int_powers import int_power, int_powers, integer_operands, power_by_squaring  # noqa: F401
from .index_checks import dim_given
from .complex_square import complex_square
from .complex_axpy import scaled_sum
from .prod_grad import prod_with_rule
from .gathers import gather, gather_along, take_along_dim  # noqa: F401  (with the rest of F)

Number = (int, float, bool)


# ---------------------------------------------------------------- elementwise

def add(a, b, *, alpha=1) -> Tensor:
    if alpha == 1:
        return apply("add", a, b)
    return _scaled_sum("add", a, b, alpha)


def sub(a, b, *, alpha=1) -> Tensor:
    sub_check(a, b)
    if alpha == 1:
        return apply("sub", a, b)
    return _scaled_sum("sub", a, b, alpha)


def _scaled_sum(name: str, a, b, alpha) -> Tensor:
    """``a + alpha * b`` (``a - alpha * b``): one node, AddBackward0/SubBackward0, whose edges
    are ``a`` and ``b`` as torch shows them (the product with ``alpha`` is not a node)."""
    alpha_check(a, b, alpha)
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        return apply(name, a, mul(b, alpha))
    sign = alpha if name == "add" else -alpha
    body = (scaled_sum(sign) if a.dtype.is_complex or b.dtype.is_complex else
            lambda x, y: apply(name, x, mul(y, alpha)))
    coefficient = sign.conjugate() if isinstance(sign, complex) else sign   # torch: alpha.conj()
    return composite(name.capitalize() + "Backward0", body, [a, b],
                     lambda g, out, ins: (g, mul(g, coefficient)), saves=False, uses_out=False)


def neg(a) -> Tensor:
    return apply("neg", a)


_POW_FAST = (dtypes.float32, dtypes.float64)


def pow(input, exponent) -> Tensor:  # noqa: A001, A002  (torch's names)
    a, b = input, exponent
    if (type(b) is int or type(b) is float) and isinstance(a, Tensor) and a.dtype in _POW_FAST:
        # (the common ``x ** 2``: none of the checks below applies)
        return apply("pow", a, b, _torch_name="PowBackward0", _shown=(0,))
    if isinstance(a, Tensor) and a.dtype.is_storage and (type(b) is int or type(b) is float
                                                         and a.dtype.is_floating):
        check_fits(b, a.dtype)     # torch converts the exponent to a narrow dtype, checked
    if isinstance(a, Tensor) and not a.dtype.is_differentiable and type(b) is int:
        # integers to a Python int power stay integers (a bool tensor: int64), as torch's
        return int_power(a if a.dtype.is_integer else a.to(dtypes.int64), b)
    if isinstance(a, Tensor) and a.dtype.is_bool and type(b) is bool:
        return a.clone() if b else full(a, True, dtype=dtypes.bool_)   # torch's bool ** bool
    if integer_operands(a, b):
        return int_powers(a, b)
    name = "PowBackward0" if isinstance(b, Number) else "PowBackward1"
    if isinstance(a, Number):
        name = "PowBackward2"
    elif isinstance(b, Tensor) and not b.ndim and isinstance(a, Tensor) and a.ndim:
        # a tensor exponent, even 0-d, is pow's, never sqrt (ops' _np_pow tells by its shape):
        # expanded, in the dtype it promotes to as a 0-d tensor
        common = dtypes.promote([(a.dtype, dtypes.RANK_TENSOR), (b.dtype, dtypes.RANK_ZERO_DIM)])
        b = (b if b.dtype is common else b.to(common)).expand(a.shape)
    return apply("pow", a, b, _torch_name=name,
                 _shown=None if name == "PowBackward1" else tensor_operands(a, b))


def _unary(name: str):
    def fn(x) -> Tensor:
        return apply(name, x)
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} (torch.{name})."
    return fn


exp, log, log1p, expm1, sqrt = (_unary(n) for n in ("exp", "log", "log1p", "expm1", "sqrt"))
sin, cos, tanh, sigmoid = (_unary(n) for n in ("sin", "cos", "tanh", "sigmoid"))
relu, softplus, abs, sign = (_unary(n) for n in ("relu", "softplus", "abs", "sign"))  # noqa: A001


rsqrt = _unary("rsqrt")


def square(x) -> Tensor:
    """torch's ``pow(x, 2)``: x * x, PowBackward0 (a bool tensor squares to int64). A real x
    takes pow, whose value is x * x and whose rule is torch's, g * (2 * x); a complex one
    multiplies (NumPy's complex power rounds otherwise)."""
    if isinstance(x, Tensor) and x.dtype.is_complex:
        return complex_square(x)
    return pow(x, 2)


def maximum(a, b) -> Tensor:
    return apply("maximum", a, b)


def minimum(a, b) -> Tensor:
    return apply("minimum", a, b)


def where(condition, input, other) -> Tensor:  # noqa: A002
    return apply("where", condition, input, other)


def clamp(x, min=None, max=None, *, _torch_name: str = "ClampBackward1") -> Tensor:  # noqa: A002
    """Clamp to [min, max], torch's ``min(max(x, min), max)`` (so ``max`` where min > max);
    like torch the gradient passes where min <= x <= max (inclusive)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")

    def body(a, lo=min, hi=max):
        out = a
        if a.dtype.is_floating and any(type(v) is float and v != v for v in (lo, hi)):
            return full(a, math.nan)        # torch's NaN-propagating bounds
        if lo is not None:
            out = where(lt(a, lo), lo, out)
        if hi is not None:
            out = where(gt(out, hi), hi, out)
        return out
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensors(x, min, max, body, _torch_name[:-1])

    def rule(g, out, ins):
        # torch's clamp_backward: g where min <= x <= max, else 0; a NaN x fails both tests
        # and gets 0 (the where()s of the forward alone would pass g through at NaN).
        a = ins[0]
        keep = ge(a, min) if min is not None else None
        if max is not None:
            keep = le(a, max) if keep is None else logical_and(keep, le(a, max))
        return (where(keep, g, 0.0),)
    return composite(_torch_name, body, [tensor_arg(x)], rule)


def clamp_min(x, min) -> Tensor:  # noqa: A002
    return clamp(x, min, None, _torch_name="ClampMinBackward0")


def clamp_max(x, max) -> Tensor:  # noqa: A002
    return clamp(x, None, max, _torch_name="ClampMaxBackward0")


clip = clamp


def _clamp_tensors(x: Tensor, lo, hi, body: Callable, kind: str) -> Tensor:
    """``clamp`` with tensor bounds: one ClampBackward0 with an edge for ``x``, ``min`` and
    ``max`` (None for an absent bound; clamp_min/clamp_max's Clamp{Min,Max}Backward1: ``x``
    and the bound), and torch's gradients: to ``x`` where it lies in [min, max], to ``min``
    where x < min < max, to ``max`` where x > max or max < min."""
    bounds = [b if isinstance(b, Tensor) else full(x, float("nan") if b is None else b, ())
              for b in (lo, hi)]

    def run(a, b_lo, b_hi):
        return body(a, None if lo is None else b_lo, None if hi is None else b_hi)

    def rule(g, out, ins):
        a, b_lo, b_hi = ins
        if lo is None:
            return where(le(a, b_hi), g, 0.0), None, where(gt(a, b_hi), g, 0.0)
        if hi is None:
            return where(ge(a, b_lo), g, 0.0), where(lt(a, b_lo), g, 0.0), None
        keep = logical_and(ge(a, b_lo), le(a, b_hi))
        to_lo = logical_and(lt(a, b_lo), lt(b_lo, b_hi))
        to_hi = logical_or(gt(a, b_hi), lt(b_hi, b_lo))
        return where(keep, g, 0.0), where(to_lo, g, 0.0), where(to_hi, g, 0.0)
    name, shown = ((kind + "0", None) if kind == "ClampBackward" else
                   (kind + "1", (0, 1) if hi is None else (0, 2)))
    return composite(name, run, [tensor_arg(x)] + bounds, rule, uses_out=False, shown=shown)


def lt(a, b): return apply("lt", a, b)  # noqa: E704
def le(a, b): return apply("le", a, b)  # noqa: E704
def gt(a, b): return apply("gt", a, b)  # noqa: E704
def ge(a, b): return apply("ge", a, b)  # noqa: E704
def eq(a, b): return apply("eq", a, b)  # noqa: E704
def ne(a, b): return apply("ne", a, b)  # noqa: E704
def logical_and(a, b): return apply("logical_and", a, b)  # noqa: E704
def logical_or(a, b): return apply("logical_or", a, b)  # noqa: E704
def logical_not(a): return apply("logical_not", a)  # noqa: E704


def isinf(x) -> Tensor: return eq(abs(x), math.inf)  # noqa: E704
def isnan(x) -> Tensor: return ne(x, x)  # noqa: E704
def isfinite(x) -> Tensor: return logical_not(logical_or(isinf(x), isnan(x)))  # noqa: E704


# ---------------------------------------------------------------- reductions

def _reduced_shape(shape, axes, keepdim): return tuple(  # noqa: E704
    1 if i in axes else s for i, s in enumerate(shape) if keepdim or i not in axes)


def _reduce(name: str, x: Tensor, dim, keepdim: bool, torch_name: str | None = None) -> Tensor:
    if isinstance(x, Deferred): return getattr(x, "a" + name)(dim, keepdim)  # noqa: E701 (amax)
    x = tensor_arg(x)
    return apply_reduction(name, x, normalize_axes(dim, x.ndim), keepdim, torch_name)


def _unreduce(g: Tensor, shape: tuple, axes: tuple, keepdim: bool) -> Tensor:
    """The cotangent of a reduction, broadcast back over the input's shape."""
    if not keepdim:
        g = ruled("reshape", g, shape_to=_reduced_shape(shape, axes, True))
    return ruled("expand", g, shape_to=shape)


ALL = type("AllDims", (), {})()   # sum's, mean's default dim: torch's overload without dim


def sum(x, dim=ALL, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A001
    if dim is ALL and dtype is None and not keepdim:
        out = total("sum", x)
        if out is not None:
            return out
    name, dim = ("SumBackward0", None) if dim is ALL and not keepdim else ("SumBackward1", dim)
    dim = None if dim is ALL else dim
    if isinstance(x, Deferred): return x.sum(dim, keepdim, dtype=dtype)  # noqa: E701 (x[mask])
    x = tensor_arg(x)
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_differentiable:
        x = x.to(dtypes.int64)
    every = dim if dim != () and dim != [] else None       # torch's dim=(): every dim
    return _reduce("sum", x, every, keepdim, name)


def mean(x, dim=ALL, keepdim: bool = False, *, dtype=None) -> Tensor:
    name, dim = ("MeanBackward0", None) if dim is ALL and not keepdim else ("MeanBackward1", dim)
    dim = None if dim is ALL else dim
    if isinstance(x, Deferred): return x.mean(dim, keepdim, dtype=dtype)  # noqa: E701
    x = tensor_arg(x) if dtype is None else tensor_arg(x).to(dtype)
    if not x.dtype.is_differentiable:
        raise RuntimeError(f"mean(): could not infer output dtype. Input dtype must be either a "
                           f"floating point or complex dtype. Got: {x.dtype.scalar_type}")
    axes = normalize_axes(dim if dim != () and dim != [] else None, x.ndim)   # (): every dim
    n = as_count(math.prod(x.shape[a] for a in axes))   # (a Dim: divided at call time)

    def rule(g, out, ins):
        return (_unreduce(g, ins[0].shape, axes, keepdim) / n,)
    return composite(name, lambda a: _reduce("sum", a, axes, keepdim) / n, [x], rule,
                     saves=False, uses_out=False, pure=True)   # the rule reads shapes only


def prod(x, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The product of the elements (over ``dim``); bools and integers multiply in int64."""
    if isinstance(x, Deferred): return x.prod(dim, keepdim, dtype=dtype)  # noqa: E701
    x = tensor_arg(x)
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_differentiable:
        x = x.to(dtypes.int64)
    name = "ProdBackward0" if dim is None else "ProdBackward1"
    if x.dtype.is_differentiable and x.ndim and (x.requires_grad or x.is_traced):
        return prod_with_rule(x, dim, keepdim, name)
    return _reduce("prod", x, dim, keepdim, name)


def amax(x, dim=None, keepdim: bool = False) -> Tensor:
    return _reduce("max", *dim_given("amax", x, dim), keepdim, "AmaxBackward0")


def amin(x, dim=None, keepdim: bool = False) -> Tensor:
    return _reduce("min", *dim_given("amin", x, dim), keepdim, "AminBackward0")


MaxResult = return_type("max")
MinResult = return_type("min")


def _extremum_of_all(name: str, x: Tensor) -> Tensor:
    """``max(x)``/``min(x)`` with torch's ``evenly_distribute_backward``: g shared among the
    elements equal to the result (the NaNs if it is NaN); amax/amin's rule gives NaN there."""
    axes = tuple(range(dim_given(name, x, None)[0].ndim))

    def rule(g, out, ins):
        a = ins[0]
        kept = (1,) * a.ndim
        m, g = out.reshape(kept), g.reshape(kept)
        hit = logical_or(eq(a, m), logical_and(ne(m, m), ne(a, a)))
        count = apply("sum", hit.to(a.dtype), axes=axes)
        return (where(hit, g / count, 0.0),)
    return composite(f"{name.capitalize()}Backward1",
                     lambda a: _reduce(name, a, None, False), [x], rule)


def _extremum(name: str, x, dim, keepdim):
    if isinstance(x, Deferred): return getattr(x, name)(dim, keepdim)  # noqa: E701 (x[mask])
    x = tensor_arg(x)
    if dim is None:
        return _extremum_of_all(name, x)
    if not isinstance(dim, int):
        raise TypeError(f"{name}(): dim must be an int, got {dim!r}")
    if x.ndim == 0:
        # torch: a 0-d tensor is its own extremum, at index 0 (keepdim keeps it 0-d).
        normalize_axes(dim, 0)
        values, idx = _extremum(name, x.reshape(1), 0, False)
        values = apply("reshape", values, shape_to=(), _torch_name=f"{name.capitalize()}Backward0")
        return (MaxResult if name == "max" else MinResult)(values, idx.reshape(()))
    (axis,) = normalize_axes(dim, x.ndim)
    idx = apply("argmax" if name == "max" else "argmin", x, axis=axis)
    # The value at the returned index: the gradient goes to that one element, as in torch.
    values = apply("gather", x, idx, axis=axis, _torch_name=f"{name.capitalize()}Backward0")
    if not keepdim:
        shape = _reduced_shape(x.shape, (axis,), False)
        values = apply("reshape", values, shape_to=shape,
                       _torch_name=f"{name.capitalize()}Backward0")
        idx = apply("reshape", idx, shape_to=shape)
    return (MaxResult if name == "max" else MinResult)(values, idx)


def max(x, dim=None, keepdim: bool = False):  # noqa: A001
    """max(x) -> the largest value; max(x, dim) -> (values, indices); max(x, y) -> maximum."""
    if isinstance(dim, Tensor):
        return maximum(x, dim)
    return _extremum("max", x, dim, keepdim)


def min(x, dim=None, keepdim: bool = False):  # noqa: A001
    if isinstance(dim, Tensor):
        return minimum(x, dim)
    return _extremum("min", x, dim, keepdim)


def _arg_extremum(name: str, x, dim, keepdim: bool) -> Tensor:
    x = tensor_arg(x)
    if dim is None or x.ndim == 0:
        normalize_axes(dim, x.ndim)                     # 0-d: dim 0 / -1 only, like torch
        out = _arg_extremum(name, x.reshape(-1), 0, False)
        return out.reshape((1,) * x.ndim) if keepdim else out
    (axis,) = normalize_axes(dim, x.ndim)
    out = apply(name, x, axis=axis)
    return out if keepdim else out.reshape(_reduced_shape(x.shape, (axis,), False))


def argmax(x, dim=None, keepdim: bool = False) -> Tensor:
    return _arg_extremum("argmax", x, dim, keepdim)


def argmin(x, dim=None, keepdim: bool = False) -> Tensor:
    return _arg_extremum("argmin", x, dim, keepdim)


def _over_elements(a: Tensor, axes: tuple) -> bool:
    """Whether a reduction over ``axes`` combines any elements: over none there is no max to
    shift by (and logsumexp is log(0) = -inf, softmax & co. have no elements, as in torch)."""
    return math.prod(a.shape[i] for i in axes) > 0


def _shift(a: Tensor, axes: tuple) -> Tensor | float:
    """The max over ``axes`` that logsumexp and log_softmax subtract first (0 where it is
    infinite or where there are no elements)."""
    if not _over_elements(a, axes):
        return 0.0
    # complex values: the max of the real parts, as torch's (a real shift: no branch of log)
    m = amax(apply("real", a) if a.dtype.is_complex else a, axes, keepdim=True)
    return where(isinf(m), 0.0, m)


def logsumexp(x, dim, keepdim: bool = False) -> Tensor:
    """log(sum(exp(x))) shifted by the max: finite at +-1000; gradient = softmax."""
    x = tensor_arg(x)
    if x.dtype.is_bool:     # as the integers 0 and 1 (x - max is no bool subtraction here)
        x = x.to(dtypes.int64)
    axes = normalize_axes(dim, x.ndim)

    def body(a):
        m = _shift(a, axes)
        s = log(sum(exp(a - m), axes, keepdim=True)) + m
        return s if keepdim else s.reshape(_reduced_shape(a.shape, axes, False))

    def rule(g, out, ins):
        a = ins[0]
        out_k = _unreduce(out, a.shape, axes, keepdim)
        return (_unreduce(g, a.shape, axes, keepdim) * exp(a - out_k),)
    return composite("LogsumexpBackward0", body, [x], rule, pure=True)


def norm(x, p="fro", dim=None, keepdim: bool = False) -> Tensor:
    """Vector p-norm (p = 2/'fro', 1, inf); the 2-norm's gradient is 0 at 0, as in torch."""
    x = tensor_arg(x)
    axes = normalize_axes(dim, x.ndim)
    if p in ("fro", 2, 2.0):
        def rule(g, out, ins):
            a = ins[0]
            n = _unreduce(out, a.shape, axes, keepdim)
            safe = where(eq(n, 0.0), 1.0, n)
            return (where(eq(n, 0.0), 0.0, _unreduce(g, a.shape, axes, keepdim) * a / safe),)
        return composite("LinalgVectorNormBackward0", lambda a: sqrt(_reduce("sum", abs(a) * abs(
            a) if a.dtype.is_complex else a * a, axes, keepdim)), [x], rule)
    if p in (1, 1.0):
        return sum(abs(x), axes, keepdim)
    if p in (math.inf, "inf"):
        return amax(abs(x), axes, keepdim)
    raise NotImplementedError(f"norm: p={p!r} is not supported (use 1, 2, 'fro' or inf)")


def softmax(x, dim: int, dtype=None) -> Tensor:
    x = tensor_arg(x) if dtype is None else tensor_arg(x).to(dtype)   # torch: cast first
    axes = normalize_axes(dim, x.ndim)

    def body(a):
        e = exp(a - amax(a, axes, keepdim=True).detach()) if _over_elements(a, axes) \
            else exp(a)
        return e / sum(e, axes, keepdim=True)

    def rule(g, out, ins):
        return (out * (g - sum(g * out, axes, keepdim=True)),)
    return composite("SoftmaxBackward0", body, [x], rule, pure=True)


def log_softmax(x, dim: int, dtype=None) -> Tensor:
    x = tensor_arg(x) if dtype is None else tensor_arg(x).to(dtype)   # torch: cast first
    axes = normalize_axes(dim, x.ndim)

    def body(a):
        # (a - m) - log(sum(exp(a - m))): subtracting the max first keeps the result exact
        # for large logits (a - logsumexp(a) rounds at the logits' magnitude: 3e-5 at 1000
        # in float32).
        shifted = a - _shift(a, axes)
        return shifted - log(sum(exp(shifted), axes, keepdim=True))

    def rule(g, out, ins):
        return (g - exp(out) * sum(g, axes, keepdim=True),)
    return composite("LogSoftmaxBackward0", body, [x], rule, pure=True)
