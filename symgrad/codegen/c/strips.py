"""Strip loops -> C (``lower.strips``): a loop over the strips of a vector, each of its loops
printed for one strip.

Layer: codegen (the ``strips`` kernel family). Input: a ``StripLoop``. Output: its C: ``for
(sg_strip ...)`` over the strips, from the first, then each loop kernel as
the loop printer prints it over ``[sg_from, sg_to)`` (on the calling thread: the strips run
in order).
"""

from __future__ import annotations

from ...lower.strips import StripLoop
from .emitted import Emitted
from .nest import Loop, Nest
from . import rotate
from .render import render_kernel


def emit(ctx, number: int, k: StripLoop) -> Emitted:
    count = -(-k.n // k.strip)
    lines = []
    em = ctx.loops
    saved = em.parallel, em.span
    em.parallel, em.span = False, ("sg_from", "sg_to")
    try:
        for j, inner in enumerate(k.kernels):
            text, _, _ = em.emit(f"{number}.{j + 1}", inner)
            lines += [line[4:] for line in text.splitlines()]
    finally:
        em.parallel, em.span = saved
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
    scalars = {s.name for inner in k.kernels for s in inner.scalars()}
    return Emitted(text, k.n * len(k.kernels), uses=frozenset(scalars))


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
