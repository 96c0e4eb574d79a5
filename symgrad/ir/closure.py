"""Closing a body over its inputs: what makes a traced loop body a closed graph.

Layer: ir. Input: the input nodes a body was traced on, its output nodes, the trace's source
table. Output: a closed ``Graph`` (every ``input`` node it reads is one of its inputs) and the
outside nodes it reads, which the control-flow application takes as operands.

A body traced with Python closures reads values from outside: the arguments of the enclosing
function, the results of its earlier lines. A node that does not depend on the body's inputs
has the same value at every step; when it is made of something other than constants, it
becomes an operand of the application, computed once before the loop (loop-invariant code
motion, as part of tracing), and the body reads it through a new input. Constant-only values
stay in the body, where the passes fold them.

Input nodes are interned like every node: each body's inputs carry a ``scope`` attribute unique
to the body, so that they are never the same objects as the enclosing graph's inputs.
"""

from __future__ import annotations

import itertools

from .graph import Graph, Node, toposort, with_inputs

_SCOPES = itertools.count(1)


def new_scope() -> int:
    """A fresh scope number for the input nodes of one body."""
    return next(_SCOPES)


def body_input(index: int, name: str, dtype, shape: tuple, scope: int) -> Node:
    return Node("input", (("index", index), ("name", name), ("scope", scope)), (), dtype,
                shape)


def close(inputs: list, outputs: list, locs: dict, scope: int, prefix: str = "k",
          stays=None) -> tuple[Graph, list]:
    """(closed graph over ``inputs`` plus one input per outside value, the outside values).
    ``stays(node)``: a node that stays in the body even if it does not depend on ``inputs``
    (a view: its source is taken from outside instead)."""
    inset = set(inputs)
    order = toposort(outputs, inputs)
    variant: dict = {}
    constant: dict = {}
    for n in order:
        if n in inset:
            variant[n], constant[n] = True, False
            continue
        variant[n] = any(variant[i] for i in n.inputs)
        constant[n] = n.op == "const" or (not variant[n] and n.op != "input" and
                                          bool(n.inputs) and all(constant[i] for i in n.inputs))
        if not variant[n] and not constant[n] and stays is not None and stays(n):
            variant[n] = True
    outside: list = []
    seen: set = set()

    def hoist(n: Node) -> None:
        if not variant[n] and not constant[n] and n not in seen:
            seen.add(n)
            outside.append(n)
    for n in order:
        if variant[n]:
            for i in n.inputs:
                hoist(i)
    for o in outputs:
        hoist(o)
    new_inputs = [body_input(len(inputs) + k, f"{prefix}{k}", n.dtype, n.shape, scope)
                  for k, n in enumerate(outside)]
    mapping = dict(zip(outside, new_inputs))
    new_locs: dict = {}
    for n in order:
        if variant[n] and n not in inset:
            ins = tuple(mapping.get(i, i) for i in n.inputs)
            new = n if ins == n.inputs else with_inputs(n, ins)
            mapping[n] = new
            if n in locs:
                new_locs.setdefault(new, locs[n])
        elif constant[n] and n in locs:
            new_locs.setdefault(n, locs[n])
    outs = tuple(mapping.get(o, o) for o in outputs)
    return Graph(tuple(inputs) + tuple(new_inputs), outs, new_locs), outside


def substitute(graph: Graph, mapping: dict, inputs: list) -> Graph:
    """``graph`` with the nodes of ``mapping`` replaced (by constants, or by new inputs), over
    ``inputs``; the nodes only the replaced ones needed are gone."""
    new: dict = {n: n for n in inputs}
    new.update(mapping)
    locs: dict = {}
    for n in graph.nodes():
        if n in new:
            continue
        ins = tuple(new[i] for i in n.inputs)
        new[n] = n if ins == n.inputs else with_inputs(n, ins)
        if n in graph.locs:
            locs.setdefault(new[n], graph.locs[n])
    return Graph(tuple(inputs), tuple(new[o] for o in graph.outputs), locs)
