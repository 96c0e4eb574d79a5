"""Walking a graph in order, once per value and once per control-flow application.

Layer: ir. Input: a graph's nodes in order and the values known so far. Output: every node's
value, made by the caller's callbacks. An application of a control-flow op (``ops.control``)
is several nodes, one per value it produces (siblings that differ only in their ``index``
attribute); ``Application`` is the object those siblings stand for, and ``walk`` applies it
once, whichever sibling comes first. The NumPy interpreter, the guards' evaluator, the replay
of a graph on tensors and vmap's batched replay are this loop with their own callbacks.
``in_order`` is the demand-driven walk: one node's value after those it needs, for analyses
asked about a few nodes (``structure``'s numbers, ``zeros``, ``reads``).

Why siblings and not one tuple-valued node with projections (tinygrad's ``GETTUPLE``): every
pass, the verifier and the lowering treat a node as one value of one shape and dtype, and a
sibling the graph no longer reads simply disappears with dead code; ``Application`` gives the
grouped view where an application must be run or printed as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

from .control import group_key, is_control, n_outputs
from .graph import Node


@dataclass(frozen=True)
class Application:
    """One application of a control-flow op: what its sibling nodes share."""

    op: str
    attrs: dict          # every attribute but ``index``
    inputs: tuple        # the operand nodes
    arity: int           # how many values it produces (siblings the graph may not all read)
    first: Node          # the sibling met first (its source line, its attributes)

    @classmethod
    def of(cls, node: Node) -> Application:
        attrs = {k: v for k, v in node.attrs if k != "index"}
        return cls(node.op, attrs, node.inputs, n_outputs(node), node)

    @property
    def key(self) -> tuple:
        return group_key(self.first)


def applications(graph, op: str) -> list[Application]:
    """The applications of ``op`` in ``graph`` (its own nodes, not its bodies'), in order."""
    found: dict = {}
    for node in graph.nodes():
        if node.op == op:
            found.setdefault(group_key(node), Application.of(node))
    return list(found.values())


def walk(nodes: list, env: dict, on_node: Callable, on_application: Callable,
         on_const: Callable | None = None) -> dict:
    """Fill ``env`` (node -> value) for ``nodes`` in order, skipping those it holds:
    ``on_const(node)`` for a constant (when given), ``on_application(app, operands)`` (a list
    of one value per index) once per control-flow application, ``on_node(node, operands)``
    for any other node. Returns ``env``."""
    applied: dict = {}
    for node in nodes:
        if node in env:
            continue
        if on_const is not None and node.op == "const":
            env[node] = on_const(node)
        elif is_control(node):
            key = group_key(node)
            values = applied.get(key)
            if values is None:
                values = applied[key] = on_application(Application.of(node),
                                                       [env[i] for i in node.inputs])
            env[node] = values[node.attr("index")]
        else:
            env[node] = on_node(node, [env[i] for i in node.inputs])
    return env


def in_order(node: Node, memo: dict, needs, evaluate):
    """``memo[node]``, evaluated (``evaluate(n)``) after the entries it reads, those of
    ``needs(n)`` (a node's inputs, or its readers for a walk from the outputs back), without
    recursion (graphs are thousands of nodes deep). Returns ``memo[node]``."""
    stack = [node]
    while stack:
        n = stack[-1]
        if n in memo:
            stack.pop()
            continue
        pending = [i for i in needs(n) if i not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[n] = evaluate(n)
    return memo[node]
