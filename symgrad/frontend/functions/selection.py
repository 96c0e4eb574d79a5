"""``x[mask]`` inside a compiled function, kept lazy until a reduction consumes it.

Layer: front end, above ``basic`` (``indexing`` makes one for ``x[mask]`` and
``masked_select``, and writes one back for ``y[mask] = s``). Input: a tensor ``x`` and a
traced boolean ``mask`` over its leading dims. Output: a ``Selection``, which stands for the
selected elements, ``(count, *rest)``, whose count is known only when the compiled code
runs. It computes what needs no count:

- elementwise math with numbers, tensors that broadcast along the selected elements' own
  dims, and selections by the same mask (``(a[m] - b[m]) ** 2``, ``torch.exp(x[m])``,
  ``x[m].abs()``): on every row of ``x`` (``dense``); what follows discards the rows not
  selected;
- reductions over every element or over dim 0: ``sum``, ``mean`` (the sum over the count),
  ``prod``, ``amax``/``amin``, ``max``/``min`` (for ``dim=0`` with the index among the
  selected elements), ``nansum``, ``nanmean``, ``var``/``std``, ``logsumexp``, ``norm``,
  ``any``, ``all``, ``count_nonzero``: the reduction of ``where(mask, dense, identity)``, a
  tensor again; over the other dims, row by row, a selection again;
- ``y[mask] = s`` for ``s`` selected by that same mask (``indexing``): a ``where``.

Anything else needs the count (its shape, a view, a matmul, returning it): the error names
the line and the alternatives. The rows not selected hold a copy of the first selected row,
so that elementwise functions of them stay finite where the user's values do: the gradient
(zero times their derivative there) has no NaN that ``x[mask]`` would not have. The empty
selection's reductions are their identities (sum 0, mean NaN); its max and min, which torch
refuses when it runs, are -inf and inf (an integer type's extremes).
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from ...ops import OPS
from ...ops.registry import ELEMENTWISE, normalize_axes
from . import basic as F
from ..core import sources
from ..core.apply import apply
from ..core.deferred import Deferred
from ..core.tensor import Tensor, tracer_error
from ...errors import TracerValueError

# Tensor methods that compute element by element (a Selection runs them on ``dense``).
_ELEMENTWISE_METHODS = frozenset("""
    abs absolute neg negative positive exp exp2 expm1 log log2 log10 log1p sqrt rsqrt square
    sin cos tan asin acos atan arcsin arccos arctan sinh cosh tanh asinh acosh atanh sigmoid
    relu sign sgn signbit floor ceil round trunc frac fix reciprocal erf erfc erfinv lgamma
    digamma logit sinc deg2rad rad2deg isnan isinf isfinite isposinf isneginf isreal
    logical_not bitwise_not nan_to_num clamp clip clamp_min clamp_max float double long int
    bool half type_as detach clone contiguous pow add sub subtract mul multiply div divide
    true_divide floor_divide remainder fmod maximum minimum fmax fmin atan2 arctan2 hypot eq
    ne lt le gt ge greater less greater_equal less_equal not_equal logical_and logical_or
    logical_xor bitwise_and bitwise_or bitwise_xor lerp xlogy heaviside copysign where
    masked_fill addcmul addcdiv
""".split())

_OPERATORS = ("add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow rpow "
              "neg pos abs invert and rand or ror xor rxor lt le gt ge eq ne").split()


class Selection(Deferred):
    """``x[mask]`` in a trace (see the module docstring): ``dense``, every row of ``x``
    (``(N, *rest)``, rows not selected filled), and ``mask`` (``(N,)``, bool)."""

    __slots__ = ("dense", "mask", "made")
    __hash__ = None

    def __init__(self, dense: Tensor, mask: Tensor, made) -> None:
        self.dense, self.mask, self.made = dense, mask, made

    @classmethod
    def of(cls, x: Tensor, mask: Tensor) -> Selection:
        """``x[mask]``, ``mask`` a traced bool tensor of the shape of ``x``'s leading dims."""
        n, rest = math.prod(mask.shape), tuple(x.shape[mask.ndim:])
        # (a copy, as torch's x[mask]: changing x in place later leaves it as it was)
        flat, keep = x.reshape((n,) + rest).clone(), mask.reshape(n)
        if n:
            first = F.argmax(keep.to(dtypes.int64))               # 0 when none is selected
            row = F.gather_along(flat, first.reshape((1,) * flat.ndim).expand(
                (1,) + rest), 0)
            flat = F.where(keep.reshape((n,) + (1,) * len(rest)), flat, row)
        return cls(flat, keep, sources.user_loc())

    def like(self, dense: Tensor) -> Selection:
        """The selection of the same rows of ``dense`` (rows of this one, computed on)."""
        return Selection(dense, self.mask, self.made)

    # ------------------------------------------------------------ what it is
    @property
    def dtype(self):
        return self.dense.dtype

    @property
    def ndim(self) -> int:
        return self.dense.ndim

    @property
    def device(self):
        return self.dense.device

    @property
    def requires_grad(self) -> bool:
        return self.dense.requires_grad

    @property
    def shape(self):
        raise self.size_needed("its shape")

    def size(self, dim=None):
        raise self.size_needed("size()")

    def numel(self):
        raise self.size_needed("numel()")

    def dim(self) -> int:
        return self.ndim

    def __len__(self):
        raise self.size_needed("len()")

    def __bool__(self):
        raise self.size_needed("bool()")

    def __iter__(self):
        raise self.size_needed("iterating over it")

    def __getitem__(self, index):
        raise self.size_needed("indexing it")

    def __array__(self, dtype=None, copy=None):
        raise self.size_needed("np.asarray")

    def __repr__(self) -> str:
        return f"<symgrad masked selection of {self.dtype.name} values, made at {self.made}>"

    def size_needed(self, what: str) -> Exception:
        made = f" (made at {self.made.file}:{self.made.line})" if self.made else ""
        loc = sources.user_loc()
        at = f" at {loc.file}:{loc.line} ({loc.text})" if loc else ""
        return TracerValueError(
            f"symgrad needs the size of x[mask]{made} for {what}{at}: inside "
            f"@symgrad.compile, how many elements a boolean mask selects is known only when "
            f"the compiled code runs. A reduction of the selection compiles (x[mask].sum(), "
            f".mean(), .max(), .std()..., with elementwise math on it before), as does "
            f"y[mask] = f(x[mask]); otherwise keep shapes fixed with symgrad.where(mask, x, 0) "
            f"or x.masked_fill(~mask, 0).")

    def __getattr__(self, name: str):
        if name.startswith("_") or not hasattr(Tensor, name):
            raise AttributeError(f"'Selection' object has no attribute {name!r}")
        if name not in _ELEMENTWISE_METHODS:
            raise self.size_needed(f".{name}()")
        method = getattr(Tensor, name)
        return lambda *args, **kwargs: method(self, *args, **kwargs)

    # ------------------------------------------------------------ elementwise
    def applied(self, name: str, args: tuple, attrs: dict):
        """Primitive ``name`` on the selected elements: on every row, by the same mask."""
        if OPS[name].kind != ELEMENTWISE:
            raise self.size_needed(f"an operand of {name}")
        return self.like(apply(name, *(self._lined_up(a) for a in args), **attrs))

    def _lined_up(self, a):
        """An operand of elementwise math with this selection, as one of ``dense``'s."""
        if isinstance(a, Selection):
            if a.mask is not self.mask and a.mask.node is not self.mask.node:
                raise tracer_error("operand with another masked selection", "two "
                                   "selections by different masks do not line up element by "
                                   "element. Select with one mask, or compute with "
                                   "symgrad.where(mask, x, 0) on whole tensors.")
            if a.ndim != self.ndim:
                raise self.size_needed("a broadcast against its count")
            return a.dense
        if isinstance(a, Tensor) and (a.ndim > self.ndim or (
                a.ndim == self.ndim and a.shape[0] != 1)):
            raise self.size_needed(f"a broadcast with a tensor of shape {list(a.shape)}")
        return a

    def to(self, *args, **kwargs):
        return self.like(self.dense.to(*args, **kwargs))

    # ------------------------------------------------------------ reductions
    def masked(self, fill) -> Tensor:
        """``dense`` with ``fill`` in the rows not selected."""
        keep = self.mask.reshape((self.mask.shape[0],) + (1,) * (self.ndim - 1))
        return F.where(keep, self.dense, fill)

    def count(self, dim) -> Tensor | None:
        """The number of elements a reduction over ``dim`` takes in, when it covers dim 0
        (an int64 scalar); None when it reduces row by row."""
        axes = normalize_axes(dim, self.ndim)
        if 0 not in axes:
            return None
        rows = F.sum(self.mask.to(dtypes.int64))
        return rows * math.prod(self.dense.shape[a] for a in axes if a)

    def _reduce(self, fn, fill, dim, keepdim: bool):
        """``fn(tensor, dim, keepdim)``: of the masked rows when ``dim`` covers dim 0, else
        row by row (a selection)."""
        if dim is None or 0 in normalize_axes(dim, self.ndim):
            return fn(self.masked(fill), dim, keepdim)
        return self.like(fn(self.dense, dim, keepdim))

    def sum(self, dim=None, keepdim: bool = False, *, dtype=None):
        x = self if dtype is None else self.to(dtype)
        return x._reduce(F.sum, _identity(x.dtype, 0), dim, keepdim)

    def prod(self, dim=None, keepdim: bool = False, *, dtype=None):
        x = self if dtype is None else self.to(dtype)
        return x._reduce(F.prod, _identity(x.dtype, 1), dim, keepdim)

    def nansum(self, dim=None, keepdim: bool = False, *, dtype=None):
        x = self if dtype is None else self.to(dtype)
        return x._reduce(lambda a, d, k: a.nansum(d, k), 0, dim, keepdim)

    def mean(self, dim=None, keepdim: bool = False, *, dtype=None):
        x = self if dtype is None else self.to(dtype)
        if not x.dtype.is_differentiable:
            return F.mean(x.dense)                 # torch's error for an integer dtype
        count = x.count(dim)
        if count is None:
            return x.like(F.mean(x.dense, dim, keepdim))
        return F.sum(x.masked(0), dim, keepdim) / count

    def nanmean(self, dim=None, keepdim: bool = False, *, dtype=None):
        x = self if dtype is None else self.to(dtype)
        if x.count(dim) is None:
            return x.like(x.dense.nanmean(dim, keepdim))
        return x.nansum(dim, keepdim) / (~x.isnan()).sum(dim, keepdim)

    def amax(self, dim=None, keepdim: bool = False):
        return self._reduce(F.amax, _extreme(self.dtype, -1), dim, keepdim)

    def amin(self, dim=None, keepdim: bool = False):
        return self._reduce(F.amin, _extreme(self.dtype, 1), dim, keepdim)

    def max(self, dim=None, keepdim: bool = False):
        return self._extremum(F.max, -1, dim, keepdim)

    def min(self, dim=None, keepdim: bool = False):
        return self._extremum(F.min, 1, dim, keepdim)

    def _extremum(self, fn, side: int, dim, keepdim: bool):
        if isinstance(dim, (Tensor, Selection)):
            return fn(self, dim)                   # maximum/minimum: elementwise
        fill = _extreme(self.dtype, side)
        if dim is None:
            return fn(self.masked(fill))
        (axis,) = normalize_axes(dim, self.ndim)
        if axis:
            found = fn(self.dense, dim, keepdim)
            return type(found)(self.like(found.values), self.like(found.indices))
        found = fn(self.masked(fill), 0, keepdim)
        rows = found.indices
        place = self.mask.to(dtypes.int64).cumsum(0) - 1    # a row's place among those kept
        at = apply("gather", place, rows.reshape(-1), axis=0).reshape(tuple(rows.shape))
        return type(found)(found.values, at)

    def any(self, dim=None, keepdim: bool = False):
        return (self != 0)._reduce(lambda a, d, k: a.any(d, k) if d is not None else a.any(),
                                   False, dim, keepdim)

    def all(self, dim=None, keepdim: bool = False):
        return (self != 0)._reduce(lambda a, d, k: a.all(d, k) if d is not None else a.all(),
                                   True, dim, keepdim)

    def count_nonzero(self, dim=None):
        return (self != 0).sum(dim, dtype=dtypes.int64)

    def logsumexp(self, dim, keepdim: bool = False):
        return self._reduce(F.logsumexp, -math.inf, dim, keepdim)

    def norm(self, p="fro", dim=None, keepdim: bool = False):
        return self._reduce(lambda a, d, k: a.norm(p, d, k), 0, dim, keepdim)

    def var(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
        """torch's two passes: the sum of squared differences from the mean, over
        ``count - correction`` (at least 0: then inf or NaN, as torch)."""
        dim, correction = _correction(dim, unbiased, correction)
        if not self.dtype.is_floating:
            return self.dense.var()                # torch's error
        count = self.count(dim)
        if count is None:
            return self.like(self.dense.var(dim, keepdim=keepdim, correction=correction))
        centered = self - F.sum(self.masked(0), dim, keepdim=True) / count
        dof = F.clamp(count - correction, min=0)
        return F.sum((centered * centered).masked(0), dim, keepdim) / dof

    def std(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
        v = self.var(dim, unbiased, keepdim, correction=correction)
        if isinstance(v, Selection):
            return self.like(F.sqrt(v.dense))
        return F.composite("StdBackward0", F.sqrt, [v], lambda g, out, ins: (
            F.where(F.eq(out, 0.0), 0.0, g / (2.0 * out)),))


def _operator(name: str):
    dunder = f"__{name}__"

    def op(self, *args):
        return getattr(Tensor, dunder)(self, *args)   # (installed by ``methods``, later)
    op.__name__ = dunder
    return op


for _name in _OPERATORS:
    setattr(Selection, f"__{_name}__", _operator(_name))


def _identity(dtype, value: int):
    return bool(value) if dtype is dtypes.bool_ else value


def _extreme(dtype, side: int):
    """The value every other is below (``side`` 1) or above (-1) in ``dtype``."""
    if dtype.is_floating:
        return side * math.inf
    if dtype is dtypes.bool_:
        return side > 0
    info = np.iinfo(dtype.np)
    return int(info.max if side > 0 else info.min)


def _correction(dim, unbiased, correction) -> tuple:
    """(dim, correction) from torch's overloads of var/std (``x.var(False)``: unbiased)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if correction is not None and unbiased is not None:
        raise TypeError("var(): give either unbiased= or correction=, not both")
    return dim, (0 if unbiased is False else 1) if correction is None else correction
