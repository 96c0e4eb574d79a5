"""Reverse mode through loops and branches: the backward rules of ``scan`` and ``cond``.

Layer: front end, above ``control_apply``. Input: an application's operands, its values and
their cotangents. Output: the operands' cotangents, built as another application of the same
control-flow ops (so the backward is graph, differentiable again: second derivatives through
``scan`` and ``cond`` come from these same rules).

- ``scan``: a reverse scan. A scan whose operands need gradients stores the carry that enters
  each step (``saving_carries``: the body also returns its carry inputs, as extra stacked
  values); the reverse scan runs the steps backwards, and each step replays the body on that
  step's carry and inputs and differentiates it (``replay``, then the tape engine): the
  cotangents of the carries are its carry, those of the loop-invariant operands accumulate in
  its carry too, those of the sequences are its stacked outputs. What a step's VJP needs
  beyond the carry is recomputed within the step (one forward body per step), which keeps the
  stored tape to one carry per step.
- ``cond``: a ``cond`` on the same predicate whose branches are the branches' VJPs.
- ``while``: a ``while_grad`` application (``ops.control``): the trip count is known only when
  the loop runs, so the loop and its reverse are one primitive, which keeps the carries of
  the steps in a tape of its own (the C grows it as the loop runs) and runs the body's VJP
  (built here, as for ``scan``) over them backwards. It recomputes the forward loop; it has
  no VJP itself (second derivatives through it raise).
"""

from __future__ import annotations

from ..ir import Graph
from . import grad_mode, sources
from .apply import full
from .autograd import root_cotangents, run_backward
from .control import scan, switch_cond
from .bodies import trace_body
from .control_apply import VJPS, apply_control, replay
from .tensor import Tensor


def _local_leaves(tensors: list, wanted: list) -> list:
    """The tensors, those ``wanted`` as new leaves that require grad (in the body being
    traced: a tensor from outside is first captured)."""
    scope = sources.current().body
    out = []
    for t, want in zip(tensors, wanted):
        if want:
            t = Tensor(None, scope.capture(t).node if not scope.owns(t) else t.node)
            t._trace = scope.rec
            t._requires_grad = True
        out.append(t)
    return out


def _vjp_of(graph: Graph, args: list, wanted: list, cts: list) -> list:
    """The cotangents of ``graph``'s inputs that are ``wanted`` (in order), for output
    cotangents ``cts`` (None: zero), by replaying ``graph`` on ``args`` and running the tape
    engine; zeros for inputs no output depends on."""
    leaves = _local_leaves(args, wanted)
    with grad_mode.enable_grad():
        outs = replay(graph, leaves)
    roots = [(o, g) for o, g in zip(outs, cts)
             if g is not None and o._requires_grad and o.dtype.is_floating]
    targets = [t for t, w in zip(leaves, wanted) if w]
    grads = [None] * len(targets)
    if roots:
        grads = run_backward(root_cotangents([o for o, _ in roots], [g for _, g in roots]),
                             retain_graph=False, create_graph=False, inputs=targets,
                             through_inputs=True)
    return [full(t, 0.0) if g is None else g for g, t in zip(grads, targets)]


# ------------------------------------------------------------------ scan

class ReversePlan:
    """The reverse steps of a scan body: which carries, sequences and invariant operands get
    cotangents, and the step of the reverse scan (``run``). A step replays the body on the
    carry that entered it and differentiates it; the invariant operands' cotangents add up
    in the reverse scan's carry, step after step, in one order (so that a checkpointed scan,
    which runs the same steps segment by segment, gives the same bits)."""

    def __init__(self, body: Graph, nc: int, nx: int, operands: list, need: tuple,
                 ct_ys: list):
        self.body, self.nc, self.nx = body, nc, nx
        self.consts = operands[nc + nx:]
        floats = [t.dtype.is_floating for t in operands]
        self.fc = [k for k in range(nc) if floats[k]]              # differentiable carries
        self.kx = [k for k in range(nx) if floats[nc + k] and need[nc + k]]
        self.kk = [k for k in range(len(self.consts))
                   if floats[nc + nx + k] and need[nc + nx + k]]
        self.fy = [j for j, o in enumerate(body.outputs[nc:])
                   if o.dtype.is_floating and ct_ys[j] is not None]

    def step(self, carry, seq):
        body, nc, nx, fc, kx, kk = self.body, self.nc, self.nx, self.fc, self.kx, self.kk
        ct_c, acc = carry
        c, x, ct_y = seq
        args = list(c) + list(x) + list(self.consts)
        wanted = [k in fc for k in range(nc)] + [k in kx for k in range(nx)] + \
            [k in kk for k in range(len(self.consts))]
        cts = [None] * len(body.outputs)
        for k, g in zip(fc, ct_c):
            cts[k] = g
        for j, g in zip(self.fy, ct_y):
            cts[nc + j] = g
        d = _vjp_of(body, args, wanted, cts)
        d_c, d_x, d_k = d[:len(fc)], d[len(fc):len(fc) + len(kx)], d[len(fc) + len(kx):]
        return (d_c, [s + g for s, g in zip(acc, d_k)]), d_x

    def seeds(self, init: list, ct_final: list) -> tuple:
        """The reverse scan's first carry: the final carries' cotangents, zero sums."""
        return ([full(init[k], 0.0) if ct_final[k] is None else ct_final[k] for k in self.fc],
                [full(self.consts[k], 0.0) for k in self.kk])

    def run(self, carry: tuple, stacked: list, xs: list, ct_ys: list, length: int,
            reverse: bool) -> tuple:
        """``((d_carries, d_consts), d_xs)`` over ``length`` steps stored in ``stacked``."""
        seq = (stacked, xs, [ct_ys[j] for j in self.fy])
        return scan(self.step, carry, seq, length=length, reverse=not reverse)

    def result(self, n_operands: int, need: tuple, d_init, d_consts, d_xs) -> list:
        nc, nx = self.nc, self.nx
        result = [None] * n_operands
        for k, g in zip(self.fc, d_init):
            result[k] = g if need[k] else None
        for k, g in zip(self.kx, d_xs):
            result[nc + k] = g
        for k, g in zip(self.kk, d_consts):
            result[nc + nx + k] = g
        return result


def _scan_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
    a = ctx.attrs
    body, nc, nx = a["body"], a["carries"], a["xs"]
    plan = ReversePlan(body, nc, nx, operands, ctx.needs_input_grad, grads[nc:])
    (d_init, d_consts), d_xs = plan.run(plan.seeds(operands[:nc], grads[:nc]),
                                        _stored_carries(body, nc, outputs),
                                        operands[nc:nc + nx], grads[nc:], a["length"],
                                        a["reverse"])
    return plan.result(len(operands), ctx.needs_input_grad, d_init, d_consts, d_xs)


def _stored_carries(body: Graph, nc: int, outputs: list) -> list:
    """The stacked carries the forward scan stored (see ``saving_carries``)."""
    ys = body.outputs[nc:]
    found = []
    for k in range(nc):
        j = next((j for j, o in enumerate(ys) if o is body.inputs[k]), None)
        if j is None:
            raise AssertionError("scan backward: the forward scan did not store its carries")
        found.append(outputs[nc + j])
    return found


# ------------------------------------------------------------------ cond

def _cond_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
    pred, ops = operands[0], operands[1:]
    branches = ctx.attrs["branches"]
    need = ctx.needs_input_grad[1:]
    wanted = [t.dtype.is_floating and n for t, n in zip(ops, need)]
    fo = [j for j, o in enumerate(outputs) if o.dtype.is_floating and grads[j] is not None]
    cts_in = [grads[j] for j in fo]

    def branch(graph):
        def vjp(*args):
            cts = [None] * len(graph.outputs)
            for j, g in zip(fo, args[len(ops):]):
                cts[j] = g
            return tuple(_vjp_of(graph, list(args[:len(ops)]), wanted, cts))
        return vjp
    d = switch_cond(pred, branch(branches[1]), branch(branches[0]), tuple(ops) + tuple(cts_in))
    it = iter(d)
    return [None] + [next(it) if w else None for w in wanted]


def _while_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
    a = ctx.attrs
    cond, body, nc = a["cond"], a["body"], a["carries"]
    init, consts = operands[:nc], operands[nc:]
    need = ctx.needs_input_grad
    fc = [k for k in range(nc) if init[k].dtype.is_floating]
    kk = [j for j, t in enumerate(consts) if t.dtype.is_floating and need[nc + j]]
    seed = [full(init[k], 0.0) if grads[k] is None else grads[k] for k in fc] + \
        [full(consts[j], 0.0) for j in kk]
    nr = len(seed)
    wanted = [k in fc for k in range(nc)] + [j in kk for j in range(len(consts))]

    def vjp_step(fn, ins):
        r, c, k = ins[:nr], ins[nr:nr + nc], ins[nr + nc:]
        cts = [None] * nc
        for j, g in zip(fc, r):
            cts[j] = g
        d = _vjp_of(body, list(c) + list(k), wanted, cts)
        return d[:len(fc)] + [s + g for s, g in zip(r[len(fc):], d[len(fc):])]
    step = trace_body(None, seed + init + consts,
                      [f"r{j}" for j in range(nr)] + [f"c{j}" for j in range(nc)] +
                      [f"k{j}" for j in range(len(consts))], vjp_step, "while_loop backward")
    if step.captures:
        raise AssertionError("while_loop backward: the step read values from outside")
    attrs = {"cond": cond, "body": body, "step": step.graph(), "carries": nc}
    r = apply_control("while_grad", list(init) + list(consts) + seed, attrs)
    result = [None] * len(operands)
    for k, g in zip(fc, r):
        result[k] = g if need[k] else None
    for j, g in zip(kk, r[len(fc):]):
        result[nc + j] = g
    return result


def _while_grad_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
    raise NotImplementedError(
        "second derivatives through symgrad.while_loop (or fori_loop with a traced trip "
        "count) are not supported yet; fori_loop with Python int bounds and scan have them")


VJPS.update(scan=_scan_vjp, cond=_cond_vjp, while_grad=_while_grad_vjp,
            **{"while": _while_vjp})
