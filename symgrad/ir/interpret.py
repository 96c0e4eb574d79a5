"""The NumPy reference interpreter: evaluate a graph with each op's NumPy reference.

Layer: ir. Input: a ``Graph`` and NumPy arrays for its inputs. Output: NumPy arrays for its
outputs. This is the test oracle for the generated C (and for every optimization pass). It must
not share code with lowering or codegen.
"""

from __future__ import annotations

import numpy as np

from ..ops import get
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
    with np.errstate(all="ignore"):
        for node in graph.nodes():
            if node in env:
                continue
            if node.op == "const":
                env[node] = np.asarray(node.attr("value"), dtype=node.dtype.np)
                continue
            op = get(node.op)
            value = op.numpy(*[env[i] for i in node.inputs], **node.a)
            env[node] = np.asarray(value, dtype=node.dtype.np)
    return [np.array(env[n], copy=True) for n in graph.outputs]
