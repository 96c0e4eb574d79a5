"""Strip loops -> C (``lower.strips``): a loop over the strips of a vector, each of its loops
printed for one strip.

Layer: codegen (the ``strips`` kernel family). Input: a ``StripLoop``. Output: its C: ``for
(sg_strip ...)`` over the strips, from the first, then each loop kernel as
the loop printer prints it over ``[sg_from, sg_to)`` (on the calling thread: the strips run
in order). Where ``rotate`` prints the run as one loop over vectors, the strips take the
elements before and after it (under ``rotate.GUARD``: elsewhere they take all). A run reading
ahead is never in strips: its loops each in turn as they were, or (``rotate``, one thread) the
loops over the elements after the vectors, the vectors from the last, then those before.
"""

from __future__ import annotations

from ...lower.strips import StripLoop
from .emitted import Emitted
from .nest import Loop, Nest
from . import rotate
from .render import render_kernel


def emit(ctx, number: int, k: StripLoop) -> Emitted:
    if k.ahead:
        return _from_last(ctx, number, k)
    count = -(-k.n // k.strip)
    lines = _spanned(ctx.loops, number, k)
    title = (f"{len(k.kernels)} loops over [{k.n}] in strips of {k.strip}, each loop reading "
             f"what the ones before it wrote at or before its element")
    vectors = rotate.vector_loop(k, number)
    if vectors is None:
        head = [f"const int64_t sg_from = sg_strip*{k.strip};",
                f"const int64_t sg_to = sg_from + {k.strip} < {k.n} ? sg_from + {k.strip} : "
                f"{k.n};"]
        nest = Nest([Loop("sg_strip", "0", str(count))], head + lines)
    else:
        title += "; with AVX-512, one loop over vectors between the first and last strips"
        nest = _around(k, vectors, lines)
    text = render_kernel(ctx.env, number, title, [], [nest])
    return Emitted(text, k.n * len(k.kernels), uses=_scalars(k))


def _spanned(em, number: int, k: StripLoop) -> list:
    """The lines of each of ``k``'s loops over [sg_from, sg_to), on the calling thread."""
    lines = []
    saved = em.parallel, em.span
    em.parallel, em.span = False, ("sg_from", "sg_to")
    try:
        for j, inner in enumerate(k.kernels):
            text, _, _ = em.emit(f"{number}.{j + 1}", inner)
            lines += [line[4:] for line in text.splitlines()]
    finally:
        em.parallel, em.span = saved
    return lines


def _scalars(k: StripLoop) -> frozenset:
    return frozenset(s.name for inner in k.kernels for s in inner.scalars())


def _from_last(ctx, number: int, k: StripLoop) -> Emitted:
    """A run reading ahead (``StripLoop.ahead``): its loops each in turn, as they were; with
    AVX-512, the vector loop from the last (``rotate``) between the loops over the elements
    after it, first, and those before it, last."""
    em = ctx.loops
    plain, threaded, functions = [], False, []
    for j, inner in enumerate(k.kernels):
        text, threads, more = em.emit(f"{number}.{j + 1}", inner)
        plain += [line[4:] for line in text.splitlines()]
        threaded, functions = threaded or threads, functions + more
    vectors = rotate.vector_loop(k, number)
    title = (f"{len(k.kernels)} loops over [{k.n}], each loop reading what the ones before it "
             f"wrote at or after its element")
    body = plain
    if vectors is not None:
        start, end, loop = vectors
        title += "; with AVX-512, one loop over vectors from the last, between the loops"
        # (threads: the loops as they were, on them; the vector loop runs on one)
        test = "nthreads <= 1" if threaded else "1"
        spanned = ["    " + line for line in _spanned(em, number, k)]
        part = [f"    const int64_t sg_from = {end}, sg_to = {k.n};", *spanned, "}",
                *["    " + line for line in loop],
                f"{{   /* the elements before the vectors: [0, {start}) */",
                f"    const int64_t sg_from = 0, sg_to = {start};", *spanned, "}"]
        body = [rotate.GUARD, f"if ({test}) {{", f"    {{   /* the elements after the vectors:"
                f" [{end}, {k.n}) */", *["    " + line for line in part], "} else", "#endif",
                "{", *["    " + line for line in plain], "}"]
    text = render_kernel(ctx.env, number, title, [], [Nest([], body)])
    return Emitted(text, k.n * len(k.kernels), uses=_scalars(k), threaded=threaded,
                   functions=tuple(functions))


def _around(k: StripLoop, vectors: tuple, lines: list) -> Nest:
    """The strips over [0, start) and [end, n) around the vector loop over [start, end)
    (``rotate``; without AVX-512 the strips take [start, n) too)."""
    start, end, loop = vectors
    head = [f"const int64_t sg_lo = sg_part ? sg_end : 0, sg_hi = sg_part ? {k.n} : {start};",
            f"for (int64_t sg_from = sg_lo; sg_from < sg_hi; sg_from += {k.strip}) {{",
            f"    const int64_t sg_to = sg_from + {k.strip} < sg_hi ? sg_from + {k.strip} : "
            f"sg_hi;"]
    body = head + ["    " + line for line in lines] + ["}", rotate.GUARD,
                                                         "if (sg_part == 0) {"]
    body += ["    " + line for line in loop] + [f"    sg_end = {end};", "}", "#endif"]
    return Nest([Loop("sg_part", "0", "2")], body,
                before=[f"int64_t sg_end = {start};  /* where the last strips start */"])
