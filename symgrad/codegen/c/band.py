"""Banded loops -> C (``lower.band``): per row, the statements with the ``arange`` tests
false, their values stored along the row, then the statements again at each index a test
hits.

Layer: codegen. Input: a ``BandKernel``. Output: its C text. The loads and statements are
``loops.LoopEmitter.element``'s, printed twice per row: off the band at index 0 of the row
(its ``arange`` loads left out: the tests are literals there), and in a block of their own
at each index ``h`` a test hits (``h``: the value compared, less the ``arange``'s first).
"""

from __future__ import annotations

import math

from ...dims import large
from ...dtypes import int64
from ...lower.loopir import Literal
from .emitted import Emitted
from .literals import c_literal
from .loopdims import guard
from . import regions
from .loops import PARALLEL_MIN_WORK, operand
from .nest import Loop, Nest
from .render import render_kernel
from .text import index, loc_comment


def emit(ctx, number: int, k) -> Emitted:
    loop = k.loop
    ctx.loops.work_check, ctx.loops.gathers, ctx.loops.fails = None, False, False  # (no gathers)
    d = len(loop.shape) - 1
    n = loop.shape[d]
    outer = [(f"i{j}", j) for j in range(d)]
    names = [f"l{i}" for i in range(len(loop.loads))]
    lines = _off_band(ctx, k, outer, names)
    lines += ["#pragma omp simd"] if ctx.loops.vector_math else []
    lines += [f"for (int64_t i{d} = 0; i{d} < {n}; i{d}++) {{"]
    lines += ["    " + _store(s, outer + [(f"i{d}", d)], names) for s in loop.stores]
    lines.append("}")
    for _, i, other, first in k.hits:
        inside = guard(loop.loads[i], outer + [("h", d)])    # (the row in its window)
        lines += ["{", f"    const int64_t h = (int64_t)({_operand(other, names)}) - "
                       f"({first});",
                  f"    if ({inside + ' && ' if inside else ''}h >= 0 && h < {n}) {{"]
        inner = ctx.loops.element(loop, loop.loads, outer + [("h", d)])
        inner += [_store(s, outer + [("h", d)], names) for s in loop.stores]
        lines += ["        " + line for line in inner] + ["    }", "}"]
    loops = [Loop(var, "0", str(loop.shape[j])) for var, j in outer]
    work = math.prod(loop.shape)
    if ctx.loops.parallel and large(work, PARALLEL_MIN_WORK):
        loops[0].pragma = f"#pragma omp parallel for{ctx.loops.clause}"
    ctx.loops.simd |= ctx.loops.vector_math
    title = f"{loop.op} -> {', '.join(s.out.buffer.name for s in loop.stores)} " \
            f"{list(loop.shape)} (banded: {len(k.hits)} tests of the last index, off them " \
            f"once per row)"
    comments = [loc_comment(s.loc, s.op) for s in loop.stores[:1]]
    nests, functions = [Nest(loops, lines)], []
    if loops[0].pragma:
        nests, functions = regions.split(ctx.loops.region_name(), nests, [],
                                         regions.known([loop], ctx.loops.sizes), ctx.env)
    text = render_kernel(ctx.loops.env, number, title, comments, nests)
    return Emitted(text, work, uses=frozenset(a.name for a in loop.scalars()),
                   threaded=bool(loops[0].pragma), functions=tuple(functions))


def _off_band(ctx, k, outer: list, names: list) -> list:
    """A row's statements off the band: its ``arange`` loads not read, each test false where
    its row is in the load's window, else the test of the load's fill (a value of the row)."""
    loop = k.loop
    d = len(loop.shape) - 1
    band = {i for _, i, _, _ in k.hits}
    tests = {loop.body[pos].local: (loop.body[pos], i, other)
             for pos, i, other, _ in k.hits}
    lines = []
    for line in ctx.loops.element(loop, loop.loads, outer + [("0", d)]):
        if any(line.startswith(f"const {loop.loads[i].buffer.dtype.ctype} {r}{i} = ")
               for i in band for r in "lr"):
            continue                 # (an arange load: read only by the tests)
        local = line.split(" = ", 1)[0].rsplit(" ", 1)[-1] if line.startswith("const ") \
            else None
        if local in tests:
            s, i, other = tests[local]
            v = loop.loads[i]
            inside = guard(v, outer + [("0", d)])
            never = "0" if s.expr.op == "eq" else "1"
            op = "==" if s.expr.op == "eq" else "!="
            fill = c_literal(v.fill, int64) if inside else "0"
            value = f"({inside}) ? {never} : ({fill} {op} {_operand(other, names)})" \
                if inside else never
            line = f"const int {local} = {value};  /* {loc_comment(s.loc, s.expr.op)} */"
        lines.append(line)
    return lines


def _operand(a, names: list) -> str:
    return c_literal(a.value, int64) if isinstance(a, Literal) else operand(a, names)


def _store(s, loop_vars: list, names: list) -> str:
    return f"{s.out.buffer.name}[{index(s.out, loop_vars)}] = {operand(s.value, names)};"
