"""A graph as Graphviz DOT text: what ``Inspection.to_dot`` draws.

Layer: ir. Input: a ``Graph``, optionally the loops a fusion plan makes of its nodes (lists
of nodes) and a title. Output: DOT text, deterministic (the same graph gives the same bytes:
nodes are numbered in the graph's topological order). Each node is labelled with its op,
shape and dtype (and a constant's value when it is one number); its tooltip is the user's
``file:line`` and source line; the inputs are ellipses, the outputs drawn with a double
border; the nodes a backward rule made (their source location's note says "backward of")
are filled orange, the forward ones blue; each fused loop is a cluster. It must not render
anything (``Inspection.render`` calls Graphviz).
"""

from __future__ import annotations

from .graph import Graph, Node

FORWARD, ADJOINT, SOURCE = "#dbe9f6", "#fbd9b5", "#eeeeee"


def _quote(text: str, literal: bool = False) -> str:
    """``text`` as a DOT string; ``literal``: its backslashes are characters (a source
    line), not DOT escapes (a label's line break ``\\n``)."""
    if literal:
        text = text.replace("\\", "\\\\")
    return '"' + text.replace('"', '\\"').replace("\n", "\\n") + '"'


def _label(node: Node) -> str:
    shape = "[" + ",".join(map(str, node.shape)) + "]"
    if node.op == "input":
        return f"{node.attr('name')}\\n{node.dtype.name}{shape}"
    if node.op == "const" and node.ndim == 0:
        return f"{node.attr('value')!r}\\n{node.dtype.name}"
    return f"{node.op}\\n{node.dtype.name}{shape}"


def is_adjoint(graph: Graph, node: Node) -> bool:
    """Whether a backward rule made ``node`` (its source location says so)."""
    loc = graph.locs.get(node)
    return loc is not None and "backward of" in loc.note


def _node_line(graph: Graph, node: Node, name: str, outputs: set) -> str:
    attrs = {"label": _label(node)}
    if node.op in ("input", "const"):
        attrs.update(shape="ellipse", style="filled", fillcolor=SOURCE)
    else:
        attrs.update(shape="box", style="rounded,filled",
                     fillcolor=ADJOINT if is_adjoint(graph, node) else FORWARD)
    loc = graph.locs.get(node)
    if loc is not None:
        text = loc.text.strip()
        attrs["tooltip"] = f"{loc}: {text}" if text else str(loc)
    if node in outputs:
        attrs["peripheries"] = "2"
    return f"  {name} [" + ", ".join(f"{k}={_quote(str(v), k == 'tooltip')}"
                                     for k, v in attrs.items()) + "];"


def to_dot(graph: Graph, loops: list = (), title: str = "") -> str:
    """DOT text for ``graph`` (see the module docstring); ``loops``: lists of the nodes
    each fused loop computes, drawn as clusters."""
    nodes = graph.nodes()
    names = {n: f"n{k}" for k, n in enumerate(nodes)}
    outputs = set(graph.outputs)
    in_loop = {n: k for k, members in enumerate(loops) for n in members if n in names}
    lines = ["digraph symgrad {", f"  label={_quote(title)};", "  labelloc=t;",
             "  rankdir=TB;", '  node [fontname="Helvetica", fontsize=10];',
             '  edge [color="#555555", arrowsize=0.6];']
    for n in nodes:
        if n not in in_loop:
            lines.append(_node_line(graph, n, names[n], outputs))
    for k in range(len(loops)):
        inside = [n for n in nodes if in_loop.get(n) == k]
        if not inside:
            continue
        lines.append(f"  subgraph cluster_loop{k} {{")
        lines.append(f"    label={_quote(f'loop {k}')}; style=dashed; color=\"#888888\";")
        lines += ["  " + _node_line(graph, n, names[n], outputs) for n in inside]
        lines.append("  }")
    for n in nodes:
        for i in n.inputs:
            lines.append(f"  {names[i]} -> {names[n]};")
    lines.append("}")
    return "\n".join(lines) + "\n"
