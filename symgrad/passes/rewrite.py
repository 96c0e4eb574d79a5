"""The one rewrite driver the passes share: rebuild a graph bottom-up, node by node.

Layer: passes. Input: a graph and a function ``node -> node`` applied to each node after its
inputs were rewritten. Output: a new graph (the old one is untouched) with source locations
carried over. Because nodes are interned, rebuilding is also common-subexpression elimination,
and because a graph is rebuilt from its outputs, nodes nothing reads are dropped (dead-code
elimination).
"""

from __future__ import annotations

from typing import Callable

from ..ir import Graph, Node


def rebuild(graph: Graph, fn: Callable[[Node], Node]) -> Graph:
    new: dict[Node, Node] = {}
    locs = dict(graph.locs)
    loc_of, set_loc = graph.locs.get, locs.setdefault
    for node in graph.nodes():
        if node.op == "input":
            new[node] = node
            continue
        rebuilt = node
        if node.inputs:
            inputs = tuple([new[i] for i in node.inputs])
            if inputs != node.inputs:
                rebuilt = Node(node.op, node.attrs, inputs, node.dtype, node.shape)
        out = fn(rebuilt)
        loc = loc_of(node)
        if loc is not None:
            if rebuilt is not node:     # ``node`` itself is in ``locs`` already
                set_loc(rebuilt, loc)
            set_loc(out, loc)
        new[node] = out
    outputs = tuple([new[o] for o in graph.outputs])
    after = Graph(graph.inputs, outputs, locs)
    after.adopt_order(graph)
    return after


def first_rule(rules) -> Callable[[Node], Node]:
    """A node function from a table of rules (node -> node or None): the first that applies."""
    def apply(node: Node) -> Node:
        for rule in rules:
            out = rule(node)
            if out is not None:
                return out
        return node
    return apply


def fixpoint(graph: Graph, fn: Callable[[Node], Node], limit: int = 8) -> Graph:
    """Apply ``rebuild`` until nothing changes (bounded: rules must not cycle)."""
    for _ in range(limit):
        after = rebuild(graph, fn)
        if after.outputs == graph.outputs:
            return after
        graph = after
    return graph
