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
from .nest import Nest, counted
from .text import loc_comment, with_axis


def emit(ctx, number: int, k: CumulativeKernel) -> Emitted:
    return Emitted(scan_kernel(ctx.env, number, k, ctx.loops.calls), math.prod(k.shape))


def scan_kernel(env, number: int, k: CumulativeKernel, calls: set) -> str:
    """The kernel's C; "" when it has no elements."""
    if math.prod(k.shape) == 0:
        return ""
    n = k.shape[k.axis]
    dims = [(f"i{d}", d) for d in range(len(k.shape)) if d != k.axis]
    loops = [counted(var, k.shape[d]) for var, d in dims]
    reads = [_read(v, k.axis, dims) for v in k.inputs]
    out = with_axis(k.out, k.axis, "j", dims)
    dtype = k.inputs[-1].buffer.dtype
    if k.kind in ("cumargmax", "cumargmin"):
        init, step = _arg_step(k.kind, dtype, reads[0], out)
    else:
        init, step = _value_step(k.kind, dtype, reads, out, calls)
    body = init + [f"for (int64_t r = 0; r < {n}; r++) {{",
                   f"    const int64_t j = {f'{n - 1} - r' if k.reverse else 'r'};"]
    body += [f"    {line}" for line in step] + ["}"]
    direction = ", from the end" if k.reverse else ""
    return render_kernel(env, number, f"{k.kind} along axis {k.axis}{direction} -> "
                         f"{k.out.buffer.name}", [loc_comment(k.loc, k.kind)],
                         [Nest(loops, body)])


def _read(v, axis: int, dims: list) -> str:
    """C of operand ``v``'s element at the loop variables, ``j`` along the axis; a padded
    view's fill outside its window (the load only inside it)."""
    read = with_axis(v, axis, "j", dims)
    cond = guard(v, sorted(dims + [("j", axis)], key=lambda p: p[1]))
    return f"(({cond}) ? {read} : {c_literal(v.fill, v.buffer.dtype)})" if cond else read


def _value_step(kind: str, dtype, reads: list, out: str, calls: set) -> tuple[list, list]:
    """(lines before the axis loop, lines of one step) of a running sum, product,
    log-sum-exp or linear recurrence, accumulating in ``dtype.accumulates_in`` (an integer
    one in a uint64_t: wrapping, never signed overflow; complex64 in complex128, products
    by NumPy's plain formula, ``complex_ops``'s ``sgm_cmul``)."""
    ctype = dtype.ctype
    acc_t = dtype.accumulates_in.ctype if dtype.is_differentiable else "uint64_t"
    x = f"(({acc_t}){reads[-1]})"
    mul = "{} * {}"
    if dtype.is_complex:
        calls.update(("sgm_complex_h", "sgm_cmul"))
        mul = "sgm_cmul({}, {})"
    if kind == "cumsum":
        init, step = "0", [f"acc = acc + {x};"]
    elif kind == "cumprod":
        init, step = "1", [f"acc = {mul.format('acc', x)};"]
    elif kind == "linrec":
        init, step = "0", [f"acc = {mul.format('acc', f'(({acc_t}){reads[0]})')} + {x};"]
    else:                       # logcumsumexp, NumPy's npy_logaddexp(acc, v)
        init = "-INFINITY"
        step = [f"const double v = {x};",
                f"if (acc == v) acc = acc + {c_literal(math.log(2.0), float64)};",
                "else {",
                "    const double d = acc - v;",
                "    acc = d > 0 ? acc + log1p(exp(-d)) : d <= 0 ? v + log1p(exp(d)) : d;",
                "}"]
    return [f"{acc_t} acc = {init};"], step + [f"{out} = ({ctype})acc;"]


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
