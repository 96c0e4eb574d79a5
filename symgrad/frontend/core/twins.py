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
the same saved values, whose inputs flow into twin functions; or, for data movement (slices,
cat, reshapes), the same routes: each element of the cotangent sent to the same element of the
same function, however the view was cut (``_Routes``; the trace makes the values of such views
one node, ``ir.provenance.Values``, so the functions reading them save equal nodes). The
engine then adds their
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

import numpy as np

from ...ir.graph import attrs_key
from ...ir.provenance import MOVES, Table
from ...ops import OPS
from .backward_graph import function_classes

# The rule of each data-movement op -> the op's name (see ``_Routes``).
_MOVE_RULES = {OPS[name].vjp: name for name in MOVES}


def merge(topo: list, keep: dict) -> tuple[dict, dict, dict] | None:
    """``(standing, edges, twins)`` for the functions of ``topo`` (the engine's order: each
    function before the functions of its inputs), or None if no two are twins.

    ``standing[fn]``: the function that stands for ``fn`` where that is another one (the twin
    met first in the inputs-first order: deterministic, and the latest of its twins in
    ``topo``, so ``topo`` less the functions standing for others is an order of the merged
    graph). ``edges[s]``: the edges of a standing function ``s``, each to the standing function
    of its input. ``twins[s]``: the functions ``s`` stands for, ``s`` first. ``keep``:
    functions never merged (the engine's targets and stops)."""
    # Twins make one node (the graph interns it, and the trace makes views of equal values one
    # node): only functions whose node another function made too are compared.
    made: dict = {}
    for fn in topo:
        node = fn._made
        made[node] = node in made
    made[None] = False   # (leaves' and custom Functions' functions make no node)
    if True not in made.values():
        return None   # no node made twice: no twins
    plain = function_classes()
    standing: dict = {}
    edges: dict = {}
    twins: dict = {}
    seen: dict = {}
    routes = _Routes()
    for fn in reversed(topo):
        fn_edges = fn._edges
        if standing:
            fn_edges = tuple([(standing.get(n, n), nr) for n, nr in fn_edges])
        if _apart(fn, plain, keep):
            edges[fn] = fn_edges
            continue
        # (a function of data movement is followed even if its node is made once: the
        # functions reading it may be twins by their routes)
        route = routes.follow(fn, fn_edges) if fn._rule in _MOVE_RULES else None
        if not made[fn._made]:
            edges[fn] = fn_edges
            continue
        key = _key(fn, fn_edges) if route is None else (fn._input_meta[0][1], route)
        try:
            first = seen.setdefault(key, fn) if key is not None else fn
        except TypeError:   # an attribute no key can be made of (a list, an array): apart
            first = fn
        if first is fn:
            edges[fn] = fn_edges
        else:
            standing[fn] = first
            group = twins.get(first)
            if group is None:
                twins[first] = [first, fn]
            else:
                group.append(fn)
    return (standing, edges, twins) if twins else None


class _Routes:
    """Where the functions of data movement send each element of their cotangent: their
    provenance (``ir.provenance``) over the functions that are not data movement. Two such
    functions with the same routes are twins, whatever their own inputs (a minor cut from a
    minor, or from the matrix another way): the cotangent reaches the same elements of the
    same functions either way."""

    def __init__(self) -> None:
        self.table = Table()
        self.codes: dict = {}   # function of data movement -> its routes
        self.bases: dict = {}   # (function, output number) or a zero's shape -> its codes
        # (rule, the attributes' dict, the operands' codes, by identity) -> the codes they
        # give and their key: the functions reading twins read one array, and twins share
        # one dict of attributes (``apply``), so most of a recomputed program's moves are one
        # lookup (equal dicts or codes that are other objects only miss it: computed again)
        self.made: dict = {}

    def follow(self, fn, fn_edges: tuple):
        """The key of ``fn``'s routes (``("routes", shape, bytes)``; None: not followed), its
        codes noted for the functions that read it."""
        of = self.codes
        inputs = []
        for k, (n, nr) in enumerate(fn_edges):
            codes = of.get(n) if nr == 0 else None
            if codes is None:   # a function of another op: a base (zeros: no cotangent flows)
                codes = self._base(n, nr, fn._input_meta[k][0])
                if codes is None:
                    return None
            inputs.append(codes)
        key = (fn._rule, id(fn._attrs), *map(id, inputs))
        made = self.made.get(key)
        if made is None:
            codes = self.table.moved(_MOVE_RULES[fn._rule], fn._attrs, inputs)
            made = self.made[key] = (codes, None if codes is None else
                                     ("routes", codes.shape, codes.tobytes()))
        codes, route = made
        if codes is not None:
            of[fn] = codes
        return route

    def _base(self, n, nr: int, shape: tuple):
        key = (n, nr) if n is not None else shape
        codes = self.bases.get(key, self)
        if codes is self:
            codes = self.bases[key] = self.table.base(key, shape) if n is not None else \
                _zeros(shape)
        return codes


def _zeros(shape: tuple):
    return np.zeros(shape, dtype=np.int64) if all(type(s) is int for s in shape) else None


def _apart(fn, plain: frozenset, keep: dict) -> bool:
    """Whether ``fn`` must stay apart (see the module docstring)."""
    if type(fn) not in plain or fn in keep or fn._hooks or fn._retained is not None \
            or fn._released:
        return True
    for _, _, counter, seen in fn._versions:
        if counter[0] != seen:
            return True
    return False


def _key(fn, fn_edges: tuple):
    """What makes ``fn``'s cotangents: its class, rule, attributes, the nodes it saved (and its
    output's), the standing functions of its inputs."""
    saved = []
    for t in fn._saved:
        saved.append(t._node if t._value is None else t.node)   # (an eager value: its
        # node in this trace, a constant or the input a captured tensor is read through)
    out = fn._out
    if out is not None:
        out = out[1]
        if out is None:
            return None
    attrs = fn._attrs
    return (type(fn), fn._rule, attrs_key(tuple(attrs.items())) if attrs else (),
            tuple(saved), fn_edges, out, fn._complex, fn._holomorphic, fn._conj_saved,
            fn._input_meta)
