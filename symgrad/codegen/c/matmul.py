"""Matrix products -> C.

Layer: codegen (the ``matmul`` kernel family). Input: a ``MatmulKernel`` (BLAS above
``BLAS_MIN_FLOPS``, else a plain loop; a tall product of a few columns: ``skinny``'s loops
over blocks of rows). Output: the kernel's C text, and whether it calls BLAS:
GEMV for a matrix times a vector or a vector times a matrix, TRMM for a product with a large
triangular operand, GEMM for the rest.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...dims import Dim, is_one, large, many, same
from ...lower.loopir import View
from ...lower.matmul import MatmulKernel
from . import skinny
from .emitted import Emitted
from .literals import c_literal
from .loops import opaque
from .render import render_kernel
from .nest import Nest, counted
from .text import affine, index, loc_comment

# BLAS's letter for each floating dtype.
_GEMM = {"float32": "s", "float64": "d"}

# Below this many multiply-adds a plain loop beats the BLAS call's fixed cost.
BLAS_MIN_FLOPS = 8192


def blas_takes(rows, cols, row_stride, col_stride) -> bool:
    """Whether GEMM reads a matrix with these strides (elements) in place: BLAS needs a unit
    stride along one of the two matrix dims, and a valid leading dim (the C backend's
    ``lower.Capabilities.gemm_operand``)."""
    if (is_one(col_stride) or is_one(cols)) and row_stride >= max(cols, 1):
        return True
    return (is_one(row_stride) or is_one(rows)) and col_stride >= max(rows, 1)


def blas_worthy(a: View, b: View) -> bool:
    """Whether a matmul of these operands calls BLAS: enough work to pay for the call, and
    dims that fit scipy-openblas32's 32-bit ints (else the 64-bit indexed loop)."""
    m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
    lda, ldb = gemm_layout(a)[1], gemm_layout(b)[1]
    return large(m * n * kk, BLAS_MIN_FLOPS) and all(x < 2**31 for x in (m, n, kk, lda, ldb))


def calls_blas(k: MatmulKernel, blas: str) -> bool:
    """Whether matmul kernel ``k`` calls BLAS under the target's ``blas`` setting (not a tall
    product of a few columns: ``skinny``)."""
    return blas != "none" and k.out.buffer.dtype.name in _GEMM and blas_worthy(k.a, k.b) \
        and not skinny.takes(k)


def gemm_layout(v: View) -> tuple[bool, int]:
    """(transposed, leading dimension) of a matrix view for row-major GEMM."""
    rows, cols = v.shape[-2], v.shape[-1]
    sr, sc = v.strides[-2], v.strides[-1]
    if (is_one(sc) or is_one(cols)) and (sr >= max(cols, 1) or is_one(rows)):
        return False, max(sr if many(rows) else cols, cols, 1)
    return True, max(sc if many(cols) else rows, rows, 1)


def emit(ctx, number: int, k: MatmulKernel) -> Emitted:
    if skinny.takes(k):      # (threaded here: ``matmul``'s other callers run it on one thread)
        text, threads, functions = _skinny(ctx.env, number, k, ctx)
        return Emitted(text, work(k), threaded=threads, functions=tuple(functions))
    text, used_blas = matmul(ctx.env, number, k, ctx.target.blas)
    return Emitted(text, work(k), blas=used_blas)


def work(k: MatmulKernel):
    """The product's multiply-adds."""
    return math.prod(k.out.shape) * k.a.shape[-1]


def matmul(env, number: int, k: MatmulKernel, blas: str = "scipy") -> tuple[str, bool]:
    """(the kernel's C, whether it calls BLAS); "" for an empty product. ``blas``: "scipy"
    (scipy-openblas32's prefixed names), "cblas" (standard CBLAS) or "none" (a plain loop)."""
    if skinny.takes(k):
        return _skinny(env, number, k, None)[0], False
    a, b, out = k.a, k.b, k.out
    m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if m * n == 0:
        return "", False
    batch_shape = out.shape[:-2]
    boff = _batch_offset(k)
    ctype = out.buffer.dtype.ctype
    use_blas = calls_blas(k, blas)
    a_ix, b_ix, c_ix = _indices(k)
    body = _loop_product(k, m, n, kk, ctype, a_ix, b_ix, c_ix)
    if use_blas:
        prefix = f"{'scipy_' if blas == 'scipy' else ''}cblas_{_GEMM[out.buffer.dtype.name]}"
        gemm = _gemv(prefix, k, boff) or _trmm(prefix, k, boff) or \
            (blas == "scipy" and _gemmt(prefix, k, boff)) or _gemm(prefix, k, boff)
        flops = m * n * kk
        body = gemm if not isinstance(flops, Dim) else _blas_or_loop(flops, kk, gemm, body)
    nest = Nest([counted(f"b{d}", e) for d, e in enumerate(batch_shape)], body)
    title = f"matmul {list(a.shape)} @ {list(b.shape)} -> {out.buffer.name}" + \
        (" (BLAS)" if use_blas else "")
    return render_kernel(env, number, title, [loc_comment(k.loc, "matmul")], [nest]), use_blas


def _skinny(env, number: int, k: MatmulKernel, ctx) -> tuple[str, bool, list]:
    """(the C of a product ``skinny`` takes, whether it runs on threads, its threaded loops'
    functions); ``ctx``: the module's printing context (None: one thread)."""
    batch = [counted(f"b{d}", e) for d, e in enumerate(k.out.shape[:-2])]
    nests, functions, threads = skinny.nests(ctx, k, batch, _indices(k), env.globals["pragma"])
    title = f"matmul {list(k.a.shape)} @ {list(k.b.shape)} -> {k.out.buffer.name} " \
        f"({skinny.rows_of(k.b.shape[-1])} rows at a time)"
    return render_kernel(env, number, title, [loc_comment(k.loc, "matmul")], nests), threads, \
        functions


def _batch_offset(k: MatmulKernel):
    """A view's offset at the batch loops' indices ``b0, b1, ...``, as C."""
    bvars = [(f"b{d}", d) for d in range(len(k.out.shape) - 2)]

    def boff(v: View) -> str:
        return index(View(v.buffer, v.offset, v.shape[:-2], v.strides[:-2]), bvars)
    return boff


def _indices(k: MatmulKernel) -> tuple[str, str, str]:
    """The C index expressions of A's, B's and C's elements in ``i``, ``p``, ``j`` (and the
    batch loops' indices)."""
    boff = _batch_offset(k)
    a, b, out = k.a, k.b, k.out
    return (affine(boff(a), (("i", a.strides[-2]), ("p", a.strides[-1]))),
            affine(boff(b), (("p", b.strides[-2]), ("j", b.strides[-1]))),
            affine(boff(out), (("i", out.strides[-2]), ("j", out.strides[-1]))))


def _gemm(prefix: str, k: MatmulKernel, boff) -> list[str]:
    """The product as one row-major GEMM call; into an output laid out transposed (its
    reader's layout, ``lower.matmul``), the transposed product B^T A^T."""
    a, b, out = k.a, k.b, k.out
    m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
    ta, lda = gemm_layout(a)
    tb, ldb = gemm_layout(b)
    tc, ldc = gemm_layout(out)
    one, zero = c_literal(1.0, out.buffer.dtype), c_literal(0.0, out.buffer.dtype)
    first = (a, ta, lda, m)
    second = (b, tb, ldb, n)
    if tc:
        first, second = (b, not tb, ldb, n), (a, not ta, lda, m)
    (x, tx, ldx, rows), (y, ty, ldy, cols) = first, second
    y_at = f"{y.buffer.name} + {boff(y)}"
    if _untranspose(tx, ty, rows, cols, kk):
        ctype = out.buffer.dtype.ctype
        call = _call(prefix + "gemm",
                     f"SG_ROW_MAJOR, {_TRANS[tx]}, SG_NO_TRANS, {rows}, {cols}, {kk}, {one},",
                     f"{x.buffer.name} + {boff(x)}, {ldx}, sg_bt, {cols}, {zero},",
                     f"{out.buffer.name} + {boff(out)}, {ldc}")
        return ["{",
                f"    {ctype} sg_bt[{kk * cols}];  /* the second operand untransposed "
                f"(symgrad/codegen/c/matmul.py: _untranspose) */",
                f"    const {ctype} *sg_b = {y_at};",
                f"    for (int64_t j = 0; j < {cols}; j++)",
                f"        for (int64_t p = 0; p < {kk}; p++)",
                f"            sg_bt[p*{cols} + j] = sg_b[j*{ldy} + p];"] + \
            [f"    {line}" for line in call] + ["}"]
    return _call(prefix + "gemm",
                 f"SG_ROW_MAJOR, {_TRANS[tx]}, {_TRANS[ty]}, {rows}, {cols}, {kk}, {one},",
                 f"{x.buffer.name} + {boff(x)}, {ldx}, {y_at}, {ldy}, {zero},",
                 f"{out.buffer.name} + {boff(out)}, {ldc}")


# A row-major GEMM of a plain first operand and a transposed second one is column-major TN,
# which OpenBLAS (its SKYLAKEX kernels, those of this AVX-512 machine) keeps off its small-
# matrix kernels when C has over 1,200 elements or K < 32: that call packs both operands and
# zeroes C in a scalar pass first. Up to UNTRANSPOSE_MAX_WORK multiply-adds, where the other
# forms run the small kernels, the second operand (at most UNTRANSPOSE_MAX_COPY elements, on
# the stack) is copied untransposed instead: measured, float64, one thread, 1000 x 20 x 20
# with A's rows 1000 apart (GradBench's GMM at d = 20, 200 such products a gradient) 66 ->
# 34 us; 1000 x 8 x 8 18 -> 11.5; 500 x 50 x 40 63 -> 49; 64^3 22 -> 18.6; float32 15-30%
# faster. Above that work both forms pack and the transposed one is as fast or faster.
UNTRANSPOSE_MAX_WORK = 100 ** 3
UNTRANSPOSE_MAX_COPY = 4096


def _untranspose(tx: bool, ty: bool, rows, cols, kk) -> bool:
    """Whether ``_gemm`` copies its transposed second operand untransposed first."""
    if tx or not ty or any(isinstance(d, Dim) for d in (rows, cols, kk)):
        return False
    return rows * cols * kk <= UNTRANSPOSE_MAX_WORK and kk * cols <= UNTRANSPOSE_MAX_COPY \
        and (rows * cols > 1200 or kk < 32)


def _gemv(prefix: str, k: MatmulKernel, boff) -> list[str] | None:
    """A matrix times a vector (one column of B) or a vector times a matrix (one row of A) as
    one GEMV call: GEMM with one column ran ~4x slower than NumPy's ``V @ x`` (which is
    GEMV) at 16392 x 1024. None: not such a product, or a vector with a stride GEMV does not
    take (0: a broadcast one)."""
    a, b, out = k.a, k.b, k.out
    m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if is_one(n) and not is_one(m):          # y = A x
        matrix, vec, inc, inc_out, rows, cols, flip = a, b, b.strides[-2], out.strides[-2], \
            m, kk, False
    elif is_one(m) and not is_one(n):        # y = B^T x: the matrix is B, read transposed
        matrix, vec, inc, inc_out, rows, cols, flip = b, a, a.strides[-1], out.strides[-1], \
            kk, n, True
    else:
        return None
    inc = 1 if is_one(kk) else inc
    if isinstance(inc, Dim) or isinstance(inc_out, Dim) or inc < 1 or inc_out < 1:
        return None
    stored_t, ld = gemm_layout(matrix)
    trans = stored_t != flip   # (a matrix stored transposed: its rows are the product's cols)
    r, c = (cols, rows) if stored_t else (rows, cols)
    one, zero = c_literal(1.0, out.buffer.dtype), c_literal(0.0, out.buffer.dtype)
    return _call(prefix + "gemv", f"SG_ROW_MAJOR, {_TRANS[trans]}, {r}, {c}, {one}, "
                 f"{matrix.buffer.name} + {boff(matrix)}, {ld},",
                 f"{vec.buffer.name} + {boff(vec)}, {inc}, {zero}, "
                 f"{out.buffer.name} + {boff(out)}, {inc_out}")


_TRANS = {False: "SG_NO_TRANS", True: "SG_TRANS"}


def _t(v: View) -> View:
    """The transposed matrices of a view (its last two dims swapped)."""
    return replace(v, shape=(*v.shape[:-2], v.shape[-1], v.shape[-2]),
                   strides=(*v.strides[:-2], v.strides[-1], v.strides[-2]))

# The size of a triangle (a square operand's, or of the output's used elements) from which
# TRMM and GEMMT beat GEMM (OpenBLAS, one thread, float64, 1000 rows and a d x d triangle:
# copy and TRMM over GEMM 1.22 at d = 16, 0.95 at 32, 0.76 at 64, 0.57 at 256; GEMMT of the
# d x d triangle of a 1000-long contraction over GEMM 1.87 at 16, 0.92 at 32, 0.82 at 48,
# 0.74 at 64, 0.62 at 128).
TRIANGLE_MIN = 48
_FLIP = {"lower": "upper", "upper": "lower", None: None}


def _row_major(k: MatmulKernel) -> MatmulKernel | None:
    """``k`` with its output laid out by rows (an output stored transposed: the product
    C^T = B^T A^T, its triangles flipped); None: fixed sizes and plain views only."""
    if gemm_layout(k.out)[0]:
        k = MatmulKernel(_t(k.b), _t(k.a), _t(k.out), k.loc, _FLIP[k.triangle_b],
                         _FLIP[k.triangle_a], _FLIP[k.triangle_out])
    if any(isinstance(x, Dim) for x in (*k.a.shape[-2:], k.b.shape[-1])) or \
            any(v.window is not None for v in k.views()) or gemm_layout(k.out)[0]:
        return None
    return k


def _trmm(prefix: str, k: MatmulKernel, boff) -> list[str] | None:
    """A product with a triangular square operand (zero above or below its diagonal in
    every matrix: ``ir.zeros``) as a copy of the other operand into the output and one TRMM
    in place, which multiplies the triangle only (half GEMM's work): GradBench's GMM at
    d = 64, whose Cholesky factors ``L`` enter ``L @ xc`` and, in the gradient, ``g @ L``.
    The zeros skipped are exact zeros (``ir.zeros``), but 0 * inf is NaN: when the copy
    meets an infinity or a NaN in the other operand, the product is GEMM's (NumPy's NaNs,
    where TRMM would leave finite values). None: no such operand of ``TRIANGLE_MIN`` or
    more."""
    k = _row_major(k)
    if k is None:
        return None
    a, b, out = k.a, k.b, k.out
    m, n = a.shape[-2], b.shape[-1]
    if k.triangle_a and m >= TRIANGLE_MIN:
        side, tri, uplo, other = "SG_LEFT", a, k.triangle_a, b
    elif k.triangle_b and n >= TRIANGLE_MIN:
        side, tri, uplo, other = "SG_RIGHT", b, k.triangle_b, a
    else:
        return None
    stored_t, ld = gemm_layout(tri)
    if stored_t:                  # (TRMM is told the triangle of the matrix as stored)
        uplo = _FLIP[uplo]
    x_ix = affine(boff(other), (("i", other.strides[-2]), ("j", other.strides[-1])))
    one = c_literal(1.0, out.buffer.dtype)
    ctype = out.buffer.dtype.ctype
    trmm = _call(prefix + "trmm", f"SG_ROW_MAJOR, {side}, SG_{uplo.upper()}, "
                 f"{_TRANS[stored_t]}, SG_NON_UNIT, {m}, {n}, {one},",
                 f"{tri.buffer.name} + {boff(tri)}, {ld},",
                 f"{out.buffer.name} + {boff(out)}, {gemm_layout(out)[1]}")
    return ["{",
            "    int sg_nonfinite = 0;  /* an inf or NaN to multiply by the skipped zeros */",
            f"    for (int64_t i = 0; i < {m}; i++) {{",
            f"        for (int64_t j = 0; j < {n}; j++) {{",
            f"            const {ctype} x = {other.buffer.name}[{x_ix}];",
            f"            {out.buffer.name}[{_c_ix(out, boff)}] = x;",
            "            sg_nonfinite |= !(x - x == 0);",
            "        }",
            "    }",
            "    if (sg_nonfinite) {"] + \
        [f"        {x}" for x in _gemm(prefix, k, boff)] + ["    } else {"] + \
        [f"        {x}" for x in trmm] + ["    }", "}"]


def _gemmt(prefix: str, k: MatmulKernel, boff) -> list[str] | None:
    """A square product of which the readers use one triangle only (``ir.reads``: the
    gradient of a triangular factor) as one GEMMT, which computes that triangle (an
    OpenBLAS extension, not standard CBLAS), and the other triangle set to zero (never
    read; zero rather than whatever the memory held). None: no such output of
    ``TRIANGLE_MIN`` or more."""
    k = _row_major(k)
    if k is None or not k.triangle_out:
        return None
    a, b, out = k.a, k.b, k.out
    m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if m != n or n < TRIANGLE_MIN:
        return None
    (ta, lda), (tb, ldb) = gemm_layout(a), gemm_layout(b)
    one, zero = c_literal(1.0, out.buffer.dtype), c_literal(0.0, out.buffer.dtype)
    other = "j = i + 1; j < " + str(n) if k.triangle_out == "lower" else "j = 0; j < i"
    return _call(prefix + "gemmt", f"SG_ROW_MAJOR, SG_{k.triangle_out.upper()}, "
                 f"{_TRANS[ta]}, {_TRANS[tb]}, {n}, {kk}, {one},",
                 f"{a.buffer.name} + {boff(a)}, {lda}, {b.buffer.name} + {boff(b)}, {ldb}, "
                 f"{zero},", f"{out.buffer.name} + {boff(out)}, {gemm_layout(out)[1]}") + \
        [f"for (int64_t i = 0; i < {n}; i++)",
         f"    for (int64_t {other}; j++)",
         f"        {out.buffer.name}[{_c_ix(out, boff)}] = {zero};"]


def _c_ix(out: View, boff) -> str:
    return affine(boff(out), (("i", out.strides[-2]), ("j", out.strides[-1])))


def _call(name: str, *lines: str) -> list[str]:
    """A BLAS call's C lines: ``name(`` with the first arguments, the rest aligned under them."""
    indent = " " * (len(name) + 1)
    return [f"{name}({lines[0]}"] + [indent + x for x in lines[1:-1]] + [f"{indent}{lines[-1]});"]


def _blas_or_loop(flops: Dim, kk, gemm: list, loop: list) -> list:
    """Call-time sizes: BLAS when the product is large enough, decided at run time, and not
    for a contraction of length 1 (an outer product: passes.identities makes a fixed-size one
    a multiplication, which a BLAS call is several times slower than)."""
    when = f"{opaque(flops)} >= {BLAS_MIN_FLOPS}" + (
        f" && {opaque(kk)} > 1" if isinstance(kk, Dim) else "")
    return ([f"if ({when}) {{"] + [f"    {x}" for x in gemm] + ["} else {"] +
            [f"    {x}" for x in loop] + ["}"])


def _loop_product(k: MatmulKernel, m, n, kk, ctype: str, a_ix: str, b_ix: str,
                  c_ix: str) -> list[str]:
    """A matmul as plain loops. Each output element is summed over p in order, from 0, in
    both forms, so they give the same bits. A product large enough for BLAS, with rows of B
    and C contiguous, is ordered i, p, j: the inner loop then runs along a row of B and of C
    and vectorizes (standalone C without BLAS: a 256 x 784 x 256 product took 14.0 ms instead
    of 51.1 ms at -O3, 30.9 instead of 50.3 at -O2). Smaller ones keep one accumulator per
    output; an int64 product accumulates in uint64_t, wrapping as torch's does (signed
    overflow is undefined in C)."""
    a, b, out = k.a.buffer.name, k.b.buffer.name, k.out.buffer.name
    if k.out.buffer.dtype.is_integer:
        return [f"for (int64_t i = 0; i < {m}; i++) {{",
                f"    for (int64_t j = 0; j < {n}; j++) {{",
                "        uint64_t acc = 0;",
                f"        for (int64_t p = 0; p < {kk}; p++)",
                f"            acc += (uint64_t){a}[{a_ix}] * (uint64_t){b}[{b_ix}];",
                f"        {out}[{c_ix}] = ({ctype})acc;",
                "    }",
                "}"]
    if blas_worthy(k.a, k.b) and k.b.strides[-1] == 1 and k.out.strides[-1] == 1 and \
            not same(kk, 0):
        # (p = 0 stores 0 + its product, as the accumulator's first step does: one pass over
        # a row instead of zeroing it first; an outer product of call-time sizes is this loop)
        return [f"for (int64_t i = 0; i < {m}; i++) {{",
                "    {",
                "        const int64_t p = 0;",
                f"        const {ctype} a_ip = {a}[{a_ix}];",
                f"        for (int64_t j = 0; j < {n}; j++)",
                f"            {out}[{c_ix}] = {c_literal(0.0, k.out.buffer.dtype)} + "
                f"a_ip * {b}[{b_ix}];",
                "    }",
                f"    for (int64_t p = 1; p < {kk}; p++) {{",
                f"        const {ctype} a_ip = {a}[{a_ix}];",
                f"        for (int64_t j = 0; j < {n}; j++)",
                f"            {out}[{c_ix}] += a_ip * {b}[{b_ix}];",
                "    }",
                "}"]
    return [f"for (int64_t i = 0; i < {m}; i++) {{",
            f"    for (int64_t j = 0; j < {n}; j++) {{",
            f"        {ctype} acc = 0;",
            f"        for (int64_t p = 0; p < {kk}; p++)",
            f"            acc += {a}[{a_ix}] * {b}[{b_ix}];",
            f"        {out}[{c_ix}] = acc;",
            "    }",
            "}"]
