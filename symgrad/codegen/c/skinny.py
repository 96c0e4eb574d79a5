"""A tall product with few columns -> C loops that keep a block of rows' sums in registers.

Layer: codegen (the ``matmul`` kernel family: ``matmul.emit`` asks ``takes`` first). Input: a
``MatmulKernel`` of fixed sizes, float64, C = A @ B with ``MIN_COLUMNS`` to ``COLUMNS``
columns, a contraction of ``MIN_K`` to ``MAX_K``, an A of ``MIN_A_BYTES`` or more, and rows of
B and C of unit stride. Output: its C: the rows in blocks of ``rows_of(n)``, a block's sums in
a local array (``acc[R][n]``, which gcc keeps in vector registers: each row's n sums are one
or two vectors), A's element of a row broadcast against a row of B for each p, the block
stored once at the end; on threads by blocks.

Each element is summed over p in order from 0, as the plain loop of ``matmul`` does: the same
bits as that loop (and as the ``blas="none"`` build), others than BLAS's.

Why not BLAS: OpenBLAS's GEMM packs the tall operand into its own layout and zeroes C before
it accumulates, work that pays for itself over wide products, not for a dozen columns (hand
tracking's skinning product, 10,000 x 22 @ 22 x 12: packing 17% and zeroing 3% of the
objective's C). Measured through ``sg.compile`` (NumPy in and out, one thread; this loop's time
/ OpenBLAS's): 10,000 rows and K = 22: 0.65 at 12 columns, 0.72 at 10, 0.48 at 8, 0.58 at 6;
K = 16: 0.76; K = 256 and 512: 0.57 and 0.41; 4,096 x 22 @ 22 x 12 0.64; 4,096 x 64 @ 64 x 8
0.54; 50,000 rows 0.63. Where it lost, it is not taken: A in the L2 cache (2,048 x 22 @ 22 x
12: 1.11, 4,096 x 16 @ 16 x 8: 1.22), a contraction of 8 (1.17 at 12 columns in a C harness:
k-means-like products, fused into their readers anyway, ``lower.small_products``), 2 columns
(1.55 at 1,024 x 64: two lanes of a vector used), 16 columns (a tie), and float32 (0.84-0.93 at
K = 22 and 64, 1.10 at K = 256, 1.7-3.4 for small A: its 16-lane vectors half used).
"""

from __future__ import annotations

import math

from ...lower.matmul import MatmulKernel
from . import regions
from .literals import c_literal
from .loops import PARALLEL_MIN_WORK, THREADS
from .nest import Loop, Nest, counted

COLUMNS = 12              # columns of C at most (16 tie with BLAS)
MIN_COLUMNS = 4           # columns at least (fewer: most of a vector's lanes idle)
MIN_K, MAX_K = 16, 1024   # contraction lengths (B stays in the L1/L2 cache)
MIN_A_BYTES = 640 << 10   # A's bytes at least: a smaller one stays in L2, where BLAS wins


def takes(k: MatmulKernel) -> bool:
    """Whether product ``k`` is printed by ``nests`` (see the module docstring)."""
    a, b, out = k.a, k.b, k.out
    sizes = (a.shape[-2], a.shape[-1], b.shape[-1])
    return out.buffer.dtype.name == "float64" and \
        all(type(x) is int for x in (*sizes, b.strides[-1], out.strides[-1])) and \
        b.strides[-1] == 1 and out.strides[-1] == 1 and takes_shape(*sizes)


def takes_shape(m: int, kk: int, n: int) -> bool:
    """Whether a float64 m x kk @ kk x n product has the shape ``takes`` asks for."""
    return MIN_COLUMNS <= n <= COLUMNS and MIN_K <= kk <= MAX_K and m * kk * 8 >= MIN_A_BYTES


def rows_of(n: int) -> int:
    """Rows of a block: 8 for 4 columns (half a vector of sums per row: eight chains of
    additions hide their latency), else 4."""
    return 8 if n <= MIN_COLUMNS else 4


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
