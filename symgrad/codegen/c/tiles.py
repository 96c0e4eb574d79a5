"""Reductions over outer dims into a long inner row, in tiles of the row.

Layer: codegen (a helper of ``loops``). Input: a loop kernel's collapsed dims, its views and
accumulators. Output: whether its row runs in tiles (``tile``) and the nests that do
(``nests``).

A reduction over outer dims into a long inner row, reading values that do not change along
the reduced dims (k-means' distances: each point's own terms and coordinates, for every
centroid), runs in tiles of the row of one vector (``TILE_BYTES``) when the row's values and
accumulators pass ``L1_BYTES``: a tile's accumulators and values then stay in registers for
the whole reduction, instead of a pass over the row from L2 per reduced index. Each element
is still reduced in the same order: the same bits. Measured, one thread: k-means' cost at
k = 1,000 with its product fused (``lower.small_products``), 6.6-7.8 ms untiled, 4.6 tiled
(the threaded loop in a function of its own: ``regions``).
"""

from __future__ import annotations

import math

from ...dims import Dim, same
from .nest import Loop, Nest

TILE_BYTES = 64
L1_BYTES = 1 << 15


def tile(dims: list, loads: list, accs: dict) -> int | None:
    """The tile of a reduction's inner row (elements), or None: a reduction over all the
    outer dims (of at least 8 elements) into a row longer than two tiles, whose loads each
    vary along the row or along the reduced dims, not both (one that does streams a matrix:
    its order is kept), some along the row only, the row's values and accumulators past
    ``L1_BYTES``."""
    if not accs or len(dims) < 2:
        return None
    *outer, (n, _, kept_reduced, _) = dims
    if kept_reduced or not all(g for _, _, g, _ in outer) or \
            any(isinstance(e, Dim) for e, _, _, _ in dims) or \
            math.prod(e for e, _, _, _ in outer) < 8:
        return None
    itemsize = max(a.out_dtype.itemsize for a in accs.values())
    size = TILE_BYTES // itemsize
    if n < 2 * size:
        return None
    d, row = len(dims) - 1, 0
    for v in loads:
        along_row = not same(v.strides[d], 0)
        if along_row and any(not same(v.strides[j], 0) for j in range(d)):
            return None
        row += along_row
    if not row or n * itemsize * (row + len(accs)) <= L1_BYTES:
        return None
    return size


def nests(em, k, dims: list, loads: list, outs: list, accs: dict, threads: bool,
          size: int) -> tuple:
    """(init, nests, final) of the kernel with its row in tiles of ``size``: the tiles, then
    the rest of the row; ``em``: the ``loops.LoopEmitter`` printing it."""
    d, n = len(dims) - 1, dims[-1][0]
    full = n - n % size
    outer = [(f"i{j}", "0", str(dims[j][0])) for j in range(d)]
    plain = [(f"i{j}", j) for j in range(d)]
    made = []
    for tiled in (True, False):
        if (full if tiled else n - full) == 0:
            continue
        if tiled:
            loops = [Loop("b", "0", str(full // size))] + [Loop(*lp) for lp in outer] + \
                [Loop(f"i{d}", "0", str(size))]
            loop_vars = plain + [(f"(b*{size} + i{d})", d)]
        else:
            loops = [Loop(*lp) for lp in outer] + [Loop(f"i{d}", str(full), str(n))]
            loop_vars = plain + [(f"i{d}", d)]
        body = em.element(k, loads, loop_vars)
        load_names = [f"l{i}" for i in range(len(loads))]
        body += [em.store_line(st, out, loop_vars, load_names)
                 for st, out in zip(k.stores, outs)]
        if em.vector_math:
            loops[-1].pragma = "#pragma omp simd"
        if tiled and em.parallel and threads:     # (each tile owns its outputs)
            loops[0].pragma = f"#pragma omp parallel for{em.clause}"
        made.append(Nest(loops, body))
    return [a.fill for a in accs.values()], made, []
