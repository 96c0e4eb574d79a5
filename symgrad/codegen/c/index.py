"""Index kernels -> C: gather, scatter_add, argmax, argmin.

Layer: codegen (the ``index`` kernel family). Input: an ``IndexKernel``. Output: loops in which
every index is checked against its bound; an index out of range makes the entry point return
the kernel's number + 1 (its error says which op, from which source line).
"""

from __future__ import annotations

import math

from ...lower.index import IndexCheck, IndexKernel
from .emitted import Emitted
from .render import render_kernel
from .nest import Nest, counted
from .text import index, loc_comment, with_axis


def emit(ctx, number: int, k: IndexKernel | IndexCheck) -> Emitted:
    kind = "gather" if type(k) is IndexCheck else k.kind
    where_ = f" (from {k.loc}: {k.loc.text})" if k.loc else ""
    error = (number + 1, f"an index passed to {kind} is out of range{where_}")
    if type(k) is IndexCheck:
        return Emitted(index_check(ctx.env, number, k), math.prod(k.index.shape),
                       errors=(error,))
    return Emitted(index_kernel(ctx.env, number, k), math.prod(k.out.shape), errors=(error,))


def index_check(env, number: int, k: IndexCheck) -> str:
    """Every index the view reaches against the bound: one flag over the loop (an or of
    comparisons, no branch: gcc vectorizes it), the status after."""
    v = k.index
    dims = _dims(v.shape)
    loops = [counted(var, v.shape[d]) for var, d in dims]
    body = [f"bad |= (uint64_t){v.buffer.name}[{index(v, dims)}] >= (uint64_t){k.bound};"]
    return render_kernel(env, number, f"check the indices in {v.buffer.name}",
                         [loc_comment(k.loc, "gather")], [Nest(loops, body)], ["int bad = 0;"],
                         [f"if (bad) return {number + 1};"])


def index_kernel(env, number: int, k: IndexKernel) -> str:
    axis = k.axis
    code = number + 1
    if k.kind == "gather":
        init, body, shape = _gather(k, code)
    elif k.kind == "scatter_add":
        init, body, shape = _scatter_add(k, code)
    elif _by_rows(k):
        init, body, shape = [], _arg_extremum_by_rows(k), k.shape[:-1]
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


def _better(k: IndexKernel, best: str) -> str:
    """C: value ``v`` replaces ``best`` (floats: a NaN wins and stays; integers have no NaN,
    and gcc -Wall flags ``v != v``)."""
    cmp = ">" if k.kind == "argmax" else "<"
    if k.inputs[0].buffer.dtype.is_floating:
        return f"{best} == {best} && (v {cmp} {best} || v != v)"
    return f"v {cmp} {best}"


# Columns an arg-extremum over a leading axis walks at once (``_arg_extremum_by_rows``): 512,
# a page of doubles per row, so that each row's reads stream (64 columns read 512 bytes and
# jumped a row: k-means' nearest centre among 1,000 for 10,000 points, from a 1000 x 10000
# matrix of 80 MB, its direction 26.5-26.9 -> 21.0-21.6 ms one thread; k=100 the same).
ROW_BLOCK = 512


def _by_rows(k: IndexKernel) -> bool:
    """Whether an argmax/argmin reduces an axis that is not the last of a matrix stored by
    rows: the column-by-column walk then strides through memory (k-means' nearest centre of
    10,000 points among 1,000: 40 ms), where a walk along the rows reads each once."""
    if k.kind not in ("argmax", "argmin"):
        return False
    x = k.inputs[0]
    last = len(x.shape) - 1
    return (k.axis != last and x.strides[last] == 1 and isinstance(x.shape[last], int)
            and x.shape[last] >= 8 and all(isinstance(e, int) for e in x.shape))


def _arg_extremum_by_rows(k: IndexKernel) -> list:
    """``_arg_extremum`` for ``_by_rows`` kernels: blocks of ``ROW_BLOCK`` columns, each
    walked down the axis row by row (contiguous reads) with a best value and index per
    column; the same first-extremum-wins result."""
    (x,) = k.inputs
    last = len(x.shape) - 1
    dims = _dims(k.shape[:-1]) + [("ic", last)]
    ctype = x.buffer.dtype.ctype
    n = x.shape[last]
    read = with_axis(x, k.axis, "j", dims)
    return [f"for (int64_t c0 = 0; c0 < {n}; c0 += {ROW_BLOCK}) {{",
            f"    const int64_t cn = {n} - c0 < {ROW_BLOCK} ? {n} - c0 : {ROW_BLOCK};",
            f"    {ctype} best[{ROW_BLOCK}];",
            f"    int64_t at[{ROW_BLOCK}];",
            "    for (int64_t c = 0; c < cn; c++) {",
            "        const int64_t ic = c0 + c;",
            f"        best[c] = {with_axis(x, k.axis, '0', dims)};",
            "        at[c] = 0;",
            "    }",
            f"    for (int64_t j = 1; j < {x.shape[k.axis]}; j++)",
            "        for (int64_t c = 0; c < cn; c++) {",
            "            const int64_t ic = c0 + c;",
            f"            const {ctype} v = {read};",
            f"            if ({_better(k, 'best[c]')}) {{ best[c] = v; at[c] = j; }}",
            "        }",
            "    for (int64_t c = 0; c < cn; c++) {",
            "        const int64_t ic = c0 + c;",
            f"        {k.out.buffer.name}[{index(k.out, dims)}] = at[c];",
            "    }",
            "}"]


def _arg_extremum(k: IndexKernel) -> list:
    """argmax / argmin over one axis: the first extremum wins, NaN counts as extreme."""
    (x,) = k.inputs
    dims = _dims(k.shape)
    ctype = x.buffer.dtype.ctype
    better = _better(k, "best")
    return [f"{ctype} best = {with_axis(x, k.axis, '0', dims)};",
            "int64_t at = 0;",
            f"for (int64_t j = 1; j < {x.shape[k.axis]}; j++) {{",
            f"    const {ctype} v = {with_axis(x, k.axis, 'j', dims)};",
            f"    if ({better}) {{ best = v; at = j; }}",
            "}",
            f"{k.out.buffer.name}[{index(k.out, dims)}] = at;"]
