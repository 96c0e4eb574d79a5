"""Reduction primitives: sum, max, min, prod over a set of axes.

Input: nothing. Output: registered ``OpDef``s of kind REDUCE. In the IR a reduction keeps the
reduced axes as size-1 dimensions (``keepdim=True``); the front end reshapes them away. That
keeps every VJP a broadcast of the cotangent back over the input.
"""

from __future__ import annotations

import numpy as np

from .registry import REDUCE, OpDef, bind, register, same_dtype


def _shape(shape, *, axes):
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def reduction(name: str, numpy, vjp, torch: str, saves: bool = True, uses_out: bool = False,
              doc: str = "") -> OpDef:
    return register(OpDef(
        name=name, kind=REDUCE, shape=_shape, dtype=same_dtype, vjp=vjp, torch_name=torch,
        numpy=lambda a, *, axes: numpy(a, axis=axes, keepdims=True), saves=saves,
        uses_out=uses_out, doc=doc))


def _sum_vjp(g, out, ins, *, axes):
    return (bind("expand", g, shape_to=ins[0].shape),)


def _extremum_vjp(g, out, ins, *, axes):
    # torch's max()/amax() rule: ties share the gradient evenly.
    x = ins[0]
    hit = bind("eq", x, out)
    count = bind("sum", bind("cast", hit, dtype=x.dtype), axes=axes)
    return (bind("where", hit, g / count, 0.0),)


def _shifted(y, k: int, forward: bool):
    """y moved k places along its last axis (towards the end if ``forward``), filled with 1."""
    n = y.shape[-1]
    lead = tuple(y.shape[:-1])
    ones = bind("expand", bind("cast", 1.0, dtype=y.dtype), shape_to=lead + (k,))
    starts, stops = (0,) * y.ndim, lead + (n - k,)
    if not forward:
        starts, stops = (0,) * (y.ndim - 1) + (k,), lead + (n,)
    kept = bind("slice", y, starts=starts, stops=stops, steps=(1,) * y.ndim)
    return bind("cat", *((ones, kept) if forward else (kept, ones)), axis=y.ndim - 1)


def _exclusive_cumprod(x, forward: bool):
    """Products of the elements before (after, if not ``forward``) each one along the last
    axis (1 where there are none): a Hillis-Steele scan of log2(n) shifted multiplies."""
    y = _shifted(x, 1, forward)
    k = 1
    while k < x.shape[-1] - 1:       # y[i] holds the product of the 2k elements before i
        y = y * _shifted(y, k, forward)
        k *= 2
    return y


def _prod_vjp(g, out, ins, *, axes):
    # d prod / d x_i = the product of the others = (product before i) * (product after i),
    # as torch computes it where zeros are possible. Dividing out / x_i instead fails at zeros,
    # and patching the zeros with constants gives the right gradient but the wrong second
    # derivative (with two zeros d2 prod / dx_i dx_j is the product of the rest, not 0).
    # Only multiplies and moves: exact, differentiable again, O(n log n) along the axes.
    x = ins[0]
    n = 1
    for a in axes:
        n *= x.shape[a]
    if n <= 1:
        return (bind("expand", g, shape_to=x.shape),)
    # Bring the reduced axes to the end as one axis of length n.
    keep = tuple(i for i in range(x.ndim) if i not in axes)
    perm = keep + tuple(axes)
    moved = bind("permute", x, perm=perm) if perm != tuple(range(x.ndim)) else x
    flat = bind("reshape", moved, shape_to=tuple(x.shape[i] for i in keep) + (n,))
    others = _exclusive_cumprod(flat, True) * _exclusive_cumprod(flat, False)
    others = bind("reshape", others, shape_to=moved.shape)
    if moved is not x:
        inverse = [0] * x.ndim
        for i, p in enumerate(perm):
            inverse[p] = i
        others = bind("permute", others, perm=tuple(inverse))
    return (g * others,)


reduction("sum", np.sum, _sum_vjp, "SumBackward1", saves=False)
reduction("max", np.max, _extremum_vjp, "MaxBackward1", uses_out=True)
reduction("min", np.min, _extremum_vjp, "MinBackward1", uses_out=True)
reduction("prod", np.prod, _prod_vjp, "ProdBackward1")
