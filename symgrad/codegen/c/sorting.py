"""Sort kernels -> C: a stable merge sort of each row's indices by their values.

Layer: codegen. Input: a ``SortKernel`` (``lower.sorting``; the ``argsort`` primitive of
``ops.sorting``). Output: the kernel's C text and its work in elements (for the hot/cold split).

Loops over the dims other than the sorted axis hold one row each. A row's indices 0..n-1 are
sorted by the values they point at: insertion sort of runs of ``RUN`` indices, then bottom-up
merges of neighbouring runs, doubling their width, back and forth between the two halves of a
workspace scratch buffer. Both steps are stable (an index passes another only if its value
sorts strictly before), which is the order the NumPy reference gives: O(n log n) comparisons,
no recursion, no allocation. The values are read in place through the macro ``X_(j)`` (strided
or broadcast operands need no copy); ``BEFORE_(a, b)`` is the strict order: ``a < b``
ascending, ``a > b`` descending, and for floating types a NaN sorts after every number
ascending and before every number descending (torch's placement), tied with other NaNs.
"""

from __future__ import annotations

import math

from ...lower.sorting import SortKernel
from .emitted import Emitted
from .render import render_kernel
from .nest import Nest, counted
from .text import index, loc_comment

RUN = 16    # indices per insertion-sorted run, before the merges

# a sorts strictly before b; a NaN (x != x) after every number, or before it if descending
_BEFORE = {
    (False, False): "((a) < (b))",
    (True, False): "((a) > (b))",
    (False, True): "((a) < (b) || ((b) != (b) && (a) == (a)))",
    (True, True): "((a) > (b) || ((a) != (a) && (b) == (b)))",
}


def emit(ctx, number: int, k: SortKernel) -> Emitted:
    return Emitted(*sort_kernel(ctx.env, number, k))


def sort_kernel(env, number: int, k: SortKernel) -> tuple[str, int]:
    """(the kernel's C, its work in elements); "" when it has no elements."""
    out, values = k.out, k.inputs[0]
    if math.prod(out.shape) == 0:
        return "", 0
    n = out.shape[k.axis]
    dims = [(f"i{d}", d) for d in range(len(out.shape)) if d != k.axis]
    loops = [counted(var, out.shape[d]) for var, d in dims]
    offsets = [f"const int64_t o0 = {index(values, dims)};",
               f"const int64_t o1 = {index(out, dims)};"]
    floating = values.buffer.dtype.is_floating
    defines = [f"#define N_ {n}", f"#define RUN_ {RUN}",
               f"#define S_ {k.scratch.buffer.name}",
               f"#define X_(j) {_element(values, k.axis, 'o0')}",
               f"#define OUT_(j) {_element(out, k.axis, 'o1')}",
               f"#define BEFORE_(a, b) {_BEFORE[(k.descending, floating)]}"]
    undefs = [f"#undef {line.split()[1].split('(')[0]}" for line in defines]
    body = env.get_template("sort.c.j2").render(T=values.buffer.dtype.ctype)
    order = "descending" if k.descending else "ascending"
    title = f"{k.kind} {list(values.shape)} along axis {k.axis}, {order} -> {out.buffer.name}"
    nest = Nest(loops, offsets + body.splitlines())
    text = render_kernel(env, number, title, [loc_comment(k.loc, k.kind)], [nest.scoped()],
                         defines, undefs)
    return text, math.prod(out.shape) * max(1, math.ceil(math.log2(max(n, 2))))


def _element(v, axis: int, base: str) -> str:
    """Element ``(j)`` along ``axis`` of ``v``'s row at offset ``base``."""
    s = v.strides[axis]
    step = "" if s == 0 else " + (j)" if s == 1 else f" + (j)*{s}"
    return f"{v.buffer.name}[{base}{step}]"
