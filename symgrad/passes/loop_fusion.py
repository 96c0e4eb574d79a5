"""Scans over the same steps, fused into one: a scan that reads another's stacked values step
by step runs in the same loop as it.

Layer: passes, a helper of ``control_flow`` (called on each graph once its loops' bodies are
simplified). Input: a graph. Output: the graph with each such pair of ``scan`` applications
one application.

Where the pairs come from: forward mode through a scan (``transforms.forward``: the VJP of
the VJP) traces the loop once for its values, stacking what its step's derivative needs, a
carry-less scan (a map) of those values, and a scan carrying the tangents that reads them at
each step. Three loops and the stacked arrays between them, where one loop carrying values
and tangents is enough (an RK4 ODE of 500 steps: ``jacfwd`` 66 us, three scans; the primal
alone 24 us).

When: the consumer ``c`` reads some of the producer ``p``'s stacked values as its sequences,
both have the same length and walk the steps the same way (or ``c`` carries nothing: a map,
whose step ``t`` reads and writes only step ``t``), and nothing else ``c`` reads depends on
``p`` (its final carries are known only after the loop). The fused body runs ``p``'s step,
then ``c``'s on the values ``p``'s step just made; the values of both are the fused loop's.
A stacked value only ``c`` read is then read by no one: the next round of ``control_flow``
drops it, and with it the array.
"""

from __future__ import annotations

from ..ir import Graph, Node
from ..ir.closure import body_input, new_scope, substitute
from ..ir.control import group_key, replace_siblings, sibling
from ..ir.walk import Application, applications


def fuse_scans(graph: Graph) -> Graph:
    """``graph`` with every fusable pair of scans fused (see the module docstring)."""
    apps = applications(graph, "scan")
    for c in apps:
        for p in apps:
            if p is not c and _fusable(graph, p, c):
                return fuse_scans(_fused(graph, p, c))
    return graph


def _from(x: Node, p: Application) -> bool:
    return x.op == "scan" and group_key(x) == p.key


def _fusable(graph: Graph, p: Application, c: Application) -> bool:
    pa, ca = p.attrs, c.attrs
    if pa["length"] != ca["length"] or (pa["reverse"] != ca["reverse"] and ca["carries"]):
        return False
    nc, nx = ca["carries"], ca["xs"]
    xs = c.inputs[nc:nc + nx]
    step_by_step = [_stacked(x, p) for x in xs]
    if not any(step_by_step):
        return False
    # (by position: p's stacked array read whole, as an invariant operand, is p's result)
    others = c.inputs[:nc] + tuple(x for x, s in zip(xs, step_by_step) if not s) + \
        c.inputs[nc + nx:]
    return not _depends_on(graph, p, others)


def _stacked(x: Node, p: Application) -> bool:
    """Whether ``x`` is one of ``p``'s stacked values."""
    return _from(x, p) and x.attr("index") >= p.attrs["carries"]


def _depends_on(graph: Graph, p: Application, nodes: list) -> bool:
    """Whether any of ``nodes`` depends on a value of ``p``."""
    tainted: set = set()
    for n in graph.nodes():
        if _from(n, p) or any(i in tainted for i in n.inputs):
            tainted.add(n)
    return any(x in tainted for x in nodes)


def _fused(graph: Graph, p: Application, c: Application) -> Graph:
    pa, ca = p.attrs, c.attrs
    ncp, nxp, ncc, nxc = pa["carries"], pa["xs"], ca["carries"], ca["xs"]
    bp, bc = pa["body"], ca["body"]
    nyp = len(bp.outputs) - ncp
    # c's step on fresh inputs (two bodies of one trace may share input nodes), those of the
    # sequences from p replaced by p's step's values
    scope = new_scope()
    fresh = [body_input(k, f"f{k}", i.dtype, i.shape, scope) for k, i in enumerate(bc.inputs)]
    mapping = dict(zip(bc.inputs, fresh))
    other = []                        # c's other sequences
    for j in range(nxc):
        x = c.inputs[ncc + j]
        if _stacked(x, p):
            mapping[bc.inputs[ncc + j]] = bp.outputs[x.attr("index")]
        else:
            other.append(j)
    step = substitute(bc, mapping, fresh)
    inputs = (bp.inputs[:ncp] + tuple(fresh[:ncc]) + bp.inputs[ncp:ncp + nxp] +
              tuple(fresh[ncc + j] for j in other) + bp.inputs[ncp + nxp:] +
              tuple(fresh[ncc + nxc:]))
    outputs = bp.outputs[:ncp] + step.outputs[:ncc] + bp.outputs[ncp:] + step.outputs[ncc:]
    body = Graph(inputs, outputs, {**step.locs, **bp.locs})
    operands = (p.inputs[:ncp] + c.inputs[:ncc] + p.inputs[ncp:ncp + nxp] +
                tuple(c.inputs[ncc + j] for j in other) + p.inputs[ncp + nxp:] +
                c.inputs[ncc + nxc:])
    attrs = {**pa, "body": body, "carries": ncp + ncc, "xs": nxp + len(other)}
    index = {(p.key, k): k for k in range(ncp)}
    index.update({(c.key, k): ncp + k for k in range(ncc)})
    index.update({(p.key, ncp + j): ncp + ncc + j for j in range(nyp)})
    index.update({(c.key, ncc + j): ncp + ncc + nyp + j for j in range(len(bc.outputs) - ncc)})
    return _replaced(graph, index, attrs, operands)


def _replaced(graph: Graph, index: dict, attrs: dict, operands: tuple) -> Graph:
    """``graph`` with each sibling of the two scans read from the fused scan's sibling
    ``index[(its application's key, its index)]``."""
    def read(n: Node) -> Node | None:
        k = index.get((group_key(n), n.attr("index"))) if n.op == "scan" else None
        return None if k is None else sibling("scan", attrs, operands, k)
    return replace_siblings(graph, read)
