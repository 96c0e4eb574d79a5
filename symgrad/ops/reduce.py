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


def reduction(name: str, numpy, vjp, torch: str, saves: bool = True, doc: str = "") -> OpDef:
    return register(OpDef(
        name=name, kind=REDUCE, shape=_shape, dtype=same_dtype, vjp=vjp, torch_name=torch,
        numpy=lambda a, *, axes: numpy(a, axis=axes, keepdims=True), saves=saves, doc=doc))


def _sum_vjp(g, out, ins, *, axes):
    return (bind("expand", g, shape_to=ins[0].shape),)


def _extremum_vjp(g, out, ins, *, axes):
    # torch's max()/amax() rule: ties share the gradient evenly.
    x = ins[0]
    hit = bind("eq", x, out)
    count = bind("sum", bind("cast", hit, dtype=x.dtype), axes=axes)
    return (bind("where", hit, g / count, 0.0),)


def _prod_vjp(g, out, ins, *, axes):
    # d prod / d x_i = prod of the others. Dividing out / x_i fails at zeros: with exactly
    # one zero its gradient is the product of the non-zeros, with two or more every gradient
    # is zero (and out / x_i is already 0 away from the zeros).
    x = ins[0]
    is_zero = bind("eq", x, 0.0)
    nonzero = bind("where", is_zero, 1.0, x)
    zeros = bind("sum", bind("cast", is_zero, dtype=x.dtype), axes=axes)
    prod_nonzero = bind("prod", nonzero, axes=axes)
    at_zero = bind("where", bind("eq", zeros, 1.0), prod_nonzero, 0.0)
    return (g * bind("where", is_zero, at_zero, out / nonzero),)


reduction("sum", np.sum, _sum_vjp, "SumBackward1", saves=False)
reduction("max", np.max, _extremum_vjp, "MaxBackward1")
reduction("min", np.min, _extremum_vjp, "MinBackward1")
reduction("prod", np.prod, _prod_vjp, "ProdBackward1")
