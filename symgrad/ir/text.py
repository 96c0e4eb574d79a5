"""The IR as text, the way a jaxpr prints: typed binders, one equation per line, attributes
in brackets, names given by position at print time (same graph, same text).

Layer: ir. Input: a ``Graph``. Output: its text. ``{ lambda x:f32[2,2] . a:f32[2,2] = add x
2.0 ... in (a) }``; a 0-d constant prints inline as its value. A control-flow application
prints as one equation binding all its values (those the graph keeps; ``_`` for the others),
its bodies below it, indented, each with names of its own.
"""

from __future__ import annotations

import numpy as np

from ..dtypes import DType
from ..ops import get
from .control import group_key, is_control, n_outputs
from .graph import Graph, Node, type_str


def _letters(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def format_value(v: object) -> str:
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, tuple):
        return "(" + ",".join(format_value(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, np.ndarray):
        flat = v.reshape(-1)
        body = " ".join(format_value(x.item()) for x in flat[:6])
        return f"[{body}{' ...' if flat.size > 6 else ''}]"
    if isinstance(v, DType):
        return v.name
    return str(v)


def is_inline_const(node: Node) -> bool:
    return node.op == "const" and node.ndim == 0


def format_graph(graph: Graph, title: str = "lambda", indent: str = "") -> str:
    """jaxpr-like text: typed binders, one equation per line, names given by position."""
    names: dict[Node, str] = {}
    taken: set[str] = set()
    for i, node in enumerate(graph.inputs):
        base = str(node.attr("name") or f"in{i}")
        name = base if base.isidentifier() and base not in taken else f"in{i}"
        names[node] = name
        taken.add(name)
    counter = 0

    def fresh() -> str:
        nonlocal counter
        while True:
            candidate = _letters(counter)
            counter += 1
            if candidate not in taken:
                taken.add(candidate)
                return candidate

    def ref(node: Node) -> str:
        if is_inline_const(node):
            return format_value(node.attr("value"))
        return names[node]

    siblings: dict = {}
    for node in graph.nodes():
        if is_control(node):
            siblings.setdefault(group_key(node), {})[node.attr("index")] = node
    lines = []
    for node in graph.nodes():
        if node in names or is_inline_const(node):
            continue
        if is_control(node):
            lines.extend(_control_lines(node, siblings[group_key(node)], names, fresh, ref,
                                        indent))
            continue
        names[node] = fresh()
        attrs = " ".join(f"{k}={format_value(v)}" for k, v in node.attrs)
        args = " ".join(ref(i) for i in node.inputs)
        parts = [p for p in (node.op, f"[{attrs}]" if attrs else "", args) if p]
        lines.append(f"{indent}    {names[node]}:{type_str(node)} = {' '.join(parts)}")
    binders = " ".join(f"{names[n]}:{type_str(n)}" for n in graph.inputs)
    outs = ", ".join(ref(n) for n in graph.outputs)
    body = "\n".join(lines)
    return f"{{ {title} {binders} .\n{body + chr(10) if body else ''}{indent}  in ({outs}) }}"


def _control_lines(node: Node, group: dict, names: dict, fresh, ref, indent: str) -> list:
    """One equation binding every value of ``node``'s application, then its bodies."""
    graph_attrs = get(node.op).bodies
    binders = []
    for k in range(n_outputs(node)):     # every binder: the arity shows
        sib = group.get(k)
        if sib is None:
            binders.append("_")
            continue
        names[sib] = fresh()
        binders.append(f"{names[sib]}:{type_str(sib)}")
    attrs = " ".join(f"{k}={format_value(v)}" for k, v in node.attrs
                     if k != "index" and k not in graph_attrs)
    args = " ".join(ref(i) for i in node.inputs)
    head = " ".join(p for p in (node.op, f"[{attrs}]" if attrs else "", args) if p)
    lines = [f"{indent}    {' '.join(binders)} = {head}"]
    for name in graph_attrs:
        value = node.attr(name)
        graphs = value if isinstance(value, tuple) else (value,)
        for j, g in enumerate(graphs):
            label = f"{name}[{j}]" if isinstance(value, tuple) else name
            lines.append(f"{indent}      {label}=" +
                         format_graph(g, "lambda", indent + "      ").lstrip())
    return lines
