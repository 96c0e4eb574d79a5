"""The IR verifier: structural, shape and dtype checks of a graph, run after every pass in tests.

Layer: ir. Input: a ``Graph``. Output: nothing, or ``VerificationError`` naming the first bad
node (inside control-flow bodies too). It re-derives each node's shape and dtype from its op's
rules and compares.
"""

from __future__ import annotations

from ..ops import get
from .control import bodies, is_control
from .graph import Graph
from ..dims import same_shape


class VerificationError(AssertionError):
    pass


def verify(graph: Graph, _seen: set | None = None) -> None:
    """Check ``graph`` and, once each, the bodies of its control-flow nodes."""
    seen = set() if _seen is None else _seen
    seen_inputs = set()
    for i, node in enumerate(graph.inputs):
        if node.op != "input":
            raise VerificationError(f"graph input {i} is a {node.op!r} node, not 'input'")
        if node in seen_inputs:
            raise VerificationError(f"graph input {i} appears twice")
        seen_inputs.add(node)
    for node in graph.nodes():
        if node.op == "input":
            if node not in seen_inputs:
                raise VerificationError(f"{node!r} is an input node missing from graph.inputs")
            continue
        if node.op == "const":
            if node.inputs:
                raise VerificationError("a const node has inputs")
            continue
        _check_rules(node)
        if is_control(node):
            for body in bodies(node):
                if id(body) not in seen:
                    seen.add(id(body))
                    verify(body, seen)


def _check_rules(node) -> None:
    """The node's recorded shape and dtype are what its op's rules give."""
    op = get(node.op)
    attrs = node.a
    try:
        shape = op.shape(*[i.shape for i in node.inputs], **attrs)
        dtype = op.dtype(*[i.dtype for i in node.inputs], **attrs)
    except Exception as e:  # the rule's own message says what is wrong
        raise VerificationError(f"{node.op}: {e}") from e
    if not same_shape(tuple(shape), node.shape):
        raise VerificationError(f"{node.op}: recorded shape {node.shape}, rule gives {shape}")
    if dtype is not node.dtype:
        raise VerificationError(f"{node.op}: recorded dtype {node.dtype.name}, rule gives "
                                f"{dtype.name}")
