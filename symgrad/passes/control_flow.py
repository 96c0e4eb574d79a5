"""Simplifying loops and branches: a pass over each control-flow application as a whole.

Layer: passes. Graph -> Graph (``simplify_control``). For each application of ``scan``,
``while`` or ``cond`` (and, first, inside every body):

- values nothing reads are not computed: a scan's stacked values and a cond's results that no
  sibling node stands for leave the bodies, and so do a scan's carries that neither a value
  read after the loop nor a value it keeps computing depends on (an unused step counter);
- constant operands move into the bodies (a broadcast scalar is a literal in the body's C, not
  a buffer filled and passed every step), and operands the bodies no longer read are dropped;
- loop-invariant code moves out: work in a ``scan``/``while`` body that depends only on its
  loop-invariant operands is computed once, before the loop (views of such values stay in the
  body, so that a hoisted broadcast does not become a buffer);
- work done twice is done once (``shared_work``): a ``cond``'s side reads what the graph
  around it computed already, and a ``while`` whose carries another one carries too (forward
  mode's loop of values and tangents) is read from that one;
- a scan that reads another's stacked values step by step runs in its loop (``loop_fusion``);
- a scan of one step is its body, inlined (a ``fori_loop`` of one step, or its backward: no
  carries copied in and out, and the body's work fuses with the graph around it).

It must keep each application's siblings consistent: the siblings present are rebuilt
together, renumbered to the values that remain.
"""

from __future__ import annotations

import threading

from ..ir import Graph, Node, toposort, with_inputs
from ..ir.closure import close, new_scope, substitute
from ..ir.structure import Structure
from ..ir.control import group_key, is_control, sibling
from ..ir.walk import Application
from .identities import scalar_const
from .loop_fusion import fuse_scans
from .shared_work import Around, into_branches, merge_loops

_VIEWS = ("reshape", "expand", "permute", "slice")


_MEMO = threading.local()   # .table: (inputs, outputs, n_guards) -> simplified, for one call


def simplify_control(graph: Graph) -> Graph:
    """Prune unread values, sink constant operands and hoist invariant code of every
    control-flow application (see the module docstring), until nothing changes (a loop that
    stops reading a value lets the loop that made it stop computing it, the next round).

    Each body is simplified once per call (``_MEMO``): every round at one level simplifies
    the bodies below it again, so nested conds cost rounds ** depth (eight nested conds took
    more than 6 GB and minutes before)."""
    table = getattr(_MEMO, "table", None)
    if table is None:
        _MEMO.table, _MEMO.structure = {}, Structure()
        try:
            return simplify_control(graph)
        finally:
            _MEMO.table = _MEMO.structure = None
    key = (graph.inputs, graph.outputs, graph.n_guards)   # (nodes are interned: structure)
    found = table.get(key)
    if found is not None:
        return found
    done = _inline_single_steps(graph)
    for _ in range(4):
        after = _simplify_once(done)
        if after.outputs == done.outputs:
            done = after
            break
        done = after
    table[key] = done
    table.setdefault((done.inputs, done.outputs, done.n_guards), done)
    return done


def _simplify_once(graph: Graph) -> Graph:
    nodes = graph.nodes()
    groups: dict = {}
    for n in nodes:
        if is_control(n):
            groups.setdefault(group_key(n), {})[n.attr("index")] = n
    if not groups:
        return graph
    new: dict = {}
    locs = dict(graph.locs)
    around = Around(_MEMO.structure)
    for n in nodes:
        if n in new:
            continue
        if n.op == "input":
            new[n] = n
            around.add(n)
            continue
        ins = tuple(new[i] for i in n.inputs)
        if is_control(n):
            present = groups[group_key(n)]
            for index, node in _simplified(n, ins, present, around).items():
                new[present[index]] = node
                around.add(node)
                if present[index] in graph.locs:
                    locs.setdefault(node, graph.locs[present[index]])
            continue
        new[n] = n if ins == n.inputs else with_inputs(n, ins)
        around.add(new[n])
        if n in graph.locs:
            locs.setdefault(new[n], graph.locs[n])
    outputs = tuple(new[o] for o in graph.outputs)
    after = graph if outputs == graph.outputs else Graph(graph.inputs, outputs, locs,
                                                         graph.n_guards)
    return fuse_scans(merge_loops(after, _MEMO.structure))


def _simplified(node: Node, ins: tuple, present: dict, around: Around) -> dict:
    """index -> the new sibling node, for each present sibling of ``node``'s application
    (``around``: what the graph computes before it)."""
    attrs = Application.of(node).attrs
    if node.op == "scan":
        attrs, ins, keep = _scan(attrs, list(ins), set(present))
    elif node.op == "cond":
        attrs, ins, keep = _cond(attrs, list(ins), set(present), around)
    else:
        keep = {k: k for k in present}
        attrs = {k: simplify_control(v) if isinstance(v, Graph) else v
                 for k, v in attrs.items()}
    return {old: sibling(node.op, attrs, tuple(ins), index) for old, index in keep.items()}


# ------------------------------------------------------------------ scan

def _inline_single_steps(graph: Graph) -> Graph:
    """``graph`` with every scan of length 1 replaced by its body applied to its operands
    (a sequence's one step is the sequence without its leading axis; a stacked value, the
    body's with one)."""
    if not any(n.op == "scan" and n.attr("length") == 1 for n in graph.nodes()):
        return graph
    memo: dict = {}
    locs = dict(graph.locs)
    for n in graph.nodes():
        ins = tuple(memo.get(i, i) for i in n.inputs)
        if n.op == "scan" and n.attr("length") == 1:
            outs = _applied(n.attr("body"), n.attr("carries"), n.attr("xs"), ins, locs)
            out, nc = outs[n.attr("index")], n.attr("carries")
            made = out if n.attr("index") < nc else \
                Node("reshape", (("shape_to", n.shape),), (out,), out.dtype, n.shape)
        else:
            made = n if ins == n.inputs else with_inputs(n, ins)
        memo[n] = made
        if n in graph.locs:
            locs.setdefault(made, graph.locs[n])
    return Graph(graph.inputs, tuple(memo[o] for o in graph.outputs), locs, graph.n_guards)


def _applied(body: Graph, nc: int, nx: int, operands: tuple, locs: dict) -> tuple:
    """The outputs of ``body`` computed from the operands of a one-step scan (nodes of the
    graph around; ``locs`` gets the body's lines for them)."""
    mapping = {}
    for k, (inner, outer) in enumerate(zip(body.inputs, operands)):
        if nc <= k < nc + nx:      # (the step's element of a sequence)
            outer = Node("reshape", (("shape_to", inner.shape),), (outer,), outer.dtype,
                         inner.shape)
        mapping[inner] = outer
    applied = substitute(body, mapping, [])
    for node, loc in applied.locs.items():
        locs.setdefault(node, loc)
    return applied.outputs


def _scan(attrs: dict, ins: list, present: set) -> tuple:
    body, nc, nx = simplify_control(attrs["body"]), attrs["carries"], attrs["xs"]
    n_y = len(body.outputs) - nc
    kept_y = [j for j in range(n_y) if nc + j in present]
    live = _live_carries(body, nc, {k for k in range(nc) if k in present}, kept_y)
    body = Graph(tuple(body.inputs[k] for k in live) + body.inputs[nc:],
                 tuple(body.outputs[k] for k in live) +
                 tuple(body.outputs[nc + j] for j in kept_y), body.locs)
    ins = [ins[k] for k in live] + ins[nc:]
    keep = {k: p for p, k in enumerate(live) if k in present}
    nc = len(live)
    body, ins, nx = _sink(body, ins, nc, nx, sequence=range(nc, nc + nx))
    body, ins = _hoist(body, ins, nc + nx)
    keep.update({attrs["carries"] + j: nc + p for p, j in enumerate(kept_y)})
    return {**attrs, "body": body, "xs": nx, "carries": nc}, ins, keep


def _live_carries(body: Graph, nc: int, read: set, kept_y: list) -> list:
    """The carries a loop must keep: those read after it (``read``), and those that the
    values it keeps computing depend on (a step counter nothing uses is dropped)."""
    live = set(read)
    while True:
        roots = [body.outputs[k] for k in live] + [body.outputs[nc + j] for j in kept_y]
        needed = {n for n in toposort(roots) if n.op == "input"}
        grown = live | {k for k in range(nc) if body.inputs[k] in needed}
        if grown == live:
            return sorted(live)
        live = grown


def _sink(body: Graph, ins: list, fixed: int, nx: int, sequence: range) -> tuple:
    """Operands from position ``fixed`` on that are constant move into the body (a
    sequence's step of a broadcast constant is the constant); operands it does not read
    leave. Returns (body, operands, number of sequences left)."""
    read = _read_inputs(body)
    mapping: dict = {}
    keep = list(range(fixed))
    for j in range(fixed, len(ins)):
        const = scalar_const(ins[j])
        inner = body.inputs[j]
        if const is not None:
            mapping[inner] = _broadcast(const, inner.shape)
        elif inner in read:
            keep.append(j)
    if len(keep) == len(ins):
        return body, ins, nx
    body = substitute(body, mapping, [body.inputs[j] for j in keep])
    return body, [ins[j] for j in keep], sum(1 for j in keep if j in sequence)


def _read_inputs(graph: Graph) -> set:
    """The inputs some output of ``graph`` depends on."""
    return {n for n in toposort(graph.outputs) if n.op == "input"}


def _broadcast(const: Node, shape: tuple) -> Node:
    if not shape:
        return const
    return Node("expand", (("shape_to", tuple(shape)),), (const,), const.dtype, tuple(shape))


def _hoist(body: Graph, ins: list, variant: int) -> tuple:
    """Invariant work of a loop body (not depending on its first ``variant`` inputs) moves
    out: computed from the operands before the loop, read by the body through new inputs."""
    closed, outside = close(list(body.inputs[:variant]), list(body.outputs), body.locs,
                            new_scope(), prefix="h", stays=lambda n: n.op in _VIEWS)
    if all(o in body.inputs for o in outside) and len(outside) == len(body.inputs) - variant:
        return body, ins
    outer = dict(zip(body.inputs[variant:], ins[variant:]))
    new_ins = ins[:variant] + [_outer(o, outer) for o in outside]
    return closed, new_ins


def _outer(node: Node, outer: dict) -> Node:
    """A body node that depends on its invariant inputs only, rebuilt over the operands."""
    memo = dict(outer)
    for n in toposort([node], list(outer)):
        if n in memo:
            continue
        ins = tuple(memo[i] for i in n.inputs)
        memo[n] = n if ins == n.inputs else with_inputs(n, ins)
    return memo[node]


# ------------------------------------------------------------------ cond

def _cond(attrs: dict, ins: list, present: set, around: Around) -> tuple:
    kept = sorted(present)
    branches = []
    for g in attrs["branches"]:
        g = simplify_control(g)
        branches.append(Graph(g.inputs, tuple(g.outputs[k] for k in kept), g.locs))
    branches, ins = into_branches(tuple(branches), ins, around)
    # the operands (after the predicate) that are constant or that no branch reads
    read = set()
    for g in branches:
        read |= _read_inputs(g)
    keep = [j for j in range(1, len(ins))
            if scalar_const(ins[j]) is None and
            any(g.inputs[j - 1] in read for g in branches)]
    if len(keep) < len(ins) - 1:
        new = []
        for g in branches:
            mapping = {g.inputs[j - 1]: _broadcast(scalar_const(ins[j]), g.inputs[j - 1].shape)
                       for j in range(1, len(ins)) if scalar_const(ins[j]) is not None}
            new.append(substitute(g, mapping, [g.inputs[j - 1] for j in keep]))
        branches, ins = new, [ins[0]] + [ins[j] for j in keep]
    return {**attrs, "branches": tuple(branches)}, ins, {k: p for p, k in enumerate(kept)}

