"""Work that loops and branches do twice, done once.

Layer: passes, a helper of ``control_flow`` (which calls it for each ``cond`` application
and for each graph's ``while`` applications, once their bodies are simplified). Input: an
application and what the graph around it computes. Output: the application reading that
work instead of doing it again.

Two cases, both made by how loops and branches are traced, and both compared by structure
(``ir.structure``: two traces of one loop hold different graph objects):

- A Python ``if`` in a loop body is a ``cond`` whose sides each trace the body's lines
  before the ``if`` again (``frontend.control.branching``): every side recomputes what the
  graph around the ``cond`` computed to decide it. ``into_branches``: a side's work that the
  graph around computes too, the same ops on the same values, becomes an operand of the
  ``cond``. GradBench's descents, ``if fxp < fx: return xp, fxp, ...``, ran ``f(xp)`` (a
  whole loop: the particle's flight, the saddle's inner descent) twice per accepted step.
- Forward mode through a ``while`` loop (``transforms.forward``) runs the loop once for its
  values and once more carrying tangents, whose first carries are those same values.
  ``merge_loops``: a ``while`` whose carries are the first carries of another one (the same
  initial values, invariant operands, condition and step) is read from that other.
"""

from __future__ import annotations

from ..ir import Graph, Node, toposort, with_inputs
from ..ir.closure import body_input, new_scope, substitute
from ..ir.control import group_key, is_control, replace_siblings, sibling
from ..ir.structure import Structure
from ..ir.walk import Application, applications
from ..ops import get
from ..ops.registry import MOVEMENT


class Around:
    """What the graph around a ``cond`` has computed so far (nodes rebuilt before it), for
    ``into_branches`` to look up."""

    def __init__(self, structure: Structure) -> None:
        self.structure = structure
        self.nodes: set = set()
        self.controls: dict = {}      # (op, inputs) -> control nodes

    def add(self, node: Node) -> None:
        self.nodes.add(node)
        if is_control(node):
            self.controls.setdefault((node.op, node.inputs), []).append(node)

    def find(self, image: Node) -> Node | None:
        """The node around that computes what ``image`` does, or None."""
        if image in self.nodes:
            return image
        if is_control(image):
            number = self.structure.attrs(image)
            for c in self.controls.get((image.op, image.inputs), ()):
                if self.structure.attrs(c) == number:
                    return c
        return None


def into_branches(branches: tuple, ins: list, around: Around) -> tuple[tuple, list]:
    """``cond(ins[0], *ins[1:])[branches]`` with the work of its sides that ``around``
    computes taken as new operands: (branches, operands). The sides' unread inputs are left
    for the caller to prune."""
    found: dict = {}             # node around -> its operand position
    maps = []
    for g in branches:
        images = dict(zip(g.inputs, ins[1:]))
        shared = {}
        for n in g.nodes():
            if n in images:
                continue
            image = with_inputs(n, tuple(images[i] for i in n.inputs))
            outer = around.find(image) if _work(n) else None
            images[n] = image if outer is None else outer
            if outer is not None:
                shared[n] = outer
                found.setdefault(outer, len(ins) + len(found))
        maps.append(shared)
    if not found:
        return branches, ins
    extra = sorted(found, key=found.get)
    new = []
    for g, shared in zip(branches, maps):
        scope = new_scope()
        added = [body_input(len(g.inputs) + k, f"s{k}", o.dtype, o.shape, scope)
                 for k, o in enumerate(extra)]
        mapping = {n: added[found[o] - len(ins)] for n, o in shared.items()}
        new.append(substitute(g, mapping, list(g.inputs) + added))
    return tuple(new), list(ins) + extra


def _work(n: Node) -> bool:
    """Whether ``n`` computes something (not an input, a constant or a view)."""
    return bool(n.inputs) and n.op != "const" and get(n.op).kind != MOVEMENT


def merge_loops(graph: Graph, structure: Structure) -> Graph:
    """``graph`` with each ``while`` whose carries another computes too read from that other
    (see the module docstring)."""
    apps = applications(graph, "while")
    for a in apps:
        for b in apps:
            if a is not b and _covers(b, a, structure):
                return merge_loops(_read_from(graph, a, b), structure)
    return graph


def _covers(b: Application, a: Application, structure: Structure) -> bool:
    """Whether ``b``'s first carries are ``a``'s, step for step (and ``b`` does not read
    ``a``: it is computed first)."""
    na, nb = a.attrs["carries"], b.attrs["carries"]
    if na > nb or a.inputs[:na] != b.inputs[:na]:
        return False
    consts = {}
    for k, x in enumerate(a.inputs[na:]):
        at = [j for j, y in enumerate(b.inputs[nb:]) if y is x]
        if not at:
            return False
        consts[na + k] = nb + at[0]
    if any(n.op == "while" and group_key(n) == a.key for n in toposort(b.inputs)):
        return False
    for name, count in (("cond", 1), ("body", na)):
        ga, gb = a.attrs[name], b.attrs[name]
        mapping = {ga.inputs[j]: gb.inputs[j] for j in range(na)}
        mapping.update({ga.inputs[i]: gb.inputs[j] for i, j in consts.items()})
        mine = substitute(ga, mapping, list(gb.inputs)).outputs[:count]
        both = Graph(gb.inputs, tuple(mine) + gb.outputs[:count])
        if [structure.of(o, both) for o in mine] != \
                [structure.of(o, both) for o in gb.outputs[:count]]:
            return False
    return True


def _read_from(graph: Graph, a: Application, b: Application) -> Graph:
    """``graph`` with ``a``'s values read from ``b``'s siblings of the same indices."""
    return replace_siblings(graph, lambda n: sibling(b.op, b.attrs, b.inputs, n.attr("index"))
                            if n.op == "while" and group_key(n) == a.key else None)
