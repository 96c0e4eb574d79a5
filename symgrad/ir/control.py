"""The graph-level facts of control-flow nodes (``ops.control``): siblings and bodies.

Layer: ir. Input: nodes. Output: whether a node is one value of a control-flow application,
the key its siblings share (``group_key``), the closed graphs it holds (``bodies``), and
``with_bodies`` (the node with its graphs replaced, for passes that rewrite inside bodies). An
application of ``scan``, ``while`` or ``cond`` is one node per value it produces, siblings that
differ only in their ``index`` attribute (see ``ops.control``).
"""

from __future__ import annotations

from ..ops import get
from .graph import Graph, Node, with_inputs


_CONTROL: dict[str, bool] = {}   # op name -> whether it holds graphs (ops are never replaced)


def is_control(node: Node) -> bool:
    """Whether ``node`` is one value of a control-flow application (its op holds graphs)."""
    op = node.op
    found = _CONTROL.get(op)
    if found is None:
        found = _CONTROL[op] = op not in ("input", "const") and bool(get(op).bodies)
    return found


def control_ops(nodes) -> set:
    """The names of the control-flow ops among ``nodes`` (most graphs have none: a walk asks
    this once rather than ``is_control`` once per node)."""
    return {op for op in {n.op for n in nodes} if op not in ("input", "const") and
            get(op).bodies}


def group_key(node: Node) -> tuple:
    """What the siblings of one application share: the op, the inputs and every attribute
    but ``index`` (the attribute tuples are interned keys' own, so this is cheap)."""
    return (node.op, tuple(kv for kv in node.attrs if kv[0] != "index"), node.inputs)


def sibling(op: str, attrs: dict, operands: tuple, index: int) -> Node:
    """Value ``index`` of the application of ``op`` with ``attrs`` (``index`` aside) to
    ``operands``: the node every rewrite of an application makes for each value it keeps."""
    full = dict(sorted({**attrs, "index": index}.items()))
    opdef = get(op)
    return Node(op, full, operands, opdef.dtype(*[i.dtype for i in operands], **full),
                opdef.shape(*[i.shape for i in operands], **full))


def replace_siblings(graph: Graph, replacement) -> Graph:
    """``graph`` with each node for which ``replacement(node)`` gives a node (a sibling of
    another application) read from that node instead; the rest rebuilt on what they read
    (bodies untouched: a replaced application's siblings are values of this graph)."""
    memo: dict = {}
    locs: dict = {}
    for n in graph.nodes():
        made = replacement(n) if is_control(n) else None
        if made is None:
            ins = tuple(memo.get(i, i) for i in n.inputs)
            made = n if ins == n.inputs else with_inputs(n, ins)
        memo[n] = made
        if n in graph.locs:
            locs.setdefault(made, graph.locs[n])
    return Graph(graph.inputs, tuple(memo.get(o, o) for o in graph.outputs), locs,
                 graph.n_guards)


def n_outputs(node: Node) -> int:
    return get(node.op).n_outputs(**node.a)


def bodies(node: Node) -> list[Graph]:
    """The closed graphs ``node`` holds, in attribute order (``cond``'s branches in order)."""
    found = []
    for name in get(node.op).bodies:
        value = node.attr(name)
        found.extend(value if isinstance(value, tuple) else (value,))
    return found


def with_bodies(node: Node, fn) -> Node:
    """``node`` with each of its graphs ``g`` replaced by ``fn(g)`` (``fn`` must return the
    same object for the same graph, so that the siblings of an application stay siblings)."""
    names = get(node.op).bodies
    attrs = []
    changed = False
    for k, v in node.attrs:
        if k in names:
            new = tuple(fn(g) for g in v) if isinstance(v, tuple) else fn(v)
            changed |= new != v if isinstance(v, tuple) else new is not v
            v = new
        attrs.append((k, v))
    if not changed:
        return node
    return Node(node.op, tuple(attrs), node.inputs, node.dtype, node.shape)
