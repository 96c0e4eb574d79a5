"""Structural identity: when two nodes compute the same thing, bodies of loops and branches
compared by what they compute.

Layer: ir. Input: nodes and the graphs they belong to. Output: a number per node
(``Structure.of``), equal for two nodes exactly when they apply the same ops with the same
attributes to the same values, where a graph attribute (a loop's body, a branch) counts by
its structure and a graph's inputs by their positions.

Why: nodes are interned, so equal work over the same nodes is one node already; but each
trace of a body makes new input nodes (``closure.new_scope``), and two traces of the same
loop (a Python ``if``'s sides each tracing the lines before it again; forward mode running
a function's loop once for its value and once carrying tangents) hold different graph
objects, so their applications stay apart. The numbers tell such applications equal.
Exact: keys are the full tuples (numbered as met), never hashes.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Iterator

from .graph import Graph, Node, attr_key
from .walk import in_order


class Structure:
    """The structural numbers of one pass's nodes (memoized: nodes and graphs are
    immutable; a graph's nodes are numbered in its own context, its inputs by position)."""

    def __init__(self) -> None:
        self._numbers: dict = {}      # structural key -> number
        self._graphs: dict = {}       # id(graph) -> (graph, number)
        self._context: dict = {}      # id(graph) -> {node: number}

    def of(self, node: Node, graph: Graph) -> int:
        """``node``'s number, ``node`` read in ``graph`` (whose inputs count by position)."""
        memo = self._memo(graph)
        found = memo.get(node)
        if found is not None:
            return found
        return in_order(node, memo, operator.attrgetter("inputs"), lambda n: self._number(
            (n.op, self._attrs(n), n.dtype.name, _shape(n.shape),
             tuple(memo[i] for i in n.inputs))))

    def graph(self, graph: Graph) -> int:
        """A graph's number: its inputs' types and its outputs' numbers."""
        hit = self._graphs.get(id(graph))
        if hit is not None and hit[0] is graph:
            return hit[1]
        key = ("graph", tuple((i.dtype.name, _shape(i.shape)) for i in graph.inputs),
               tuple(self.of(o, graph) for o in graph.outputs), graph.n_guards)
        number = self._number(key)
        self._graphs[id(graph)] = (graph, number)
        return number

    def attrs(self, node: Node) -> int:
        """The number of ``node``'s op and attributes (its inputs aside)."""
        return self._number((node.op, self._attrs(node), node.dtype.name, _shape(node.shape)))

    def _memo(self, graph: Graph) -> dict:
        memo = self._context.get(id(graph))
        if memo is None or memo.get(_OWNER) is not graph:
            memo = {_OWNER: graph}
            for k, i in enumerate(graph.inputs):
                memo[i] = self._number(("input", k, i.dtype.name, _shape(i.shape)))
            self._context[id(graph)] = memo
        return memo

    def _attrs(self, node: Node) -> tuple:
        if node.op == "input":      # an input of no graph in this context: the node itself
            return (("node", node),)    # (held by the key: an id could be reused)
        return tuple((k, self._value(v)) for k, v in node.attrs)

    def _value(self, v: object) -> object:
        if isinstance(v, Graph):
            return ("g", self.graph(v))
        if type(v) is tuple and any(isinstance(x, Graph) for x in v):
            return tuple(self._value(x) for x in v)
        return attr_key(v)

    def _number(self, key: tuple) -> int:
        n = self._numbers.get(key)
        if n is None:
            n = self._numbers[key] = len(self._numbers)
        return n


_OWNER = object()   # the memo's entry naming the graph it numbers (ids of dead graphs recur)


def _shape(shape: tuple) -> tuple:
    return tuple(map(attr_key, shape))


def content(graph: Graph) -> Iterator:
    """``graph``'s content as a sequence of strings and bytes, the same exactly when the
    graphs compute the same (for a digest): its nodes in order, each by op, dtype, shape,
    operands and attributes (a constant's value by its bytes, a body graph likewise)."""
    order = graph.nodes()
    number = {node: k for k, node in enumerate(order)}
    yield f"graph {len(graph.inputs)} {graph.n_guards} {len(order)}"
    for node in order:
        yield f"{node.op} {node.dtype.name} {node.shape} {[number[i] for i in node.inputs]}"
        for name, v in node.attrs:
            yield name
            if isinstance(v, Graph):
                yield from content(v)
            else:
                yield from _key_parts(attr_key(v))
    yield f"outputs {[number[o] for o in graph.outputs]}"


def digest(graph: Graph, *extra: str) -> bytes:
    """A 16-byte hash of ``graph``'s content (``content``) and the strings ``extra``, each
    part length-prefixed (two different sequences of parts never feed the same bytes)."""
    h = hashlib.blake2b(digest_size=16)
    for part in (*content(graph), *extra):
        data = part if isinstance(part, bytes) else part.encode()
        h.update(len(data).to_bytes(8, "little") + data)
    return h.digest()


def _key_parts(key) -> Iterator:
    if isinstance(key, tuple):
        yield f"({len(key)}"
        for k in key:
            yield from _key_parts(k)
    else:
        yield key if isinstance(key, bytes) else f"{type(key).__name__} {key}"
