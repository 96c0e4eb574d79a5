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
from .control import group_key, is_control
from .graph import Graph


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
    applications: dict = {}    # group_key -> the values of one control-flow application
    with np.errstate(all="ignore"):
        for node in graph.nodes():
            if node in env:
                continue
            if node.op == "const":
                env[node] = np.asarray(node.attr("value"), dtype=node.dtype.np)
                continue
            op = get(node.op)
            ins = [env[i] for i in node.inputs]
            if is_control(node):
                key = group_key(node)
                if key not in applications:
                    attrs = {k: v for k, v in node.attrs if k != "index"}
                    applications[key] = op.numpy(*ins, run=interpret, **attrs)
                value = applications[key][node.attr("index")]
            else:
                value = op.numpy(*ins, **node.a)
            env[node] = np.asarray(value, dtype=node.dtype.np)
    for k, g in enumerate(graph.outputs[:graph.n_guards]):
        if not env[g]:
            raise ValueError(f"guard {k} of the graph does not hold for these inputs (they "
                             f"take another path through the function's Python control flow)")
    return [np.array(env[n], copy=True) for n in graph.values]
