"""Decomposition kernels -> C: LU solve and log-determinant, Cholesky, triangular solve, Jacobi
eigh, Householder QR, a factorization's LAPACK ``info``, each a short textbook algorithm
written out in a template (``templates/decomp_*.c.j2``, one batch element's computation), once
for real and complex scalars.

Layer: codegen. Input: a ``DecompKernel`` (``lower.decomp``). Output: the kernel's C text, a
size for the hot/cold split, and the (status, message) of the error it can report (a singular
matrix for a checked ``solve``, one not positive-definite for a checked ``cholesky``): such a
kernel returns the negative status -(number + 1), which the runtime raises as
``symgrad.linalg.LinAlgError``; unchecked, the failing batch element's result is NaN.

The C is self-contained (no LAPACK: no Fortran calling convention, no workspace queries, the
same text on every platform) and O(n^3) per matrix, as LAPACK's unblocked algorithms are; it
suits the small and medium matrices of traced programs. Each algorithm reads its operands
through macros (``A_(i, j)``, defined from the operand's strides: a transposed or broadcast
operand is read in place), loops over the batch outside, and keeps its working copy in
workspace scratch. Scalars are computed in double and stored in the tensor's type. The kernels
follow the NumPy references' conventions (LAPACK's Householder signs, ascending eigenvalues,
eigenvectors whose largest entry is positive), so eager and compiled values agree to rounding.
From ``LAPACK_MIN``'s orders on, symgrad's own build calls LAPACK instead for ``solve``
(``?gesv``) and ``eigh`` (``?syevd``, then the same eigenvector signs): blocked, and faster
on large matrices; exported C keeps the loops.

Jacobi (``eigh``) rotates away each off-diagonal pair in turn, sweep after sweep, until none is
left above rounding (quadratic convergence: a handful of sweeps); it is as accurate as LAPACK's
tridiagonal QR for the eigenvalues and more so for the eigenvectors. The Householder reflectors
(``qr``) are LAPACK's (``dlarfg``: beta = -sign(alpha) * norm, no reflection for a column
already zero below the diagonal), so Q and R carry the signs NumPy's and torch's carry.
"""

from __future__ import annotations

import math

from ...lower.decomp import DecompKernel
from ...lower.loopir import View
from ...ops.decomp import failure_message
from .emitted import Emitted
from .render import render_kernel
from .nest import Nest, counted
from .text import index, loc_comment

# From this order on, ``solve`` and ``eigh`` call LAPACK (the scipy-openblas32 wheel's LAPACKE,
# which symgrad's build links for BLAS already); below it, the templates' loops, whose fixed
# cost is lower. Measured (float64, one thread, us a call, loops / LAPACK): solve n = 64
# 20.8 / 24.4, n = 100 64.7 / 59.0, n = 200 427 / 290; eigh n = 8 7.8 / 7.5, n = 12 19.6 /
# 14.7, n = 64 2398 / 275, n = 200 83336 / 2924.
LAPACK_MIN = {"solve": 96, "eigh": 10}
_LAPACK = {"float32": "s", "float64": "d"}


def calls_lapack(k, blas: str) -> bool:
    """Whether decomposition kernel ``k`` calls LAPACK: symgrad's own build (``blas`` is
    "scipy"), a real matrix of a fixed order at least ``LAPACK_MIN`` that fits LAPACK's
    32-bit ints; exported C keeps the loops (no LAPACK to link)."""
    if blas != "scipy" or not isinstance(k, DecompKernel) or k.kind not in LAPACK_MIN:
        return False
    a = k.inputs[0]
    n = a.shape[-1]
    return (a.buffer.dtype.name in _LAPACK and isinstance(n, int)
            and LAPACK_MIN[k.kind] <= n < 2**15 and math.prod(k.out.shape) < 2**31)


def emit(ctx, number: int, k: DecompKernel) -> Emitted:
    # complex.h for creal, cimag, conj: a complex operand is enough (cholesky_ex's output
    # may be its info or a real view)
    if any(v.buffer.dtype.is_complex for v in k.views()):
        ctx.loops.calls.add("sgm_complex_h")
    lapack = calls_lapack(k, ctx.target.blas)
    text, elements, error = decomp_kernel(ctx.env, number, k, lapack)
    return Emitted(text, elements, errors=(error,) if error else (), blas=lapack)


# The scalar vocabulary every template is written in, so that one text serves real and
# complex matrices: ``T`` the storage type, ``S`` the type a scalar is computed in (double, or
# double _Complex for both complex dtypes), ``R`` the storage type of a real part, and these
# functions of a C expression (a real matrix's C reads as if written for reals alone).
_REAL = {"re": "(double){}".format, "conj": "{}".format, "abs": "fabs((double){})".format,
         "abs1": "fabs((double){})".format, "abs2": "(double){0} * {0}".format,
         "finite": "isfinite((double){})".format}
_COMPLEX = {"re": "creal({})".format, "conj": "conj({})".format, "abs": "cabs({})".format,
            "abs1": "(fabs(creal({0})) + fabs(cimag({0})))".format,    # LAPACK's pivots
            "abs2": "(creal({0}) * creal({0}) + cimag({0}) * cimag({0}))".format,
            "finite": "(isfinite(creal({0})) && isfinite(cimag({0})))".format}


def _scalars(dtype) -> dict:
    """The template variables of ``dtype``'s matrices."""
    complex_ = dtype.is_complex
    return {"T": dtype.ctype, "complex": complex_, "R": dtype.real_dtype.ctype,
            "S": "double _Complex" if complex_ else "double", **(_COMPLEX if complex_ else _REAL)}


def _render(env, name: str, dtype, **values) -> str:
    return env.get_template(f"decomp_{name}.c.j2").render(**_scalars(dtype), **values)


def decomp_kernel(env, number: int, k: DecompKernel,
                  lapack: bool = False) -> tuple[str, int, tuple | None]:
    """(the kernel's C, its work in elements, (status, message) of its error or None);
    ``lapack``: through LAPACK (``calls_lapack``)."""
    out = k.out
    if math.prod(out.shape) == 0:
        return "", 0, None
    batch = out.shape[:-1] if k.kind == "slogdet" else \
        out.shape if k.kind in ("det", "factor_info") else out.shape[:-2]
    bvars = [(f"b{d}", d) for d in range(len(batch))]
    names = ["A_", "B_"][:k.operands]
    defines, offsets = [], []
    for j, (name, v) in enumerate(zip(names + ["OUT_"], k.inputs[:k.operands] + [out])):
        base = View(v.buffer, v.offset, v.shape[:len(batch)], v.strides[:len(batch)])
        offsets.append(f"const int64_t o{j} = {index(base, bvars)};")
        if name != "OUT_":
            defines.append(_macro(name, v, f"o{j}"))
    a = k.inputs[0]
    sizes = {"N_": a.shape[-1], "M_": a.shape[-2], "K_": (out.shape or (1,))[-1]}
    # eigh always checks: LAPACK does not converge on a matrix holding NaN or infinity
    check = k.attr("check", "") or ("linalg.eigh" if k.kind == "eigh" else "")
    status = -(number + 1) if check else 0
    body, extra = (_LAPACK_BODIES if lapack else _BODIES)[k.kind](
        env, k, out, f"o{k.operands}", status)
    defines += [f"#define {n} {v}" for n, v in sizes.items()] + extra
    undefs = [f"#undef {line.split()[1].split('(')[0]}" for line in defines]
    title = f"{k.kind} {list(a.shape)} -> {out.buffer.name}" + (" (LAPACK)" if lapack else "")
    nest = Nest([counted(var, batch[d]) for var, d in bvars], offsets + body.splitlines())
    text = render_kernel(env, number, title, [loc_comment(k.loc, k.kind)], [nest.scoped()],
                         defines, undefs)
    error = None
    if status:
        where_ = f" (from {k.loc}: {k.loc.text})" if k.loc else ""
        error = (status, failure_message(check) + where_)
    return text, math.prod(out.shape) * a.shape[-1], error


def _macro(name: str, v: View, base: str, rows: str = "(i)") -> str:
    """``#define name(i, j)``: element (i, j) of the matrices of ``v`` at batch offset
    ``base`` (``rows``: the row's expression in i)."""
    terms = [base]
    for var, s in ((rows, v.strides[-2]), ("(j)", v.strides[-1])):
        if s:
            terms.append(var if s == 1 else f"{var}*{s}")
    return f"#define {name}(i, j) {v.buffer.name}[{' + '.join(terms)}]"


def _dense(name: str, v: View, cols: int) -> str:
    return f"#define {name}(i, j) {v.buffer.name}[(i)*{cols} + (j)]"


def _fail(status: int, fill: str) -> str:
    """What a failed factorization does: return the status (checked) or fill with NaN."""
    return f"return {status};" if status else fill


def _lu(env, k: DecompKernel, swapped: str) -> str:
    return _render(env, "lu", k.inputs[0].buffer.dtype, swapped=swapped)


def _solve(env, k: DecompKernel, out: View, base: str, status: int) -> tuple[str, list]:
    n = k.inputs[0].shape[-1]
    swap = "{ const int64_t t = perm[c]; perm[c] = perm[p]; perm[p] = t; }"
    fill = "for (int64_t i = 0; i < N_; i++) for (int64_t j = 0; j < K_; j++) X_(i, j) = NAN;"
    text = f"int64_t perm[{max(n, 1)}];  /* row i of P B is row perm[i] of B */\n" + \
        "for (int64_t i = 0; i < N_; i++) perm[i] = i;\n" + _lu(env, k, swap) + \
        f"if (singular) {{ {_fail(status, fill)} }}\n" + \
        _render(env, "lu_solve", out.buffer.dtype)
    return text, [_dense("LU_", k.scratch[0], k.inputs[0].shape[-1]),
                  _macro("X_", out, base)]


def _slogdet(env, k: DecompKernel, out: View, base: str, status: int) -> tuple[str, list]:
    text = "int64_t swaps = 0;\n" + _lu(env, k, "swaps++;") + \
        _render(env, k.kind, out.buffer.dtype)
    return text, [_dense("LU_", k.scratch[0], k.inputs[0].shape[-1]),
                  f"#define OUT_(j) {out.buffer.name}[{base} + (j)]"]


def _cholesky(env, k: DecompKernel, out: View, base: str, status: int) -> tuple[str, list]:
    text = _render(env, "cholesky", out.buffer.dtype, fail=f"return {status};" if status
                   else "")
    return text, [_macro("L_", out, base)]


def _triangular(env, k: DecompKernel, out: View, base: str, status: int) -> tuple[str, list]:
    upper = k.attr("upper")
    text = _render(
        env, "triangular", out.buffer.dtype, what="back" if upper else "forward",
        row="N_ - 1 - r" if upper else "r", first="i + 1" if upper else "0",
        last="N_" if upper else "i", divided="s" if k.attr("unitriangular") else "s / A_(i, i)")
    return text, [_macro("X_", out, base)]


def _eigh(env, k: DecompKernel, out: View, base: str, status: int,
          method: str = "jacobi") -> tuple[str, list]:
    n = out.shape[-1]
    upper = bool(k.attr("upper"))
    dtype = out.buffer.dtype
    call = f"scipy_LAPACKE_{_LAPACK[dtype.name]}syevd" if method == "syevd" else None
    text = _render(
        env, method, dtype, triangle="upper" if upper else "lower",
        keep="i <= j" if upper else "i >= j", fail=f"return {status};", call=call, n=n)
    return text + _render(env, "eigh_signs", dtype), [
        _dense("S_", k.scratch[0], n),
        f"#define W_(j) {out.buffer.name}[{base} + (j)]",
        _macro("V_", out, base, rows="((i) + 1)")]


def _solve_lapack(env, k: DecompKernel, out: View, base: str,
                  status: int) -> tuple[str, list]:
    """``solve`` through LAPACK's ``?gesv`` (LU with partial pivoting, as the loops)."""
    n = k.inputs[0].shape[-1]
    fill = "for (int64_t i = 0; i < N_; i++) for (int64_t j = 0; j < K_; j++) X_(i, j) = NAN;"
    text = _render(env, "lu_lapack", out.buffer.dtype, n=n, fail=_fail(status, fill),
                   call=f"scipy_LAPACKE_{_LAPACK[out.buffer.dtype.name]}gesv")
    return text, [_dense("LU_", k.scratch[0], n), _macro("X_", out, base)]


def _qr(env, k: DecompKernel, out: View, base: str, status: int) -> tuple[str, list]:
    m, n = k.inputs[0].shape[-2:]
    text = _render(env, "householder", out.buffer.dtype)
    return text, [
        _dense("W_", k.scratch[0], n), f"#define TAU_(j) {k.scratch[1].buffer.name}[(j)]",
        f"#define KMIN_ {min(m, n)}", _macro("Q_", out, base)]


def _info(env, k: DecompKernel, out: View, base: str, status: int) -> tuple[str, list]:
    """LAPACK's info: the LU (getrf) or Cholesky (potrf) loop, then where it stopped."""
    dtype, n = k.inputs[0].buffer.dtype, k.inputs[0].shape[-1]
    result = f"#define OUT_(j) {out.buffer.name}[{base} + (j)]"
    if k.attr("method") == "lu":
        text = _lu(env, k, "") + "OUT_(0) = singular;   /* the first zero pivot, 1-based */\n"
        return text, [_dense("LU_", k.scratch[0], n), result]
    text = _render(env, "cholesky", dtype, fail="") + \
        "OUT_(0) = failed;   /* the first failing leading minor's order */\n"
    return text, [_dense("L_", k.scratch[0], n), result]


_LAPACK_BODIES = {"solve": _solve_lapack,
                  "eigh": lambda *args: _eigh(*args, method="syevd")}
_BODIES = {"solve": _solve, "slogdet": _slogdet, "det": _slogdet, "cholesky": _cholesky,
           "triangular_solve": _triangular, "eigh": _eigh, "qr": _qr, "factor_info": _info}
