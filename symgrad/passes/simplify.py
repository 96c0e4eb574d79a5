"""Algebraic identities that are exact in IEEE arithmetic, as a table of named local rules.

Graph -> Graph, by a bounded fixpoint of ``rewrite.fixpoint``. Each rule maps a node to an
equivalent node (or None when it does not apply). Only identities that give bit-identical
results belong here; value-changing ones (reassociation, log(exp(x)) -> x) do not.
"""

from __future__ import annotations

from ..ir import Graph, Node
from .rewrite import fixpoint


def _const(node: Node, value: float) -> bool:
    if node.op != "const" or node.ndim:
        return False
    v = node.attr("value")
    return v == value and not (value == 0 and str(v).startswith("-"))


def _same(node: Node, x: Node) -> Node | None:
    """``x`` may replace ``node`` only if it has the very same type."""
    return x if x.shape == node.shape and x.dtype is node.dtype else None


def mul_by_one(n):
    if n.op == "mul":
        a, b = n.inputs
        if _const(b, 1):
            return _same(n, a)
        if _const(a, 1):
            return _same(n, b)


def div_by_one(n):
    if n.op == "div" and _const(n.inputs[1], 1):
        return _same(n, n.inputs[0])


def sub_zero(n):
    if n.op == "sub" and _const(n.inputs[1], 0):
        return _same(n, n.inputs[0])


def mul_by_minus_one(n):
    if n.op == "mul":
        a, b = n.inputs
        for x, c in ((a, b), (b, a)):
            if _const(c, -1) and x.shape == n.shape and x.dtype is n.dtype:
                return Node("neg", (), (x,), n.dtype, n.shape)


def double_negation(n):
    if n.op == "neg" and n.inputs[0].op == "neg":
        return n.inputs[0].inputs[0]


def pow_small_integer(n):
    if n.op == "pow":
        x, e = n.inputs
        if _const(e, 1):
            return _same(n, x)
        if _const(e, 2) and x.shape == n.shape:
            return Node("mul", (), (x, x), n.dtype, n.shape)


def identity_movement(n):
    if n.op in ("reshape", "expand", "cast") and n.inputs[0].shape == n.shape \
            and n.inputs[0].dtype is n.dtype:
        return n.inputs[0]
    if n.op == "permute" and n.attr("perm") == tuple(range(n.ndim)):
        return n.inputs[0]


def reshape_chain(n):
    if n.op == "reshape" and n.inputs[0].op == "reshape":
        return Node("reshape", n.attrs, n.inputs[0].inputs, n.dtype, n.shape)


def permute_chain(n):
    if n.op == "permute" and n.inputs[0].op == "permute":
        inner, outer = n.inputs[0].attr("perm"), n.attr("perm")
        perm = tuple(inner[p] for p in outer)
        return Node("permute", (("perm", perm),), n.inputs[0].inputs, n.dtype, n.shape)


def where_same_branches(n):
    if n.op == "where" and n.inputs[1] is n.inputs[2]:
        return _same(n, n.inputs[1])


RULES = (mul_by_one, div_by_one, sub_zero, mul_by_minus_one, double_negation, pow_small_integer,
         identity_movement, reshape_chain, permute_chain, where_same_branches)


def _apply_rules(node: Node) -> Node:
    for rule in RULES:
        out = rule(node)
        if out is not None:
            return out
    return node


def simplify(graph: Graph) -> Graph:
    """Apply the table of exact algebraic identities to a fixpoint."""
    return fixpoint(graph, _apply_rules)
