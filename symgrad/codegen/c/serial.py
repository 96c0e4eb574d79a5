"""A threaded kernel's loops twice: on OpenMP's threads when the call passes more than one,
in the function itself when it passes one.

Layer: codegen (a helper of ``loops``). Input: a kernel's (init, nests, final) with its
``omp parallel`` pragmas and the same kernel built without them (the same plan: the same
sums in the same order). Output: (init, nests, final) choosing between them at run time,
``if (nthreads > 1) { ... } else { ... }``.

Only where the copies give the same bits: no libm call (a vectorized loop calls glibc's
vector math, a loop's scalar remainder the scalar functions, which differ in the last bit;
gcc may split the two copies differently) and no sum in SIMD lanes (the lanes' order follows
the vector width gcc picks per loop). Elementwise arithmetic and reductions in place (each
element in order) are exact either way.

Why: gcc outlines the body of a parallel region into a function of its own, which reads the
pointers it shares from a struct: their ``restrict`` is gone, and with it what the loops may
keep in registers across iterations or vectorize without run-time alias checks. That
function runs even on one thread (OpenMP's ``if`` clause only keeps the threads asleep).
Measured (a C harness of k-means' min over 10^7 distances in tiles, one thread): 4.9 ms in
the function, 7.8 ms outlined.
"""

from __future__ import annotations

from dataclasses import replace

PAD = "    "


def threaded(nests: list) -> bool:
    """Whether some loop of ``nests`` runs on threads."""
    return any("parallel" in lp.pragma for n in nests for lp in n.loops)


def exact(nests: list, calls: set) -> bool:
    """Whether a copy without threads gives the bits of the threaded one (module docstring):
    the kernel calls no libm function (``calls``) and reduces in no SIMD lanes."""
    return not calls and not any("reduction(" in lp.pragma for n in nests for lp in n.loops)


def either(parallel: tuple, alone: tuple) -> tuple:
    """(init, nests, final) running ``parallel``'s when ``nthreads > 1``, else ``alone``'s
    (each an (init, nests, final) of the same kernel)."""
    made = []
    for k, (init, nests, final) in enumerate((parallel, alone)):
        nests = [replace(n, indent=n.indent + 1, before=_pad(n.before), after=_pad(n.after))
                 for n in nests]
        nests[0] = replace(nests[0], before=(["if (nthreads > 1) {"] if k == 0 else []) +
                           _pad(init) + nests[0].before)
        nests[-1] = replace(nests[-1], after=nests[-1].after + _pad(final) +
                            (["} else {"] if k == 0 else ["}"]))
        made += nests
    return [], made, []


def _pad(lines: list) -> list:
    return [PAD + line for line in lines]
