"""A tall product with few columns -> C loops that keep a block of rows' sums in registers.

Layer: codegen (the ``matmul`` kernel family: ``matmul.emit`` asks ``takes`` first). Input: a
``MatmulKernel`` of fixed sizes, C = A @ B with 2 to ``COLUMNS`` columns, ``MIN_ROWS`` rows or
more, and rows of B and C of unit stride. Output: its C: the rows in blocks of ``rows_of(n)``,
a block's sums in a local array (``acc[R][n]``, which gcc keeps in vector registers: each
row's n sums are one or two vectors), A's element of a row broadcast against a row of B for
each p, the block stored once at the end; on threads by blocks.

Each element is summed over p in order from 0, as the plain loop of ``matmul`` does: the same
bits as that loop (and as the ``blas="none"`` build), others than BLAS's.

Why not BLAS: OpenBLAS's GEMM packs the tall operand into its own layout and zeroes C before
it accumulates, work that pays for itself over wide products, not for 12 columns (hand
tracking's skinning product, 10,000 x 22 @ 22 x 12: packing 17% and zeroing 3% of the
objective's C). A C harness, one thread, float64, against scipy-openblas's dgemm
(loop / BLAS time): M = 10,000 rows, K = 22: 0.80 at n = 12, 0.49 at 8, 0.87 at 4, 1.08 at 2;
K = 64: 0.59 (n = 12), 0.54 (8), 0.50 (4), 0.47 (2); K = 256: 0.42-0.51; M = 100,000 rows
0.28-0.98 (memory-bound at K = 64); K = 8 with 8 or 12 columns the loop lost (1.17-1.62):
short contractions keep BLAS unless n <= 4 (0.53-0.86), and k-means-like K <= 8 products are
fused into their readers anyway (``lower.small_products``); 16 columns tie (0.97-1.09); 256
rows lose (1.2-2.2: BLAS's call cost is not what is slow there).
"""

from __future__ import annotations

import math

from ...lower.matmul import MatmulKernel
from . import regions
from .literals import c_literal
from .loops import PARALLEL_MIN_WORK, THREADS
from .nest import Loop, Nest, counted

COLUMNS = 12        # columns of C at most (past it, BLAS's blocking is as fast: see above)
MIN_ROWS = 1024     # rows of C at least (fewer: BLAS's kernel wins)
SHORT_K = 16        # a contraction shorter than this only for at most SHORT_COLUMNS columns
SHORT_COLUMNS = 4
MAX_K = 1024        # B's rows at most (a block's row of A and all of B stay in L1/L2)


def takes(k: MatmulKernel) -> bool:
    """Whether product ``k`` is printed by ``nests`` (see the module docstring)."""
    a, b, out = k.a, k.b, k.out
    sizes = (a.shape[-2], a.shape[-1], b.shape[-1])
    return out.buffer.dtype.name in ("float32", "float64") and \
        all(type(x) is int for x in (*sizes, b.strides[-1], out.strides[-1])) and \
        b.strides[-1] == 1 and out.strides[-1] == 1 and takes_shape(*sizes)


def takes_shape(m: int, kk: int, n: int) -> bool:
    """Whether an m x kk @ kk x n product has the shape ``takes`` asks for."""
    return 2 <= n <= COLUMNS and m >= MIN_ROWS and \
        (SHORT_K <= kk <= MAX_K or 0 < kk and n <= SHORT_COLUMNS)


def rows_of(n: int) -> int:
    """Rows of a block: 8 for up to 4 columns (one vector of sums per row: eight chains of
    additions hide their latency), else 4."""
    return 8 if n <= SHORT_COLUMNS else 4


def nests(ctx, k: MatmulKernel, batch: list, ix: tuple, pragma) -> tuple[list, list, bool]:
    """(the kernel's nests, the functions of its threaded loops, whether it runs on threads).
    ``ctx``: the module's printing context (None: one thread); ``batch``: the loops over the
    batch dims; ``ix``: the C index expressions of A, B and C in ``i``, ``p``, ``j``
    (``matmul``'s); ``pragma``: the environment's pragma printer."""
    m, kk, n = k.a.shape[-2], k.a.shape[-1], k.b.shape[-1]
    r = rows_of(n)
    full, tail = divmod(m, r)
    work = math.prod(k.out.shape) * kk
    threads = ctx is not None and ctx.loops.parallel and work >= PARALLEL_MIN_WORK
    simd = pragma("#pragma omp simd")
    made = []
    if full:
        loop = Loop("rb", "0", str(full))
        made.append(Nest([*batch, loop], _block(k, r, f"rb*{r}", ix, simd)))
        made[-1].loops[0].pragma = f"#pragma omp parallel for{THREADS}" if threads else ""
    if tail:
        made.append(Nest([counted(v.var, v.end) for v in batch],
                         _block(k, tail, str(m - tail), ix, simd)).scoped())
    functions = []
    if threads:
        made, functions = regions.split(ctx.loops.region_name(), made, [],
                                        regions.known([k], ctx.loops.sizes), ctx.env)
    return made, functions, threads


def _block(k: MatmulKernel, rows: int, first: str, ix: tuple, simd: str) -> list[str]:
    """The C of ``rows`` rows of C from row ``first``."""
    a, b, out = k.a.buffer.name, k.b.buffer.name, k.out.buffer.name
    a_ix, b_ix, c_ix = ix
    kk, n = k.a.shape[-1], k.b.shape[-1]
    dtype = k.out.buffer.dtype
    return [f"{dtype.ctype} acc[{rows}][{n}];",
            f"for (int64_t r = 0; r < {rows}; r++)",
            f"    for (int64_t j = 0; j < {n}; j++)",
            f"        acc[r][j] = {c_literal(0.0, dtype)};",
            f"for (int64_t p = 0; p < {kk}; p++) {{",
            f"    for (int64_t r = 0; r < {rows}; r++) {{",
            f"        const int64_t i = {first} + r;",
            f"        const {dtype.ctype} a_ip = {a}[{a_ix}];",
            f"        {simd}",
            f"        for (int64_t j = 0; j < {n}; j++)",
            f"            acc[r][j] += a_ip * {b}[{b_ix}];",
            "    }",
            "}",
            f"for (int64_t r = 0; r < {rows}; r++) {{",
            f"    const int64_t i = {first} + r;",
            f"    for (int64_t j = 0; j < {n}; j++)",
            f"        {out}[{c_ix}] = acc[r][j];",
            "}"]
