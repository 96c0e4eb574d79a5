"""Cumulative kernels -> C: one sequential loop along the axis, inside loops over the others.

Layer: codegen (the ``cumulative`` kernel family). Input: a ``CumulativeKernel`` (cumsum,
cumprod, logcumsumexp, linrec, cumargmax, cumargmin; see ``ops.scan``). Output: the kernel's
C text. Float32 accumulates in double, as torch's CPU scans do, and each output is rounded
once; int64 sums and products wrap modulo 2**64 (in a uint64_t accumulator, never signed
overflow). logcumsumexp steps with NumPy's ``logaddexp`` formula, so eager (NumPy) and
compiled values agree to the bit.
"""

from __future__ import annotations

import math

from ...dtypes import float64
from ...lower.cumulative import CumulativeKernel
from .emitted import Emitted
from .literals import c_literal
from .loopdims import guard
from .render import render_kernel
from .nest import Loop, Nest, counted
from .text import loc_comment, with_axis


def emit(ctx, number: int, k: CumulativeKernel) -> Emitted:
    return Emitted(scan_kernel(ctx.env, number, k, ctx.loops.calls), math.prod(k.shape))


def scan_kernel(env, number: int, k: CumulativeKernel, calls: set) -> str:
    """The kernel's C; "" when it has no elements."""
    if math.prod(k.shape) == 0:
        return ""
    dims = [(f"i{d}", d) for d in range(len(k.shape)) if d != k.axis]
    lanes = _lanes(k)
    nests = []
    if lanes is not None:      # runs of LANES rows, then the rows left over one at a time
        d, full = lanes
        rows = [(f"(b{d}*{LANES} + q)" if e == d else v, e) for v, e in dims]
        loops = [counted(v, k.shape[e]) for v, e in dims if e != d]
        loops.append(counted(f"b{d}", full // LANES))
        nests.append(_nest(k, rows, loops, calls, interleaved=True))
        loops = [counted(v, k.shape[e]) for v, e in dims if e != d]
        loops.append(Loop(f"i{d}", str(full), str(k.shape[d])))
        nests.append(_nest(k, dims, loops, calls))
    else:
        nests.append(_nest(k, dims, [counted(var, k.shape[d]) for var, d in dims], calls))
    direction = ", from the end" if k.reverse else ""
    return render_kernel(env, number, f"{k.kind} along axis {k.axis}{direction} -> "
                         f"{k.out.buffer.name}", [loc_comment(k.loc, k.kind)],
                         [n for n in nests if n is not None])


# Rows of a running sum or product that run side by side: each row's accumulator depends on
# its last step (a multiplication's latency a step), so one row at a time waits on each;
# LANES rows interleaved keep the multiplier busy, each row still in its own order (the same
# bits). Measured (a C harness of GradBench llsq's Vandermonde matrix, a cumprod along rows
# of 128 of a (4096, 128) array): 331 -> 245 us, the rest the 4 MB it writes.
LANES = 8


def _lanes(k: CumulativeKernel) -> tuple | None:
    """(the dim whose rows run side by side, how many of them do: a multiple of ``LANES``)
    for a running sum, product or linear recurrence with at least ``LANES`` such rows along
    its innermost other dim; None otherwise."""
    others = [d for d in range(len(k.shape)) if d != k.axis]
    if k.kind not in ("cumsum", "cumprod", "linrec") or not others:
        return None
    d = others[-1]
    extent = k.shape[d]
    if type(extent) is not int or extent < LANES:
        return None
    return d, extent - extent % LANES


def _nest(k: CumulativeKernel, dims: list, loops: list, calls: set,
          interleaved: bool = False) -> Nest | None:
    """The loop along the axis inside ``loops``; ``interleaved``: for ``LANES`` rows at a
    time (``dims`` index them by ``q``), an accumulator each."""
    if any(lp.start == lp.end for lp in loops):
        return None
    n = k.shape[k.axis]
    reads = [_read(v, k.axis, dims) for v in k.inputs]
    out = with_axis(k.out, k.axis, "j", dims)
    dtype = k.inputs[-1].buffer.dtype
    if k.kind in ("cumargmax", "cumargmin"):
        init, step = _arg_step(k.kind, dtype, reads[0], out)
    else:
        init, step = _value_step(k.kind, dtype, reads, out, calls, LANES if interleaved else 0)
    if interleaved:
        step = [f"for (int64_t q = 0; q < {LANES}; q++) {{"] + \
            [f"    {line}" for line in step] + ["}"]
    body = init + [f"for (int64_t r = 0; r < {n}; r++) {{",
                   f"    const int64_t j = {f'{n - 1} - r' if k.reverse else 'r'};"]
    body += [f"    {line}" for line in step] + ["}"]
    return Nest(loops, body)


def _read(v, axis: int, dims: list) -> str:
    """C of operand ``v``'s element at the loop variables, ``j`` along the axis; a padded
    view's fill outside its window (the load only inside it)."""
    read = with_axis(v, axis, "j", dims)
    cond = guard(v, sorted(dims + [("j", axis)], key=lambda p: p[1]))
    return f"(({cond}) ? {read} : {c_literal(v.fill, v.buffer.dtype)})" if cond else read


def _value_step(kind: str, dtype, reads: list, out: str, calls: set,
                lanes: int = 0) -> tuple[list, list]:
    """(lines before the axis loop, lines of one step) of a running sum, product,
    log-sum-exp or linear recurrence, accumulating in ``dtype.accumulates_in`` (an integer
    one in a uint64_t: wrapping, never signed overflow; complex64 in complex128, products
    by NumPy's plain formula, ``complex_ops``'s ``sgm_cmul``). ``lanes``: that many rows
    side by side, the step's accumulator ``acc[q]`` (the caller loops over ``q``)."""
    ctype = dtype.ctype
    acc_t = dtype.accumulates_in.ctype if dtype.is_differentiable else "uint64_t"
    a = "acc[q]" if lanes else "acc"
    x = f"(({acc_t}){reads[-1]})"
    mul = "{} * {}"
    if dtype.is_complex:
        calls.update(("sgm_complex_h", "sgm_cmul"))
        mul = "sgm_cmul({}, {})"
    if kind == "cumsum":
        init, step = "0", [f"{a} = {a} + {x};"]
    elif kind == "cumprod":
        init, step = "1", [f"{a} = {mul.format(a, x)};"]
    elif kind == "linrec":
        init, step = "0", [f"{a} = {mul.format(a, f'(({acc_t}){reads[0]})')} + {x};"]
    else:                       # logcumsumexp, NumPy's npy_logaddexp(acc, v)
        init = "-INFINITY"
        step = [f"const double v = {x};",
                f"if ({a} == v) {a} = {a} + {c_literal(math.log(2.0), float64)};",
                "else {",
                f"    const double d = {a} - v;",
                f"    {a} = d > 0 ? {a} + log1p(exp(-d)) : d <= 0 ? v + log1p(exp(d)) : d;",
                "}"]
    decl = f"{acc_t} acc[{lanes}]; for (int q = 0; q < {lanes}; q++) acc[q] = {init};" \
        if lanes else f"{acc_t} acc = {init};"
    return [decl], step + [f"{out} = ({ctype}){a};"]


def _arg_step(kind: str, dtype, read: str, out: str) -> tuple[list, list]:
    """The index of the running extremum: the latest on ties (torch's >= / <=); for floats a
    NaN wins, and after it only a later NaN."""
    ctype = dtype.ctype
    cmp = ">=" if kind == "cumargmax" else "<="
    better = f"v != v || (best == best && v {cmp} best)" if dtype.is_floating \
        else f"v {cmp} best"
    init = [f"{ctype} best = 0;", "int64_t at = 0;"]
    step = [f"const {ctype} v = {read};",
            f"if (r == 0 || {better}) {{ best = v; at = j; }}",
            f"{out} = at;"]
    return init, step
