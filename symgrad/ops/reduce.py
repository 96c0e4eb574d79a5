"""Reduction primitives: sum, max, min, prod over a set of axes.

Layer: ops. Input: nothing. Output: registered ``OpDef``s of kind REDUCE. In the IR a reduction
keeps the reduced axes as size-1 dimensions (``keepdim=True``); the front end reshapes them
away. That keeps every VJP a broadcast of the cotangent back over the input.

max and min carry amax/amin's gradient (ties share it by count); torch's max()/min() of all
elements distribute it differently at NaN, which the front end's ``max`` attaches as its own
rule (``frontend.functions.basic``): one primitive, two torch functions, no test of names here.
"""

from __future__ import annotations

import numpy as np

from .movement import inverse_permutation
from .registry import REDUCE, OpDef, nonempty_axes, register, same_dtype


def _shape(shape, *, axes):
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def reduction(name: str, numpy, vjp, torch: str, saves: bool = True, uses_out: bool = False,
              doc: str = "", needs_elements: bool = False) -> OpDef:
    shape = _shape
    if needs_elements:
        def shape(s, *, axes):
            nonempty_axes(name, s, axes)
            return _shape(s, axes=axes)
    return register(OpDef(
        name=name, kind=REDUCE, shape=shape, dtype=same_dtype, vjp=vjp, torch_name=torch,
        numpy=lambda a, *, axes: numpy(a, axis=axes, keepdims=True), saves=saves,
        uses_out=uses_out, doc=doc))


def _sum_vjp(b, g, out, ins, *, axes):
    return (b.op("expand", g, shape_to=ins[0].shape),)


def _extremum_vjp(b, g, out, ins, *, axes):
    """amax/amin's rule (torch's ``scale_grad_by_count``): ``(g / count) * (x == out)``: ties
    share the gradient evenly. No element equals a NaN result, so count is 0 and every element
    of that slice gets 0 * inf = NaN, as in torch."""
    x = ins[0]
    mask = b.op("cast", b.op("eq", x, out), dtype=x.dtype)
    return (g / b.op("sum", mask, axes=axes) * mask,)


def _shifted(b, y, k: int, forward: bool):
    """y moved k places along its last axis (towards the end if ``forward``), filled with 1."""
    n = y.shape[-1]
    lead = tuple(y.shape[:-1])
    ones = b.full(y, 1.0, lead + (k,))
    starts, stops = (0,) * y.ndim, lead + (n - k,)
    if not forward:
        starts, stops = (0,) * (y.ndim - 1) + (k,), lead + (n,)
    kept = b.op("slice", y, starts=starts, stops=stops, steps=(1,) * y.ndim)
    return b.op("cat", *((ones, kept) if forward else (kept, ones)), axis=y.ndim - 1)


def _exclusive_cumprod(b, x, forward: bool):
    """Products of the elements before (after, if not ``forward``) each one along the last
    axis (1 where there are none): a running product (one C loop) of x moved one place."""
    return b.op("cumprod", _shifted(b, x, 1, forward), axis=x.ndim - 1, reverse=not forward)


def _prod_vjp(b, g, out, ins, *, axes):
    # d prod / d x_i = the product of the others = (product before i) * (product after i),
    # as torch computes it where zeros are possible. Dividing out / x_i instead fails at zeros,
    # and patching the zeros with constants gives the right gradient but the wrong second
    # derivative (with two zeros d2 prod / dx_i dx_j is the product of the rest, not 0).
    # Only multiplies and moves: exact, differentiable again, O(n) along the axes.
    # Intended differences from torch, whose no-zero branch divides (g * out / x): at an
    # element that is +-Inf or NaN, torch gives NaN there (inf / inf) and, when the product is
    # NaN, NaN everywhere; here each element gets the product of the others, NaN only if one of
    # them is (d/dx0 prod([inf, 1, -2]) = -2, not NaN; the overflow of out / x cannot happen
    # either). With two or more zeros torch's first-order backward returns +0.0 everywhere;
    # here the products of the others are zeros that keep their signs.
    x = ins[0]
    n = 1
    for a in axes:
        n *= x.shape[a]
    if n <= 1:
        return (b.op("expand", g, shape_to=x.shape),)
    # Bring the reduced axes to the end as one axis of length n.
    keep = tuple(i for i in range(x.ndim) if i not in axes)
    perm = keep + tuple(axes)
    moved = b.op("permute", x, perm=perm) if perm != tuple(range(x.ndim)) else x
    flat = b.op("reshape", moved, shape_to=tuple(x.shape[i] for i in keep) + (n,))
    others = _exclusive_cumprod(b, flat, True) * _exclusive_cumprod(b, flat, False)
    others = b.op("reshape", others, shape_to=moved.shape)
    if moved is not x:
        others = b.op("permute", others, perm=inverse_permutation(perm))
    return (g * others,)


reduction("sum", np.sum, _sum_vjp, "SumBackward1", saves=False)
reduction("max", np.max, _extremum_vjp, "MaxBackward1", uses_out=True, needs_elements=True)
reduction("min", np.min, _extremum_vjp, "MinBackward1", uses_out=True, needs_elements=True)
reduction("prod", np.prod, _prod_vjp, "ProdBackward1")

# The ufunc reductions the references above are, for floating arrays (np.sum is add.reduce,
# np.max maximum.reduce...): the eager path calls them at once (``shown.eager_reduction``),
# skipping NumPy's Python wrapper, with the same results.
FLOAT_KERNELS = {"sum": np.add.reduce, "max": np.maximum.reduce, "min": np.minimum.reduce,
                 "prod": np.multiply.reduce}
