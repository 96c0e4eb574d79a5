"""Reverse mode through loops and branches: the backward rules of ``scan`` and ``cond``.

Layer: front end, above ``control_apply``. Input: an application's operands, its values and
their cotangents. Output: the operands' cotangents, built as another application of the same
control-flow ops (so the backward is graph, differentiable again: second derivatives through
``scan`` and ``cond`` come from these same rules).

- ``scan``: a reverse scan (``ReversePlan``). A scan whose operands need gradients stores, per
  step, the carry that enters it and the residuals its VJP reads (``storing``: the body also
  returns them, as extra stacked values); the reverse scan runs the steps backwards, and its
  body, the forward body's VJP (traced by ``replay`` and the tape engine on the forward
  body's own input nodes), reads the stored values from the stack: the cotangents of the
  carries are its carry, those of the loop-invariant operands accumulate in its carry too,
  those of the sequences are its stacked outputs.
- ``cond``: a ``cond`` on the same predicate whose branches are the branches' VJPs.
- ``while``: a ``while_grad`` application (``ops.control``): the trip count is known only when
  the loop runs, so the loop and its reverse are one primitive, which keeps the carries of
  the steps and the residuals of their VJP in a tape of its own (the C grows it as the loop
  runs; lowering lets a ``while`` before it fill that tape, so that the loop runs once) and
  runs the body's VJP over them backwards. Its VJP with respect to the seed, which it is
  linear in, is a ``while`` loop carrying tangents (forward mode through a while loop); with
  respect to the loop's operands (second derivatives), the reverse of that tangent loop,
  another ``while_grad`` (``while_grad_vjp``): derivatives of any order.
"""

from __future__ import annotations

from ...ir import Graph, consumers, toposort
from ...ir.closure import body_input, new_scope, substitute
from ..core import grad_mode, sources
from ..core.apply import full
from ..core.engine import push_forward, root_cotangents, run_backward
from .loops import switch_cond, traced_while
from .bodies import Like, trace_body
from .apply import apply_control, replay
from ..core.tensor import Tensor


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

_VIEWS = ("reshape", "expand", "permute", "slice")


class ReversePlan:
    """The reverse of a scan: which carries, sequences and invariant operands get cotangents,
    and the reverse body ``graph``, traced once on the forward body's own input nodes.

    The reverse body replays the forward body on a step's carry and inputs and runs the tape
    engine (``_vjp_of``): inputs (carry cotangents, sums of the invariant operands'
    cotangents, the carry, the step's inputs, the stacked values' cotangents, the invariant
    operands); outputs (carry cotangents, sums, the step inputs' cotangents). Because it is
    traced on the forward body's input nodes, its forward part *is* the forward body's
    nodes (interning): ``residuals`` are those the VJP reads, which a differentiable forward
    scan stores per step (``storing``), and ``run`` reads every stored value from the stack
    instead of recomputing it. The sums of the invariant operands' cotangents are carried
    step after step in one order, so a checkpointed scan, which runs the same steps segment
    by segment, gives the same bits."""

    def __init__(self, body: Graph, nc: int, nx: int, operands: list, need, ct_ys: list):
        self.body, self.nc, self.nx = body, nc, nx
        self.consts = operands[nc + nx:]
        floats = [t.dtype.is_floating for t in operands]
        self.fc = [k for k in range(nc) if floats[k]]              # differentiable carries
        self.kx = [k for k in range(nx) if floats[nc + k] and need[nc + k]]
        self.kk = [k for k in range(len(self.consts))
                   if floats[nc + nx + k] and need[nc + nx + k]]
        self.fy = [j for j, o in enumerate(body.outputs[nc:])
                   if o.dtype.is_floating and ct_ys[j] is not None]
        self.graph = self._trace(operands)

    def _trace(self, operands: list) -> Graph:
        """The reverse body, on inputs (carry cotangents, sums, carry, step inputs, stacked
        values' cotangents, invariant operands); the forward ones are the body's own."""
        body, nc, nx, fc, kk, fy = self.body, self.nc, self.nx, self.fc, self.kk, self.fy
        ins = body.inputs
        seeds = [Like.of(ins[k]) for k in fc] + [Like.of(ins[nc + nx + j]) for j in kk]
        cts = [Like.of(body.outputs[nc + j]) for j in fy]
        like = seeds + [Like.of(i) for i in ins[:nc + nx]] + cts + \
            [Like.of(i) for i in ins[nc + nx:]]
        given = [None] * len(seeds) + list(ins[:nc + nx]) + [None] * len(cts) + \
            list(ins[nc + nx:])
        names = [f"r{k}" for k in range(len(fc))] + [f"a{k}" for k in range(len(kk))] + \
            [f"c{k}" for k in range(nc)] + [f"x{k}" for k in range(nx)] + \
            [f"g{k}" for k in range(len(fy))] + [f"k{k}" for k in range(len(ins) - nc - nx)]
        traced = trace_body(None, like, names, lambda fn, ts: self._step(ts),
                            "scan backward", given)
        if traced.captures:
            raise AssertionError("scan backward: the reverse body read values from outside")
        return traced.graph()

    def _step(self, ins: list) -> list:
        body, nc, nx, fc, kx, kk = self.body, self.nc, self.nx, self.fc, self.kx, self.kk
        n = len(fc) + len(kk)
        ct_c, acc = ins[:len(fc)], ins[len(fc):n]
        c, x = ins[n:n + nc], ins[n + nc:n + nc + nx]
        ct_y, k = ins[n + nc + nx:n + nc + nx + len(self.fy)], ins[n + nc + nx + len(self.fy):]
        wanted = [j in fc for j in range(nc)] + [j in kx for j in range(nx)] + \
            [j in kk for j in range(len(k))]
        cts = [None] * len(body.outputs)
        for j, g in zip(fc, ct_c):
            cts[j] = g
        for j, g in zip(self.fy, ct_y):
            cts[nc + j] = g
        d = _vjp_of(body, list(c) + list(x) + list(k), wanted, cts)
        d_c, d_x, d_k = d[:len(fc)], d[len(fc):len(fc) + len(kx)], d[len(fc) + len(kx):]
        return list(d_c) + [s + g for s, g in zip(acc, d_k)] + list(d_x)

    def residuals(self) -> list:
        """The forward body's values the reverse body reads (a view by its source)."""
        return _residuals(self.body, self.graph)

    def seeds(self, init: list, ct_final: list) -> tuple:
        """The reverse scan's first carry: the final carries' cotangents, zero sums."""
        return ([full(init[k], 0.0) if ct_final[k] is None else ct_final[k] for k in self.fc],
                [full(self.consts[k], 0.0) for k in self.kk])

    def run(self, carry: tuple, stored: dict, xs: list, ct_ys: list, length: int,
            reverse: bool) -> tuple:
        """``((d_carries, d_consts), d_xs)`` of ``length`` steps; ``stored``: forward body
        node -> its stacked values (the carries entering the steps among them)."""
        g, nc, nx = self.graph, self.nc, self.nx
        n = len(self.fc) + len(self.kk)
        c_in, x_in = g.inputs[n:n + nc], g.inputs[n + nc:n + nc + nx]
        ct_in, k_in = g.inputs[n + nc + nx:n + nc + nx + len(self.fy)], \
            g.inputs[n + nc + nx + len(self.fy):]
        used = set(toposort(g.outputs))
        scope = new_scope()
        mapping, seq_in, seq = {}, [], []
        for node, values in stored.items():
            if node in used and node not in k_in and node not in mapping:
                mapping[node] = body_input(len(seq_in), f"s{len(seq_in)}", node.dtype,
                                           node.shape, scope)
                seq_in.append(mapping[node])
                seq.append(values)
        if any(c in used and c not in mapping for c in c_in):
            raise AssertionError("scan backward: the forward scan did not store its carries")
        for node, values in zip(x_in, xs):
            if node not in mapping:
                seq_in.append(node)
                seq.append(values)
        reverse_body = substitute(g, mapping, list(g.inputs[:n]) + seq_in + list(ct_in) +
                                  list(k_in))
        operands = list(carry[0]) + list(carry[1]) + seq + \
            [ct_ys[j] for j in self.fy] + list(self.consts)
        outs = apply_control("scan", operands, {
            "body": reverse_body, "length": length, "reverse": not reverse, "carries": n,
            "xs": len(seq_in) + len(self.fy)})
        return (outs[:len(self.fc)], outs[len(self.fc):n]), outs[n:n + len(self.kx)]

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


def stored_values(body: Graph, nc: int, outputs: list) -> dict:
    """forward body node -> the stacked values a scan's application stored of it."""
    found: dict = {}
    for j, o in enumerate(body.outputs[nc:]):
        found.setdefault(o, outputs[nc + j])
    return found


def storing(body: Graph, nc: int, nx: int, operands: list) -> Graph:
    """A differentiable scan's body, also returning per step what its backward reads: the
    carry that enters the step, and the residuals of its VJP (``ReversePlan.residuals``)."""
    need = [t._requires_grad for t in operands]
    have = set(body.outputs[nc:])
    extra = [i for i in body.inputs[:nc] if i not in have]
    try:
        plan = ReversePlan(body, nc, nx, operands, need, [0.0] * (len(body.outputs) - nc))
    except NotImplementedError:
        # Its VJP cannot be traced now (a while loop's reverse, when this scan is itself a
        # backward that create_graph keeps differentiable): the carries alone are stored,
        # and the backward, if it is ever asked for, recomputes the rest or says why not.
        plan = None
    if plan is not None:
        extra += [r for r in plan.residuals() if r not in have and r not in extra]
    return Graph(body.inputs, body.outputs + tuple(extra), body.locs)


def scan_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
    a = ctx.attrs
    body, nc, nx = a["body"], a["carries"], a["xs"]
    plan = ReversePlan(body, nc, nx, operands, ctx.needs_input_grad, grads[nc:])
    (d_init, d_consts), d_xs = plan.run(plan.seeds(operands[:nc], grads[:nc]),
                                        stored_values(body, nc, outputs),
                                        operands[nc:nc + nx], grads[nc:], a["length"],
                                        a["reverse"])
    return plan.result(len(operands), ctx.needs_input_grad, d_init, d_consts, d_xs)



# ------------------------------------------------------------------ cond

def cond_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
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


def while_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
    return reverse_while(ctx.attrs, operands, ctx.needs_input_grad, grads)


def reverse_while(a: dict, operands: list, need, grads: list) -> list:
    """The operands' cotangents of the ``while`` application of attributes ``a`` (its cond,
    body, carries) for the cotangents ``grads`` of its final carries: one ``while_grad``
    application (``need``: which operands want one)."""
    cond, body, nc = a["cond"], a["body"], a["carries"]
    init, consts = operands[:nc], operands[nc:]
    fc = [k for k in range(nc) if init[k].dtype.is_floating]
    kk = [j for j, t in enumerate(consts) if t.dtype.is_floating and need[nc + j]]
    seed = [full(init[k], 0.0) if grads[k] is None else grads[k] for k in fc] + \
        [full(consts[j], 0.0) for j in kk]
    attrs = {"cond": cond, **reverse_step(body, nc, len(consts), fc, kk), "carries": nc}
    r = apply_control("while_grad", list(init) + list(consts) + seed, attrs)
    result = [None] * len(operands)
    for k, g in zip(fc, r):
        result[k] = g if need[k] else None
    for j, g in zip(kk, r[len(fc):]):
        result[nc + j] = g
    return result


def reverse_step(body: Graph, nc: int, n_consts: int, fc: list, kk: list) -> dict:
    """The attributes ``while_grad`` adds to a loop's: ``step``, the VJP of one step of
    ``body`` for the float carries ``fc`` and the invariant operands ``kk`` (their sums);
    ``body`` also returning the residuals ``step`` reads; ``seeds``."""
    nr = len(fc) + len(kk)
    wanted = [k in fc for k in range(nc)] + [j in kk for j in range(n_consts)]

    def vjp_step(fn, ins):
        r, c, k = ins[:nr], ins[nr:nr + nc], ins[nr + nc:]
        cts = [None] * nc
        for j, g in zip(fc, r):
            cts[j] = g
        d = _vjp_of(body, list(c) + list(k), wanted, cts)
        return d[:len(fc)] + [s + g for s, g in zip(r[len(fc):], d[len(fc):])]
    seeds = [Like.of(body.inputs[k]) for k in fc] + [Like.of(body.inputs[nc + j]) for j in kk]
    traced = trace_body(None, seeds + [Like.of(i) for i in body.inputs],
                        [f"r{j}" for j in range(nr)] + [f"c{j}" for j in range(nc)] +
                        [f"k{j}" for j in range(n_consts)], vjp_step,
                        "while_loop backward", [None] * nr + list(body.inputs))
    if traced.captures:
        raise AssertionError("while_loop backward: the step read values from outside")
    step = traced.graph()
    extras = _residuals(body, step)
    scope = new_scope()
    kept = [body_input(k, f"e{k}", e.dtype, e.shape, scope) for k, e in enumerate(extras)]
    step = substitute(step, dict(zip(extras, kept)), list(step.inputs[:nr + nc]) + kept +
                      list(step.inputs[nr + nc:]))
    return {"body": Graph(body.inputs, body.outputs + tuple(extras), body.locs), "step": step,
            "seeds": tuple(("carry", k) for k in fc) + tuple(("const", j) for j in kk)}


def _residuals(body: Graph, vjp: Graph) -> list:
    """The values of ``body`` (a forward body) that ``vjp`` (traced on its input nodes)
    reads: computed once in the forward loop and kept, rather than computed again (a view
    is kept by its source, ``_source``)."""
    forward = set(body.nodes())
    nodes = vjp.nodes()
    users = consumers(nodes)
    found: list = []
    for n in nodes:
        if n not in forward or n.op in ("input", "const"):
            continue
        if any(m not in forward for m in users.get(n, ())) or n in vjp.outputs:
            n = _source(n)
            if n.op not in ("input", "const") and n not in found:
                found.append(n)
    return found


def _source(n):
    """What residual ``n`` is kept by: the value it views (through reshapes, slices...,
    paddings, and concatenations of it with constants: the reverse body reads them from the
    kept value as views, nothing stored twice), short of a body input or constant. An RK4
    step's stages read ``cat([1, s[:-1]])``: kept as ``s``, which the forward loop writes
    anyway, rather than as a copy shifted by one (GradBench's ode gradient wrote three such
    copies per step)."""
    while True:
        if n.op in _VIEWS or n.op == "unslice":
            source = n.inputs[0]
        elif n.op == "cat":
            varying = [i for i in n.inputs if not _constant(i)]
            if len(varying) != 1:
                return n
            source = varying[0]
        else:
            return n
        if source.op in ("input", "const"):
            return n
        n = source


def _constant(n) -> bool:
    """A constant, or views of one."""
    while n.op in _VIEWS:
        n = n.inputs[0]
    return n.op == "const"


def while_grad_vjp(ctx, operands: list, outputs: list, grads: list) -> list:
    """The VJP of ``while_grad``. It is linear in its seed ``s``: with ``w`` the cotangent of
    its result, ``<w, J^T s> = <J w, s>``, where ``J w`` is forward mode through the loop
    along ``w`` (``T``: the loop run forwards carrying tangents, ``_tangent_loop``). So the
    seed's cotangent is ``T``, and the loop operands' cotangents (second derivatives) are
    those of ``<T, s>``: the reverse of ``T``'s own ``while`` application seeded with ``s``,
    a ``while_grad`` again, whose VJP is this rule: derivatives of any order."""
    a = ctx.attrs
    nc, n = a["carries"], len(a["cond"].inputs)
    init, consts, seed = operands[:nc], operands[nc:n], operands[n:]
    w = [g if g is not None else full(o, 0.0) for g, o in zip(grads, outputs)]
    carry_seeds = [k for kind, k in a["seeds"] if kind == "carry"]
    const_seeds = [j for kind, j in a["seeds"] if kind == "const"]
    u = dict(zip(const_seeds, w[len(carry_seeds):]))
    t0 = dict(zip(carry_seeds, w[:len(carry_seeds)]))
    loop = _tangent_loop(a["cond"], a["body"], nc, init, consts, t0, u)
    tangent = dict(zip(carry_seeds, loop.values[nc:]))
    need = ctx.needs_input_grad
    result = [None] * n
    if any(need[i] and t.dtype.is_floating for i, t in enumerate(operands[:n])):
        result = _second_order(loop, operands[:n], need, nc,
                               dict(zip(carry_seeds, seed[:len(carry_seeds)])))
    result += [tangent[k] for k in carry_seeds] + [w[len(carry_seeds) + i]
                                                    for i in range(len(const_seeds))]
    return result


class _TangentLoop:
    """A ``while`` application carrying ``(carries, tangents of the float carries)``: its
    attributes, operands and values."""

    def __init__(self, attrs: dict, operands: list, values: list):
        self.attrs, self.operands, self.values = attrs, operands, values


def _second_order(loop: _TangentLoop, operands: list, need, nc: int, seeds: dict) -> list:
    """The cotangents of a ``while_grad``'s loop operands (carries, then invariant ones):
    those of ``<T, s>``, the tangent loop ``loop`` seeded with ``s`` (``seeds``: float carry
    index -> its seed) on its tangents, through ``reverse_while``."""
    ops, floats = loop.operands, sorted(seeds)
    position = {}
    for p, t in enumerate(ops[nc + len(floats):], nc + len(floats)):
        position.setdefault(id(t), p)        # an invariant operand captured by the loop
    wants = [False] * len(ops)
    for i, t in enumerate(operands):
        p = i if i < nc else position.get(id(t))
        if p is not None and need[i] and t.dtype.is_floating:
            wants[p] = True
    d = reverse_while(loop.attrs, ops, wants, [None] * nc + [seeds[k] for k in floats])
    result = []
    for i, t in enumerate(operands):
        p = i if i < nc else position.get(id(t))
        # (an invariant tensor given twice gets its cotangent once: autograd adds them up)
        first = i < nc or next(q for q in range(nc, len(operands)) if operands[q] is t) == i
        result.append(d[p] if p is not None and first and wants[p] else None)
    return result


def _tangent_loop(cond: Graph, body: Graph, nc: int, init: list, consts: list, t0: dict,
                  u: dict) -> _TangentLoop:
    """The loop ``cond``/``body`` run from ``init``, carrying the float carries' tangents:
    starting from ``t0`` (carry index -> tangent), the invariant operands' tangents ``u``."""
    floats = [k for k in range(nc) if init[k].dtype.is_floating]

    def step(state):
        carry, tangents = state
        args = list(carry) + list(consts)
        new = replay(body, args)[:nc]
        wanted = [k in floats for k in range(nc)] + [j in u for j in range(len(consts))]
        ins = [tangents[floats.index(k)] if k in floats else None for k in range(nc)] + \
            [u.get(j) for j in range(len(consts))]
        return tuple(new), tuple(_jvp_of(body, args, wanted, ins, floats))
    start = (tuple(init), tuple(t0[k] if k in t0 else full(init[k], 0.0) for k in floats))
    attrs, operands, _ = traced_while(lambda s: replay(cond, list(s[0]) + list(consts))[0],
                                      step, start)
    return _TangentLoop(attrs, operands, apply_control("while", operands, attrs))


def _jvp_of(graph: Graph, args: list, wanted: list, tangents: list, floats: list) -> list:
    """The tangents of the float carries ``graph`` computes, along ``tangents`` of its
    inputs (``push_forward``)."""
    leaves = _local_leaves(args, wanted)
    with grad_mode.enable_grad():
        replayed = replay(graph, leaves)
    outs = [replayed[k] for k in floats]
    ts = push_forward(outs, [t for t, w in zip(leaves, wanted) if w],
                      [t for t, w in zip(tangents, wanted) if w])
    return [t if t is not None else full(o, 0.0) for t, o in zip(ts, outs)]

