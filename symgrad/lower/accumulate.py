"""Accumulation chains: sums of small windows, added in place into one buffer.

Layer: lower. Input: a graph's nodes, their consumers, its outputs. Output: the ``add`` nodes
that lowering turns into in-place accumulation (the *steps*), the chain each belongs to, and
for the first step of a chain its *base* (the value the chain starts from).

Reverse mode makes these whenever a program reads parts of an array: the gradient of ``x`` is a
sum of one ``unslice`` per read, each zero but in its window (``x[k]`` read 13,699 times by a
7x7 determinant by minors makes a sum of 13,699 one-hot vectors). Computed as written, every
term costs a pass over the whole array. As a chain, the first step copies its base into the
chain's buffer (or its kernel writes there directly) and each step adds its window's values in
place: work and C proportional to the windows, not to the array.

A step is ``add(p, unslice(s, window))`` (either order) whose window holds at most half the
elements of the result, with ``p`` of the result's shape and dtype. The step reads ``p`` in
place when ``p`` is itself a step read by nothing else (not an output, not through a view):
then both are one chain, whose *root* is the last step. Values are those of the graph except
for the sign of a zero: an element the window does not cover keeps its value where the graph
adds +0.0 to it (-0.0 + 0.0 is +0.0); only a -0.0 of the base can tell.
"""

from __future__ import annotations

import math

from ..ir import Node
from ..dims import same_shape


class Chains:
    """The accumulation chains of a graph (see the module docstring)."""

    def __init__(self) -> None:
        self.contribution: dict[Node, Node] = {}   # step -> its unslice operand
        self.previous: dict[Node, Node] = {}       # step -> the operand it adds into
        self.root: dict[Node, Node] = {}           # step -> the last step of its chain

    def is_step(self, node: Node) -> bool:
        return node in self.contribution

    def is_first(self, node: Node) -> bool:
        """Whether ``node`` starts its chain (its other operand is not a step of it)."""
        return self.root.get(self.previous[node]) is not self.root[node]


def _split_operands(n: Node) -> tuple[Node, Node] | None:
    """(the other operand, the unslice operand) if ``n`` can be a step."""
    if n.op != "add" or not n.ndim:
        return None
    for c, p in ((n.inputs[1], n.inputs[0]), (n.inputs[0], n.inputs[1])):
        if c.op == "unslice" and same_shape(c.shape, n.shape) and same_shape(p.shape, n.shape) \
                and p.dtype is n.dtype and c.dtype is n.dtype \
                and 2 * math.prod(c.inputs[0].shape) <= n.size:
            return p, c
    return None


def plan_chains(nodes: list, users: dict, outputs: set) -> Chains:
    """The steps of ``nodes`` (in topological order) and their chains."""
    chains = Chains()
    for n in nodes:
        if n.op != "add":           # (asked here: no call for the other nodes)
            continue
        split = _split_operands(n)
        if split is not None:
            chains.previous[n], chains.contribution[n] = split
    # A step's chain continues through its previous operand when that is a step read by
    # nothing else: walk back from each chain's last step (reverse topological order).
    for n in reversed(nodes):
        if n not in chains.contribution or n in chains.root:
            continue
        chains.root[n] = cur = n
        prev = chains.previous[cur]
        while (prev in chains.contribution and prev not in outputs
               and set(users.get(prev, ())) == {cur} and chains.contribution[cur] is not prev):
            chains.root[prev] = n
            cur, prev = prev, chains.previous[prev]
    return chains
