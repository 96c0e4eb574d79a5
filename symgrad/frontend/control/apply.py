"""Applying a control-flow primitive to traced tensors, and replaying a graph on tensors.

Layer: front end, above ``custom_function`` and ``bodies``. Input: an op of ``ops.control``,
its operands (tensors) and attributes (the closed bodies among them). Output: one traced tensor
per value of the application (the sibling nodes of ``ops.control``), carrying one backward
node, ``ScanBackward``/``WhileBackward``/``CondBackward``, built on ``autograd.Function``: its
backward calls the op's ``vjp`` rule (``ops.registry.rule``: ``control_vjp``), which builds the
reverse computation as another application of these ops, so that it is differentiable again.

``replay(graph, tensors)`` applies a graph's ops to tensors, recording the autograd tape as the
user's own code would have: how a rule differentiates a body.
"""

from __future__ import annotations

from ...ir import Node
from ...ir.walk import walk
from ...ops import get
from ...ops.registry import rule
from ..core import grad_mode, sources
from ..core.apply import apply
from ..core.custom_function import Function
from ..core.tensor import Tensor



def _nodes(op: str, operands: list, attrs: dict) -> list:
    """The sibling nodes of one application, in value order."""
    opdef = get(op)
    shapes = [t.shape for t in operands]
    dtypes = [t.dtype for t in operands]
    ins = [t.node for t in operands]
    nodes = []
    for k in range(opdef.n_outputs(**attrs)):
        full = dict(sorted({**attrs, "index": k}.items()))
        node = Node(op, full, ins, opdef.dtype(*dtypes, **full), opdef.shape(*shapes, **full))
        sources.record(node)
        nodes.append(node)
    return nodes


class _Control(Function):
    """One application of a control-flow op (subclassed per op, for torch-like names)."""

    _graph_rules = True   # (its nodes' rule is this Function's backward)

    @staticmethod
    def forward(ctx, *operands, op, attrs):
        ctx.op, ctx.attrs = op, attrs
        ctx.set_materialize_grads(False)     # the rules skip values with no cotangent
        nodes = _nodes(op, list(operands), attrs)
        rec = sources.current()
        ctx.loc = rec.locs.get(nodes[0]) if rec is not None and nodes else None
        outputs = tuple(Tensor(None, n) for n in nodes)
        ctx.save_for_backward(*operands, *outputs)
        ctx.n_operands = len(operands)
        return outputs

    @staticmethod
    def backward(ctx, *grads):
        saved = ctx.saved_tensors
        n = ctx.n_operands
        vjp = rule(ctx.op, "vjp")
        return tuple(vjp(ctx, list(saved[:n]), list(saved[n:]), list(grads)))


class Scan(_Control):
    pass


class While(_Control):
    pass


class WhileGrad(_Control):
    pass


class Cond(_Control):
    pass


_FUNCTIONS = {"scan": Scan, "while": While, "while_grad": WhileGrad, "cond": Cond}


def apply_control(op: str, operands: list, attrs: dict) -> list:
    """The values of one application of control-flow ``op`` (traced tensors)."""
    rec = sources.current()
    if rec is not None and rec.body is not None:
        operands = rec.body.lift(list(operands))   # a loop inside a loop body
    if op == "scan" and differentiable(operands):
        attrs = _storing(attrs, operands)
    outs = _FUNCTIONS[op].apply(*operands, op=op, attrs=attrs)
    if rec is not None and rec.body is not None:
        for t in outs:
            rec.body.inside.add(t._node)
    return list(outs)


def replay(graph, args: list) -> list:
    """Apply ``graph``'s ops to the tensors ``args`` (one per graph input), recording the
    autograd tape as the ops' own application would; returns the output tensors."""
    env = replay_from(graph, dict(zip(graph.inputs, args)))
    return [env[o] for o in graph.outputs]


def replay_from(graph, known: dict) -> dict:
    """``replay`` from the tensors ``known`` (node -> tensor: the inputs, and any node whose
    value is given rather than computed from its operands); returns every node's tensor."""
    locs = graph.locs

    def one(node, operands):
        with sources.attributed_to(locs.get(node), None):   # the body's own lines
            return apply(node.op, *operands, **node.a)

    def application(app, operands):
        with sources.attributed_to(locs.get(app.first), None):
            return apply_control(app.op, operands, app.attrs)
    return walk(graph.nodes(), dict(known), one, application, lambda node: Tensor(None, node))


def differentiable(operands: list) -> bool:
    """Whether an application of these operands records a backward."""
    return grad_mode.is_grad_enabled() and any(
        t._requires_grad and t.dtype.is_floating for t in operands)


def _storing(attrs: dict, operands: list) -> dict:
    """A differentiable scan's attributes, its body also returning what its backward reads
    per step (``control_vjp.storing``: the carries, the VJP's residuals), unless it does."""
    body, nc = attrs["body"], attrs["carries"]
    ys = set(body.outputs[nc:])
    if all(i in ys for i in body.inputs[:nc]):
        return attrs
    return {**attrs, "body": rule("scan", "residuals")(body, nc, attrs["xs"], operands)}
