"""The one rewrite driver the passes share: rebuild a graph bottom-up, node by node.

Layer: passes. Input: a graph and a function ``node -> node`` applied to each node after its
inputs were rewritten. Output: a new graph (the old one is untouched) with source locations
carried over. Because nodes are interned, rebuilding is also common-subexpression elimination,
and because a graph is rebuilt from its outputs, nodes nothing reads are dropped (dead-code
elimination). Control-flow nodes have their bodies rebuilt with the same function (once per
body: the siblings of an application keep one body object), so every pass also runs inside
loops and branches.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ..ir import Graph, Node, with_inputs
from ..ir.control import control_ops, with_bodies


def rebuild(graph: Graph, fn: Callable[[Node], Node], memo: dict | None = None) -> Graph:
    """``graph`` with ``fn`` applied to each node, inputs first. ``memo`` (node -> fn(node)),
    shared by the rebuilds of one fixpoint, skips the nodes ``fn`` has seen: it is a pure
    function of an interned node, so the confirming rebuild of a fixpoint only looks up.

    A node ``fn`` made for a node of line ``loc`` comes from that line, and so do a rule's new
    inner nodes (the inputs of what it returned that no earlier node gave a line)."""
    nodes = graph.nodes()
    control = control_ops(nodes)     # (asked once: most graphs have no control flow)
    if not control:
        memo, fixed = _fixed(nodes, fn, memo)
        if fixed:
            return _unchanged(graph, nodes)
    return _rebuild(graph, nodes, control, fn, memo)


def _fixed(nodes: list, fn: Callable[[Node], Node], memo: dict | None) -> tuple[dict, bool]:
    """Whether ``fn`` returns every node of ``nodes`` (in order) as it is: then a rebuild
    changes nothing (no node's inputs change either) and need not make a node or a lookup
    table (a fixpoint's confirming rebuild, a last fold; a rebuild by the identity function
    of det7_flat's 63k nodes: 0.09 -> 0.025 s). Fills ``memo`` (a new one for None) with
    what it asked ``fn``, up to the first node ``fn`` changes: the rebuild that follows then
    asks no node twice."""
    if memo is None:
        memo = {}
    seen = memo.get
    for node in nodes:
        if node.op == "input":
            continue
        out = seen(node)
        if out is None:
            out = memo[node] = fn(node)
        if out is not node:
            return memo, False
    return memo, True


def _unchanged(graph: Graph, nodes: list) -> Graph:
    """What ``_rebuild`` makes of a graph ``fn`` leaves as it is: the same nodes, with the
    lines of its own nodes (those of the inputs last, as the rebuild adds them)."""
    loc_of = graph.locs.get
    locs: dict = {}
    for node in nodes:
        if node.op != "input":
            loc = loc_of(node)
            if loc is not None:
                locs[node] = loc
    for node in nodes:
        if node.op == "input":
            loc = loc_of(node)
            if loc is not None:
                locs.setdefault(node, loc)
    after = Graph(graph.inputs, graph.outputs, locs, graph.n_guards)
    after.adopt_order(graph)
    return after


def _attribute(set_loc: Callable, out: Node, loc, rewritten: bool) -> None:
    """``out`` made for a node of line ``loc``; a rule's new inner nodes (the inputs of
    what it returned that no earlier node gave a line) come from the same line."""
    set_loc(out, loc)
    if rewritten:
        for i in out.inputs:
            if i.op not in ("input", "const"):
                set_loc(i, loc)


def _rebuild(graph: Graph, nodes: list, control: set, fn: Callable[[Node], Node],
             memo: dict | None) -> Graph:
    """``rebuild``'s walk: each node with its inputs rewritten, then ``fn`` (or ``memo``)."""
    new: dict[Node, Node] = {}
    new_of = new.__getitem__
    seen = memo.get if memo is not None else None
    locs: dict = {}
    loc_of, set_loc = graph.locs.get, locs.setdefault
    bodies: dict = {}      # body graph -> its rebuilt graph

    def body(g: Graph) -> Graph:
        if g not in bodies:
            after = rebuild(g, fn, memo)
            bodies[g] = g if after.outputs == g.outputs else after
        return bodies[g]
    # The loop is the passes' per-node cost: locals only, the control test a set lookup.
    for node in nodes:
        if node.op == "input":
            new[node] = node
            continue
        rebuilt = node
        ins = node.inputs
        if ins:
            inputs = tuple(map(new_of, ins))
            if inputs != ins:
                rebuilt = with_inputs(node, inputs)
        if control and rebuilt.op in control:
            rebuilt = with_bodies(rebuilt, body)
        out = seen(rebuilt) if seen is not None else None
        if out is None:
            out = fn(rebuilt)
            if memo is not None:
                memo[rebuilt] = out
        loc = loc_of(node)
        if loc is not None:
            _attribute(set_loc, out, loc, out is not rebuilt)
        new[node] = out
    outputs = tuple(map(new_of, graph.outputs))
    after = Graph(graph.inputs, outputs, locs, graph.n_guards)
    after.adopt_order(graph)
    # The new graph's locs name its own nodes only (a copy of the old table would keep every
    # node the passes ever made alive); a node a rule made, or met again interned, keeps the
    # line it had in the old graph.
    for n in after.nodes():
        if n not in locs:
            loc = loc_of(n)
            if loc is not None:
                locs[n] = loc
    return after


def readers(graph: Graph) -> dict:
    """node -> the nodes that read it (each once), and None for each time it is an output:
    what a rule that moves work asks before it moves a value's work to one of its readers."""
    found: dict = {}
    for n in graph.nodes():
        for x in dict.fromkeys(n.inputs):
            found.setdefault(x, []).append(n)
    for out in graph.outputs:
        found.setdefault(out, []).append(None)
    return found


class ReadersRule:
    """A node function for ``in_rounds`` that may ask what reads a node of the graph it
    rewrites: ``self.readers`` (``readers``), found at the first question (most graphs give
    a rule nothing to ask about)."""

    def __init__(self, graph: Graph):
        self.graph = graph

    @functools.cached_property
    def readers(self) -> dict:
        return readers(self.graph)


def in_rounds(graph: Graph, rule: Callable[[Graph], Callable[[Node], Node]],
              limit: int) -> Graph:
    """``rebuild`` with ``rule(graph)``, a node function made for the graph it rewrites (what
    reads what there), until nothing changes; at most ``limit`` rounds, each uncovering what
    the next one moves."""
    for _ in range(limit):
        after = rebuild(graph, rule(graph))
        if after.outputs == graph.outputs:
            return after
        graph = after
    return graph


def on(*ops: str) -> Callable:
    """Decorator: the rule looks at nodes of these ops only (``first_rule`` dispatches on the
    op, so a node is shown the rules for its op alone)."""
    def mark(rule: Callable) -> Callable:
        rule.ops = ops
        return rule
    return mark


def first_rule(rules) -> Callable[[Node], Node]:
    """A node function from a table of rules (node -> node or None): the first that applies,
    in table order, among the rules for the node's op (see ``on``) and those for every op."""
    ops = {op for r in rules for op in getattr(r, "ops", ())}
    table = {op: tuple(r for r in rules if op in getattr(r, "ops", (op,))) for op in ops}
    generic = tuple(r for r in rules if not hasattr(r, "ops"))

    def apply(node: Node) -> Node:
        for rule in table.get(node.op, generic):
            out = rule(node)
            if out is not None:
                return out
        return node
    return apply


def fixpoint(graph: Graph, fn: Callable[[Node], Node], limit: int = 8) -> Graph:
    """Apply ``rebuild`` until nothing changes (bounded: rules must not cycle)."""
    memo: dict[Node, Node] = {}
    for _ in range(limit):
        after = rebuild(graph, fn, memo)
        if after.outputs == graph.outputs:
            return after
        graph = after
    return graph
