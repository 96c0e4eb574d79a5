"""Whether a traced graph's nodes, differentiated by their ops' own rules, give its tape's
gradient.

Layer: front end, beside ``backward_graph`` (whose functions it reads). Input: the backward
functions recorded from some roots back to some leaves at trace time. Output: per graph node
that carries a gradient, which of its inputs pass one on (``node_masks``), when differentiating
the nodes is differentiating the tape; else None.

Reverse mode at the graph level (a ``scan``'s rule over its body, ``frontend.control.rolling``
over a rolled program) applies each node's op's rule; the tape applies each recorded
function's. They agree when every function on the way

- is symgrad's own (no custom ``autograd.Function``, hook, retained grad, graph freed, value
  changed in place since it was saved; real values);
- is its node's op's rule with an edge exactly for each input that carries a gradient
  (a ``detach`` is an input without an edge, and ``x + x.detach()`` cannot be told apart by
  the node: refused); or stands for several nodes of linear ops (``_covered``:
  ``sum`` is a sum and a reshape, ``mean`` a sum divided by a count; the adjoint of a linear
  map is unique, so any correct rule is the nodes' composed, up to the rounding of its
  products by constants); or is a move the trace made an earlier
  node of the same value (``_moved``: ``x[1].unsqueeze(0)`` is the slice ``x[1:2]``; each
  element's cotangent reaches the same element of the same base either way, unless an edge on
  the way is cut); or, when the tape reaches other nodes than that earlier node's inputs (a
  minor of a cofactor determinant cut from another minor than the one it was first cut
  from), is a move of the same value *by value* (``_ByValue``): the tape's moves below it,
  down to values that are not moves, cut no edge, and the earlier node's moves down to
  such values pass every gradient on. The trace made them one node because they copy the
  same elements of the same values (``ir.provenance.Values``); with no cut on either side,
  each element's cotangent reaches the same element either way.

Other composite rules (``norm``, ``softmax``...) are refused: their rules may choose values at
singular points (torch's ``norm`` has gradient 0 at 0) that their primitives' rules do not;
unless the composite marked its rule ``exact`` (``backward_graph.exact``: its body's derivative
everywhere, as ``addmm``'s and ``reciprocal``'s are): then its nodes are differentiated by their
ops' rules, whatever the ops.

Where graph-level reverse mode is the only one (a loop or branch body: its op's rule
differentiates the body's graph), what only the tape knows is made a node instead
(``body_barrier``): a ``detach`` a ``stop_gradient``, a custom Function's result or a hooked
tensor a ``no_derivative`` (its derivative an error that says why).
"""

from __future__ import annotations

from ...ir.provenance import MOVES
from ...ir.graph import Node
from ...ops import OPS
from . import grad_mode, sources
from .apply import apply
from .backward_graph import function_classes, plain_rule
from .tensor import Tensor


def node_masks(roots: list, leaves: dict) -> dict | None:
    """node -> per input, whether a gradient flows through it, for every node that carries
    one between the functions ``roots`` and ``leaves`` (a leaf's AccumulateGrad -> the leaf
    tensor), if differentiating those nodes by their ops' own rules is differentiating the
    tape (see the module docstring); else None."""
    # why not split: one pass over every function of the tape (34k for an unrolled 400-step
    # RK4: a call per function was a third of the time)
    plain = function_classes()
    by_value = _ByValue(leaves)
    masks: dict = {}
    rules: dict = {}   # (op, mask) -> the rule record_function gives it
    others, fns, seen = [], [], set(leaves)
    stack = list(roots)
    pop, push, see, keep = stack.pop, stack.append, seen.add, fns.append
    while stack:
        fn = pop()
        if fn in seen:
            continue
        see(fn)
        node = fn._made
        if type(fn) not in plain or fn._hooks or fn._retained is not None or fn._released \
                or fn._complex or node is None:
            return None   # (a custom Function, a hook, a retained grad, a graph freed)
        for _, _, counter, version in fn._versions:
            if counter[0] != version:
                return None   # (what its rule reads changed in place since)
        keep(fn)
        mask = []
        inputs = node.inputs
        if len(inputs) != len(fn._edges):
            mask = None
        for k, (e, nr) in enumerate(fn._edges):
            if e is None:
                if mask is not None:
                    mask.append(False)
                continue
            push(e)
            if mask is not None:
                if nr == 0 and (e._made is inputs[k] or e in leaves and
                                leaves[e]._node is inputs[k]):
                    mask.append(True)
                else:
                    mask = None
        if mask is None or (False in mask and _ambiguous(inputs, mask)):
            if not (node.op in MOVES and by_value.moved(fn)):
                others.append(fn)
            continue
        mask = tuple(mask)
        rule = rules.get((node.op, mask))
        if rule is None:
            rule = rules[node.op, mask] = plain_rule(OPS[node.op], mask)
        if fn._rule is not rule:
            others.append(fn)
        elif masks.setdefault(node, mask) != mask:
            return None
    if others:
        masks = _others(others, fns, leaves, masks)
        if masks is None:
            return None
    refused = by_value.resolve(masks)   # (the other functions' masks known)
    return _others(refused, fns, leaves, masks) if refused else masks


class _ByValue:
    """The functions of data movement whose node the trace made an earlier node of the same
    value, accepted by value (see the module docstring): ``moved(fn)`` checks the tape side
    as the functions are met, ``resolve(masks)`` the nodes' side once the other functions'
    masks are known. Both remember what they found per function and node: a recomputing
    program reaches one value through thousands of functions (a 7x7 determinant's tape, 16k
    of its 47k)."""

    def __init__(self, leaves: dict) -> None:
        self.leaves = leaves
        self.leaf_nodes = {t._node for t in leaves.values()}
        self.uncut: dict = {}       # function -> whether its moves down to non-moves cut no edge
        self.candidates: dict = {}  # node -> the functions that made it, uncut

    def moved(self, fn) -> bool:
        """Whether ``fn``'s moves, down to the functions of values that are not moves (or
        leaves), cut no edge; then ``fn`` is a candidate of its node."""
        uncut, leaves = self.uncut, self.leaves
        stack = [fn]
        while stack:   # (iterative: chains of moves can be long)
            f = stack[-1]
            if f in uncut:
                stack.pop()
                continue
            todo = []
            result = True
            for e, _ in f._edges:
                if e is None:   # a cut: no cotangent reaches that input
                    result = False
                    break
                if e in leaves:
                    continue
                made = e._made
                if made is None or e._n_outputs != 1:
                    result = False
                    break
                if made.op not in MOVES:
                    continue   # a value that is not a move: where the routes end
                got = uncut.get(e)
                if got is None:
                    todo.append(e)
                elif not got:
                    result = False
                    break
            if result and todo:
                stack.extend(todo)   # (its inputs first)
                continue
            uncut[f] = result
            stack.pop()
        if uncut[fn]:
            self.candidates.setdefault(fn._made, []).append(fn)
        return uncut[fn]

    def resolve(self, masks: dict) -> list:
        """Give each candidate node a mask passing every gradient on, where its moves down to
        values that are not moves pass every gradient on and each of those values carries one
        (in ``masks``, or a leaf); the functions of the other candidates, to be judged as the
        other functions are (``_covered``). Candidates accepted meanwhile count as passing
        theirs until one they rely on is refused (then all are looked at again)."""
        candidates = self.candidates
        dropped: list = []
        while True:
            full: dict = {}
            refused = [n for n in candidates if not self._passes(n, masks, full)]
            if not refused:
                break
            for n in refused:
                dropped += candidates.pop(n)
        for n in candidates:
            masks[n] = (True,) * len(n.inputs)
        return dropped

    def _passes(self, root, masks: dict, full: dict) -> bool:
        """Whether ``root``'s moves pass every gradient on (see ``resolve``)."""
        candidates, leaf_nodes = self.candidates, self.leaf_nodes
        stack = [root]
        while stack:
            n = stack[-1]
            if n in full:
                stack.pop()
                continue
            mask = masks.get(n)   # (a candidate's own: all passing, unless refused)
            if False in (mask or ()) or mask is None and n not in candidates:
                return False
            pending = False
            for x in n.inputs:
                if x.op not in MOVES or x in leaf_nodes:
                    if x not in masks and x not in leaf_nodes:
                        return False
                elif x not in full:
                    stack.append(x)
                    pending = True
            if not pending:
                full[n] = True
                stack.pop()
        return True


def _others(others: list, fns: list, leaves: dict, masks: dict) -> dict | None:
    """``masks`` with those of the functions that are not their node's op's rule on its
    inputs (``_covered``), or None if one is refused."""
    made = {fn._made for fn in fns}
    made.update(t._node for t in leaves.values())
    for fn in others:
        covered = _covered(fn, leaves, made)
        if covered is None:
            return None
        for node, mask in covered.items():
            if masks.setdefault(node, mask) != mask:
                return None
    return masks


def _ambiguous(inputs: tuple, mask: list) -> bool:
    """Whether an input without a gradient is also one with (``x + x.detach()``): the node
    cannot tell them apart."""
    return any(x is y for x, f in zip(inputs, mask) if not f for y, g in zip(inputs, mask) if g)


def _covered(fn, leaves: dict, made: set) -> dict | None:
    """The nodes ``fn`` stands for, with their masks, when it is not its node's op's rule on
    the node's own inputs: a function of several nodes (a torch function composed of
    primitives: ``sum`` is a sum and a reshape) stands for the nodes between its node and its
    inputs' if each of those that carries a gradient is of a linear op that moves or adds
    values (the adjoint of their composition is unique: the rules give it, whoever wrote
    them) and every input of the function carries a gradient; or, whatever the ops and
    inputs, if its rule is marked ``exact``. None: refused."""
    node = fn._made
    exact = getattr(fn._rule, "exact", False)
    flows: dict = {}
    for k, (e, nr) in enumerate(fn._edges):
        if e is None and exact:   # an input without a gradient: what reads only it carries
            t = fn._saved[k]      # none
            got, carries = t.node, False
        else:
            got, carries = (None if e is None else leaves[e]._node if e in leaves
                            else e._made), True
            if got is None or nr:
                return None
        if flows.setdefault(got, carries) is not carries:
            return None   # one node as an input with a gradient and one without: ``x`` and
            # ``x.detach()`` (the node cannot tell which reads are which: as ``_ambiguous``)
    covered: dict = {}
    try:
        mask = tuple(_cover(x, flows, made, covered) for x in node.inputs)
    except _Shared:
        return _moved(fn, leaves, made) if node.op in MOVES else None
    covered[node] = mask
    # (an exact rule's nodes are differentiated by their ops' rules, whatever the ops)
    if any(mask) and len(covered) <= _MAX_COVER and (exact or all(
            _linear(n.op, m) for n, m in covered.items())):
        return covered
    return _moved(fn, leaves, made) if node.op in MOVES else None


def _moved(fn, leaves: dict, made: set) -> dict | None:
    """The mask of ``fn``'s node, of data movement, when the trace made it an earlier node of
    the same value (``ir.provenance.Values``: ``stack``'s ``x[1].unsqueeze(0)`` is the slice
    ``x[1:2]``): its inputs are the bases the tape reaches through the moves below ``fn``.
    Each element's cotangent reaches the same element of the same base either way, if no edge
    on the way is cut (a ``detach``): then refused."""
    node = fn._made
    bases = set(node.inputs)
    reached = set()
    stack = [fn]
    while stack:
        f = stack.pop()
        if len(reached) + len(stack) > _MAX_COVER:
            return None
        for e, _ in f._edges:
            got = None if e is None else leaves[e]._node if e in leaves else e._made
            if got in bases:
                reached.add(got)
            elif got is None or got.op not in MOVES or e in leaves:
                return None
            else:
                stack.append(e)
    mask = tuple(x in reached for x in node.inputs)
    if not any(mask) or any(x in made and x not in reached for x in node.inputs):
        return None
    return {node: mask}


class _Shared(Exception):
    """``_cover`` met a node another function makes among a function's own nodes."""


def _cover(node, flows: dict, made: set, covered: dict) -> bool:
    """Whether ``node``, below a function's own node, carries a gradient from that function's
    inputs (``flows``: True for them, False for the inputs an exact rule has no edge for),
    noting the masks of those that do in ``covered``. A node another function makes that is
    none of its inputs raises ``_Shared``: the trace made it one node with one of the
    function's own (equal ops on equal nodes, or equal views: ``ir.provenance``), whose
    gradient the node's other function alone cannot tell (a pad's middle window, cut by
    ``avg_pool2d``'s body, is the padded tensor itself: not a detached input)."""
    got = flows.get(node)
    if got is not None:
        return got
    if node in made:
        raise _Shared
    if not node.inputs or len(covered) >= _MAX_COVER:
        flows[node] = False
        return False
    mask = tuple(_cover(x, flows, made, covered) for x in node.inputs)
    flows[node] = carries = any(mask)
    if carries:
        covered[node] = mask
    return carries


def _linear(op: str, mask: tuple) -> bool:
    """Whether a node of ``op`` is linear in its inputs that carry a gradient (``mask``): a
    move, a sum, or a product or quotient by a value that carries none (``mean`` is a sum
    divided by a count)."""
    if not any(mask):
        return False
    if op in _LINEAR:
        return True
    return op in ("mul", "div") and mask.count(True) == 1 and (op == "mul" or mask[0])


# The ops that move or add values, the linear ops a function of several nodes may be made of.
_LINEAR = frozenset(("reshape", "permute", "expand", "slice", "cat", "sum", "add", "sub",
                     "neg", "unslice"))
_MAX_COVER = 64


def body_barrier(t: Tensor, name: str) -> Node | None:
    """The node of ``name`` ("stop_gradient", "no_derivative") applied to the traced ``t``
    inside a loop or branch body being traced, else None: there the body's graph is what its
    loop's rule differentiates, so what the tape alone would know (a detach, a custom rule,
    a hook) must be a node (``ops.elementwise``'s gradient barriers)."""
    rec = sources.current()
    if rec is None or rec.body is None or t._value is not None or \
            not t.dtype.is_differentiable:
        return None
    with grad_mode.no_grad():
        return apply(name, Tensor(None, t._node))._node
