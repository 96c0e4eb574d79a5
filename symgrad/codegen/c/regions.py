"""A threaded loop -> a function of its own, called on each thread's share of the iterations.

Layer: codegen (a helper of the loop printers: ``loops``, ``rows``, ``band``). Input: a
kernel's nests, some with an ``omp parallel for`` pragma on their outermost loop, and what
the loops may name from outside them (the kernel's buffers, the function's scalar locals, the
call-time sizes, the kernel's own locals declared before the loop). Output: each such nest as
a loop over the threads' shares calling a ``static`` function that runs the outermost loop
from ``sg_lo`` to ``sg_hi``, and the functions' C (``Emitted.functions``: the module prints
them before the function that holds the kernel).

Why: gcc outlines the body of a parallel region into a function of its own, which reads the
pointers it shares from a struct: their ``restrict`` is gone, and with it what the loops may
keep in registers across iterations or vectorize without run-time alias checks. That
function runs even on one thread (OpenMP's ``if`` clause only keeps the threads asleep).
Here the loop is a function whose pointers are ``restrict`` parameters (the buffers one
kernel touches never overlap: ``lower.buffers``); the parallel region only calls it. Measured
(a C harness of k-means' min over 10^7 distances in tiles, one thread): 4.9 ms in a function
of its own, 7.8 ms outlined by OpenMP. gcc may inline the function into the region (its one
caller) and keeps what ``restrict`` told it; marked ``noinline``, GradBench's ode gradient at
n = 100,000 (memory-bound loops) took 82-83 ms against 75-80 inlined or before.

One thread and two give the same bits: each element is computed by the same machine code
either way (a nest is split along its outer loop, whose iterations each run the same inner
loops; a row loop along its blocks). Where the threaded loop is the only loop and vectorized,
its shares do not depend on the thread count: ``SHARES`` of them at most, each ``SHARE_MIN``
iterations at least and a multiple of ``ALIGN``, each thread running a run of whole shares.
An element then falls in the vector body or in the remainder the same way for any count:
glibc's vector math and its scalar functions differ in the last bit, and gcc ends each call's
vector loop with a narrower vector and scalar iterations whenever it loads rows with gaps
(``x[:, 0]`` of an (n, 3) array: the last vector would read past the share), so shares cut
per thread count gave the elements before a cut other bits on two threads than on one (found
by a helper: ``cos(x[:, 0:1])`` at 31,843 rows, one element in 16,000).

Not for a loop whose threads reduce (a ``reduction`` clause on the threaded loop: a sum's
accumulator, the flag of a loop that gathers, set when an index is out of range): those stay
as OpenMP outlines them. (GradBench's det at ell = 9, a gathering product over a 26 MB table
of indices, ran 10% slower in a function of its own: 2.9-3.0 -> 3.3 ms.)
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...lower.loopir import LoopKernel
from ...lower.rows import view_dims
from .exprs import VECTOR_MATH
from .nest import Loop, Nest
from .render import render_kernel

# A share of a single (vectorized) loop starts at a multiple of this many iterations: more
# than any vector width and unrolling, in elements of any type (see the module docstring).
ALIGN = 64
# Such a loop's shares, whatever the thread count: at most SHARES, each SHARE_MIN iterations
# at least (its remainder, a vector or less, is then a small part of it).
SHARES = 256
SHARE_MIN = 2048
# A function of a loop calling glibc's vector math prefers 512-bit vectors where the CPU has
# them: libmvec's 8-lane exp takes ~0.7x the time of the 4-lane one an element, and gcc's
# tuning for recent Intel CPUs stays at 256 bits. Only there (large loops, functions of their
# own): with 512 bits everywhere, loops of a few iterations ran slower (GradBench's LSTM 1.2-1.5x,
# the 5 x 5 determinant 1.7x), logsumexp's 0.7-0.8x. The same function runs on any thread count.
WIDE = ("#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)",
        '__attribute__((target("prefer-vector-width=512")))', "#endif")
_VECTOR_CALL = re.compile(rf"\b(?:{'|'.join(VECTOR_MATH)})f?\(")
_WORD = re.compile(r"[A-Za-z_]\w*")
_COMMENT = re.compile(r"/\*.*?\*/")
# A local's declaration at the start of a kernel's line: its type, name and array extents.
_DECL = re.compile(r"\s*(?:const\s+)?((?:[A-Za-z_]\w*\s+)+?)\**\s*([A-Za-z_]\w*)\s*"
                   r"((?:\[[^\]]*\])*)\s*[=;]")
_STATEMENTS = {"for", "if", "else", "return", "while", "do", "switch", "goto"}


def known(kernels: list, sizes) -> dict:
    """name -> the parameter that passes it, for what the loops of ``kernels`` (loop kernels,
    or a row loop's: products too) may read from outside: their buffers (a pointer, ``const``
    unless one of them writes it), the scalars they read (a value) and the call-time
    ``sizes`` (int64_t)."""
    views = [(v, writes) for k in kernels for v, _, writes in view_dims(k, 0)]
    scalars = [s for k in kernels if type(k) is LoopKernel for s in k.scalars()]
    written = {v.buffer.name for v, writes in views if writes}
    params: dict = {}
    for v, _ in views:
        b = v.buffer
        if b.role in ("row", "rowptr"):    # (a row loop's locals: declared in its loop)
            continue
        const = "" if b.name in written else "const "
        params[b.name] = f"{const}{b.dtype.ctype} *restrict {b.name}"
    for s in scalars:
        params[s.name] = f"{s.dtype.ctype} {s.name}"
    for size in sizes:
        params[size] = f"int64_t {size}"
    return params


def threaded(nest: Nest) -> bool:
    """Whether ``nest``'s outermost loop runs on threads in a way a function can take."""
    pragma = nest.loops[0].pragma if nest.loops else ""
    return "omp parallel for" in pragma and "reduction(" not in pragma


def split(name: str, nests: list, init: list, params: dict, env) -> tuple[list, list]:
    """(``nests`` with each threaded one calling a function of its own, the functions' C).
    ``name``: the first function's C name (the next ``name_1``, ...); ``init``: the kernel's
    lines before its nests; ``params``: ``known``'s."""
    made, functions = [], []
    for nest in nests:
        made_one = threaded(nest) and _function(
            name if not functions else f"{name}_{len(functions)}", nest,
            {**params, **_locals([*init, *nest.before])}, env)
        if not made_one:
            made.append(nest)
            continue
        functions.append(made_one[0])
        made.append(made_one[1])
    return made, functions


def _locals(lines: list) -> dict:
    """name -> parameter of each local declared in ``lines`` (an array by its pointer; one
    of more than one dim by none: a function that names it is not made)."""
    found = {}
    for line in lines:
        m = _DECL.match(line)
        if not m or m.group(2) in _STATEMENTS or m.group(1).split()[0] in _STATEMENTS:
            continue
        ctype, local, extents = " ".join(m.group(1).split()), m.group(2), m.group(3)
        found[local] = None if extents.count("[") > 1 else \
            f"{ctype} *restrict {local}" if extents else f"{ctype} {local}"
    return found


def _function(fname: str, nest: Nest, params: dict, env) -> tuple[str, Nest] | None:
    """(the C of the function running ``nest``'s outermost loop over a share, the nest that
    calls it on each share); None when the loop names a local no parameter can take (an
    array of more than one dim, a value it assigns)."""
    outer = nest.loops[0]
    # a combined `parallel for simd` (the only loop): its `simd` stays on the function's loop
    simd = "#pragma omp simd" if "parallel for simd" in outer.pragma else ""
    loop = replace(outer, start="sg_lo", end="sg_hi", pragma=simd)
    text = render_kernel(env, 0, "", [], [Nest([loop, *nest.loops[1:]], nest.body)])
    used = set(_WORD.findall(_COMMENT.sub("", text)))
    args = [n for n in params if n in used and n != outer.var]
    if any(params[n] is None or (not params[n].endswith(f"*restrict {n}") and
                                 re.search(rf"\b{n}\s*([-+*/|&^]?=(?!=)|\+\+|--)", text))
           for n in args):
        return None
    lines = [line[4:] for line in text.splitlines()[2:-1]]    # (no title, no braces)
    decls = ["int64_t sg_lo", "int64_t sg_hi", *(params[n] for n in args)]
    function = "\n".join([
        f"/* {fname}: the iterations sg_lo <= {outer.var} < sg_hi of a loop (a thread's share), "
        f"in a function of its own so that its pointers stay restrict "
        f"(symgrad/codegen/c/regions.py) */",
        *(WIDE if "#pragma omp simd" in text and _VECTOR_CALL.search(text) else ()),
        f"static void {fname}({', '.join(decls)})", "{", *lines, "}"])
    call = f"{fname}(lo, hi{''.join(', ' + n for n in args)})"
    shares = Loop("sg_part", "0", "sg_parts",
                  pragma=outer.pragma.replace("omp parallel for simd", "omp parallel for"))
    start = "" if outer.start == "0" else f"({outer.start}) + "
    body = ["const int64_t lo = " + start + "(sg_part*sg_step < sg_n ? sg_part*sg_step : sg_n);",
            "const int64_t hi = " + start + "((sg_part + 1)*sg_step < sg_n ? "
            "(sg_part + 1)*sg_step : sg_n);",
            f"{call};"]
    single = len(nest.loops) == 1
    share = _share(outer.start, outer.end, ALIGN if single else 1, single and bool(simd))
    return function, Nest([shares], body, nest.before + share, nest.after, nest.indent).scoped()


def _share(start: str, end: str, align: int, vector: bool) -> list:
    """The lines before the loop over shares: the iterations, the shares (as many as threads;
    of a ``vector`` loop, as many as its length makes, see ``SHARES``) and a share's length
    (a multiple of ``align``)."""
    step = "(sg_n + sg_parts - 1)/sg_parts"
    parts = "nthreads > 1 ? nthreads : 1"
    if align > 1:
        step = f"({step} + {align - 1})/{align}*{align}"
    if vector:
        many = f"(sg_n + {SHARE_MIN - 1})/{SHARE_MIN}"
        parts = f"{many} < 1 ? 1 : {many} > {SHARES} ? {SHARES} : {many}"
    return [f"const int64_t sg_n = {end if start == '0' else f'({end}) - ({start})'};",
            f"const int64_t sg_parts = {parts};",
            f"const int64_t sg_step = {step};"]
