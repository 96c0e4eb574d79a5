"""Twin backward functions: at trace time, recomputed values share one adjoint.

Layer: front end, beside ``engine`` (which calls it). Input: the backward functions a traced
backward pass reaches, in the engine's order (roots first). Output: for each function, the one
that stands for it and its twins, and each standing function's edges rewritten to the standing
functions of its inputs; or None when there are no twins.

A program that computes one value several times records one backward function per
computation: the cofactor determinant recomputes every minor once for each path down to it, a
model calls the same feature twice. The graph interns the values (equal nodes are one node),
but the tape stays a tree, and reverse mode over a tree computes the adjoint of a minor once per
path: the traced gradient of a 7x7 cofactor determinant had 66k nodes, of which a few
thousand are distinct computations. Two functions are *twins* when they would turn any
cotangent into the same cotangents for the same targets: the same rule (op and attributes) of
the same saved values, whose inputs flow into twin functions. The engine then adds their
cotangents first and applies the rule once (reverse mode over the values' DAG, as a symbolic
differentiator does): the adjoint graph is linear in the distinct computations, not in the
paths.

The sums are associated differently from torch's tape (``(g1 + g2) * c`` where the tape gives
``g1 * c + g2 * c``): the compiled gradient of a program that recomputes values may differ
from torch's eager one in the last bits, as any reassociation would. So this runs only at trace
time, never in an eager backward, whose numbers are torch's.

Never merged, because a user can observe or alter a function's own cotangent, or its rule is
user code: a function with a tensor hook or ``retain_grad``, one whose output is an input of
``autograd.grad``/``backward(inputs=...)``, custom ``autograd.Function`` nodes and other
functions whose rule is a closure of their own (they have no twin by rule identity), one that
was freed or whose saved tensors changed in place since (its rule must raise, as torch's
would).
"""

from __future__ import annotations

from ...ir.graph import attrs_key
from .backward_graph import function_classes


def merge(topo: list, keep: dict) -> tuple[dict, dict, dict] | None:
    """``(standing, edges, twins)`` for the functions of ``topo`` (the engine's order: each
    function before the functions of its inputs), or None if no two are twins.

    ``standing[fn]``: the function that stands for ``fn`` (itself if it has no twin earlier in
    the inputs-first order, so the choice is deterministic). ``edges[s]``: the edges of a
    standing function ``s``, each to the standing function of its input. ``twins[s]``: the
    functions ``s`` stands for, ``s`` first (only where there are several). ``keep``: functions
    never merged (the engine's targets and stops)."""
    plain = function_classes()
    standing: dict = {}
    edges: dict = {}
    twins: dict = {}
    seen: dict = {}
    for fn in reversed(topo):
        fn_edges = tuple([(standing.get(n, n), nr) for n, nr in fn._edges])
        key = _key(fn, fn_edges, plain, keep)
        try:
            first = fn if key is None else seen.setdefault(key, fn)
        except TypeError:   # an attribute no key can be made of (a list, an array): apart
            first = fn
        standing[fn] = first
        if first is fn:
            edges[fn] = fn_edges
        else:
            twins.setdefault(first, [first]).append(fn)
    return (standing, edges, twins) if twins else None


def _key(fn, fn_edges: tuple, plain: frozenset, keep: dict):
    """What makes ``fn``'s cotangents: its class, rule, attributes, the nodes it saved (and its
    output's), the standing functions of its inputs; None if it must stay apart (see the
    module docstring)."""
    if type(fn) not in plain or fn in keep or fn._hooks or fn._retained is not None \
            or fn._released:
        return None
    for _, _, counter, seen in fn._versions:
        if counter[0] != seen:
            return None
    saved = []
    for t in fn._saved:
        node = t._node
        if node is None:
            return None   # an eager value (a number, not a node): not compared here
        saved.append(node)
    out = fn._out
    if out is not None:
        out = out[1]
        if out is None:
            return None
    attrs = fn._attrs
    return (type(fn), fn._rule, attrs_key(tuple(attrs.items())) if attrs else (),
            tuple(saved), fn_edges, out, fn._complex, fn._holomorphic, fn._conj_saved,
            fn._input_meta)
