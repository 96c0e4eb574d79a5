"""What emitting one kernel gives, and where each kernel family's emitter is.

Layer: codegen. Each kernel family (``lower.loopir``'s kernel protocol: ``type(k).family``) has
one module here, ``symgrad.codegen.c.<family>``, whose ``emit(ctx, number, k)`` returns an
``Emitted``; ``emitter_of`` finds it the first time a family is emitted (a family with no
module is one clear error, never a fall-through to another family's emitter). ``ctx`` is the
module being generated (``codegen.c.module``): its template environment ``env``, loop emitter
``loops``, ``target``, whether functions take the interrupt parameters (``interrupts``),
``function(program)`` (a body's C function: its name), and ``last_loc`` (the source line the
last function-scope statement showed).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ...ops.registry import resolve


@dataclass(slots=True)     # (one per kernel: 10^4..10^5 in a large program)
class Emitted:
    """One kernel's C and what the module around it must know.

    ``text``: C statements ("" for a kernel with nothing to do); ``elements``: its work, about
    (what makes its part hot, ``codegen.c.split``); ``errors``: (status, message) of each
    status its C can return; ``statement``: a function-scope statement (weighs one, and the
    next statement keeps showing the source line it showed), not a kernel block;
    ``defines``/``uses``: the Scalars it defines and the names of those it reads; ``names``:
    entry parameters it names beyond its buffers; ``threaded``: it passes ``nthreads``;
    ``blas``: it calls BLAS; ``malloc``: it allocates (stdlib.h); ``direct``: it addresses
    the temporaries it touches in ``work`` itself (no pointer is declared for them);
    ``calls``: it calls bodies' functions (a control kernel: hot for the split, but its own
    work is its bodies'); ``unused``: buffers among its views it does not name (a loop's
    carries kept in local arrays), so that no pointer is declared for them; ``functions``: the
    C of the file-scope functions its text calls (its threaded loops', ``regions``), printed
    before the function that holds it."""

    text: str
    elements: object = 0
    errors: tuple = ()
    statement: bool = False
    defines: tuple = ()
    uses: frozenset = frozenset()
    names: tuple = ()
    threaded: bool = False
    blas: bool = False
    malloc: bool = False
    direct: bool = False
    calls: bool = False
    unused: tuple = ()
    functions: tuple = ()


def emitter_of(kernel):
    """The ``emit`` function of ``kernel``'s family."""
    return _emitter(type(kernel).family)


@functools.cache
def _emitter(family: str):
    return resolve(f"{__package__}.{family}", "emit", f"C emitter for kernel family {family!r}")
