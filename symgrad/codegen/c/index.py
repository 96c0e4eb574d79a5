"""Index kernels -> C: gather, scatter_add, argmax, argmin.

Layer: codegen (the ``index`` kernel family). Input: an ``IndexKernel``. Output: loops in which
every index is checked against its bound; an index out of range makes the entry point return
the kernel's number + 1 (its error says which op, from which source line).
"""

from __future__ import annotations

import math

from ...lower.index import IndexKernel
from .emitted import Emitted
from .loops import render_kernel
from .nest import Nest, counted
from .text import index, loc_comment, with_axis


def emit(ctx, number: int, k: IndexKernel) -> Emitted:
    where_ = f" (from {k.loc}: {k.loc.text})" if k.loc else ""
    error = (number + 1, f"an index passed to {k.kind} is out of range{where_}")
    return Emitted(index_kernel(ctx.env, number, k), math.prod(k.out.shape), errors=(error,))


def index_kernel(env, number: int, k: IndexKernel) -> str:
    axis = k.axis
    code = number + 1
    if k.kind == "gather":
        init, body, shape = _gather(k, code)
    elif k.kind == "scatter_add":
        init, body, shape = _scatter_add(k, code)
    else:
        init, body, shape = [], _arg_extremum(k), k.shape
    loops = [counted(f"i{d}", e) for d, e in enumerate(shape)]
    if any(e == 0 for e in shape):
        loops, body = [], []
    return render_kernel(env, number, f"{k.kind} along axis {axis} -> {k.out.buffer.name}",
                         [loc_comment(k.loc, k.kind)], [Nest(loops, body)], init)


def _dims(shape: tuple) -> list:
    return [(f"i{d}", d) for d in range(len(shape))]


def _gather(k: IndexKernel, code: int) -> tuple[list, list, tuple]:
    x, idx = k.inputs
    dims = _dims(idx.shape)
    body = [f"const int64_t j = {idx.buffer.name}[{index(idx, dims)}];",
            f"if (j < 0 || j >= {x.shape[k.axis]}) return {code};",
            f"{k.out.buffer.name}[{index(k.out, dims)}] = {with_axis(x, k.axis, 'j', dims)};"]
    return [], body, idx.shape


def _scatter_add(k: IndexKernel, code: int) -> tuple[list, list, tuple]:
    src, idx = k.inputs
    dims = _dims(src.shape)
    size = 1
    for e in k.shape:
        size *= e
    init = [f"for (int64_t i = 0; i < {size}; i++) {k.out.buffer.name}[i] = 0;"]
    body = [f"const int64_t j = {idx.buffer.name}[{index(idx, dims)}];",
            f"if (j < 0 || j >= {k.shape[k.axis]}) return {code};",
            f"{with_axis(k.out, k.axis, 'j', dims)} += {src.buffer.name}[{index(src, dims)}];"]
    return init, body, src.shape


def _arg_extremum(k: IndexKernel) -> list:
    """argmax / argmin over one axis: the first extremum wins, NaN counts as extreme."""
    (x,) = k.inputs
    dims = _dims(k.shape)
    cmp = ">" if k.kind == "argmax" else "<"
    ctype = x.buffer.dtype.ctype
    # floats: a NaN wins and stays; integers have no NaN (gcc -Wall flags `v != v`)
    better = f"best == best && (v {cmp} best || v != v)" \
        if x.buffer.dtype.is_floating else f"v {cmp} best"
    return [f"{ctype} best = {with_axis(x, k.axis, '0', dims)};",
            "int64_t at = 0;",
            f"for (int64_t j = 1; j < {x.shape[k.axis]}; j++) {{",
            f"    const {ctype} v = {with_axis(x, k.axis, 'j', dims)};",
            f"    if ({better}) {{ best = v; at = j; }}",
            "}",
            f"{k.out.buffer.name}[{index(k.out, dims)}] = at;"]
