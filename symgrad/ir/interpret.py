"""The NumPy reference interpreter: evaluate a graph with each op's NumPy reference.

Layer: ir. Input: a ``Graph`` and NumPy arrays for its inputs. Output: NumPy arrays for its
values (its guards checked: ValueError if one does not hold). This is the test oracle for the
generated C (and for every optimization pass). It must not share code with lowering or codegen.
A control-flow application (``ops.control``) runs once for all its sibling nodes; its reference
gets this interpreter to run its bodies.
"""

from __future__ import annotations

import numpy as np

from ..ops import get
from .graph import Graph, Node
from .walk import Application, walk


def interpret(graph: Graph, args: list) -> list:
    if len(args) != len(graph.inputs):
        raise TypeError(f"graph takes {len(graph.inputs)} inputs, got {len(args)}")
    env = {}
    for node, a in zip(graph.inputs, args):
        arr = np.asarray(a, dtype=node.dtype.np)
        if arr.shape != node.shape:
            raise ValueError(f"input {node.attr('name')}: expected shape {node.shape}, got "
                             f"{arr.shape}")
        env[node] = arr
    with np.errstate(all="ignore"):
        walk(graph.nodes(), env, numpy_node, numpy_application, constant)
    for k, g in enumerate(graph.outputs[:graph.n_guards]):
        if not env[g]:
            raise ValueError(f"guard {k} of the graph does not hold for these inputs (they "
                             f"take another path through the function's Python control flow)")
    return [np.array(env[n], copy=True) for n in graph.values]


def constant(node: Node) -> np.ndarray:
    return np.asarray(node.attr("value"), dtype=node.dtype.np)


def numpy_node(node: Node, ins: list) -> np.ndarray:
    """A node's value from its operands' (its op's NumPy reference, in its dtype)."""
    return np.asarray(get(node.op).numpy(*ins, **node.a), dtype=node.dtype.np)


def numpy_application(app: Application, ins: list) -> list:
    """The values of a control-flow application from its operands' (its op's reference,
    running its bodies with this interpreter), each in its dtype."""
    op = get(app.op)
    values = op.numpy(*ins, run=interpret, **app.attrs)
    dtypes = [i.dtype for i in app.inputs]
    return [np.asarray(v, dtype=op.dtype(*dtypes, **app.attrs, index=k).np)
            for k, v in enumerate(values)]
