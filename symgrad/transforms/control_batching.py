"""Batching rules of loops and branches: their bodies are batched graphs.

Layer: transforms. Input: one application of ``scan``, ``while`` or ``cond`` (its attributes,
its operands, which operands are batched, the batch size). Output: its values for the whole
batch, as ``[(tensor, batched)]``. The ops name them (``ops.control``: ``tensor_rules``).

A body is batched by tracing a new body that replays the old one on batched inputs
(``replay_batched``). A carry that the body makes batched must enter batched too, so the
flags of the carries are iterated to a fixpoint (at most one round per carry), as JAX does.

- ``scan``: the sequences are stepped along their axis 0, so a batched sequence is laid out
  ``(length, batch, ...)`` for the loop, and a batched stacked output comes back to
  ``(batch, length, ...)``.
- ``cond`` with an unbatched predicate stays a branch (of batched branches); with a batched
  one, each example takes its own branch: both are computed and selected with ``where``
  (JAX's rule: there is no per-example jump in a vector loop).
- ``while`` with an unbatched predicate stays a loop of batched bodies; with a batched one,
  the loop runs while any example's predicate holds, and an example whose predicate is false
  keeps its carry (``where``): per-example trip counts, masked.
- ``while_grad`` (the reverse of a ``while``): with batched seeds only, its backward steps
  are batched; with batched loop operands, it is the reverse of the masked loop.
"""

from __future__ import annotations

from ..dtypes import int64
from ..frontend.core.apply import apply
from ..frontend.core.builder import BUILDER
from ..frontend.control.bodies import Like, trace_body
from ..frontend.control.apply import apply_control
from ..frontend.control.vjp import reverse_step
from ..ir import Graph
from ..ops.batching import front
from .batching import replay_batched


def _forced(outs: list, force: list, size: int) -> list:
    """Outputs batched where ``force`` says (an unbatched one broadcast to the batch)."""
    return [(front(BUILDER, v, b, size) if f else v, b or f)
            for (v, b), f in zip(outs, force)]


def _closed(body):
    """The graph of a batched body, which replays a closed graph: it reads nothing from
    outside."""
    if body.captures:
        raise AssertionError("symgrad: a batched body read a value from outside (please "
                             "report this)")
    return body.graph()


def _swap_leading(x):
    """``x`` with its first two axes swapped (a scan steps along axis 0)."""
    return apply("permute", x, perm=(1, 0) + tuple(range(2, x.ndim)))


def _per_example(pred, a, b, size: int):
    """``a`` where the example's ``pred`` holds, else ``b`` (both batched)."""
    mask = apply("reshape", pred, shape_to=(size,) + (1,) * (a.ndim - 1))
    return apply("where", mask, a, b)


def batched_graph(graph, flags: list, size: int, force: list | None = None,
                  what: str = "body") -> tuple:
    """(the body ``graph`` on inputs batched as ``flags`` say, its outputs' flags); outputs
    listed in ``force`` come out batched in any case."""
    likes = [Like((size,) + tuple(n.shape) if f else n.shape, n.dtype)
             for n, f in zip(graph.inputs, flags)]
    found: list = []

    def call(_fn, inputs):
        outs = replay_batched(graph, inputs, flags, size)
        if force is not None:
            outs = _forced(outs, force, size)
        found[:] = [b for _, b in outs]
        return [v for v, _ in outs]
    body = trace_body(None, likes, [f"b{k}" for k in range(len(likes))], call,
                      f"the batched {what}")
    return _closed(body), found


def _carry_fixpoint(graph, flags: list, carries: int, size: int) -> list:
    """The carries' flags: batched where they enter batched or the body makes them so."""
    flags = list(flags)
    for _ in range(carries + 1):
        _, out = batched_graph(graph, flags, size)
        grown = [f or o for f, o in zip(flags[:carries], out[:carries])]
        if grown == flags[:carries]:
            return flags
        flags[:carries] = grown
    return flags


def _entering(values: list, given: list, flags: list, size: int) -> list:
    """The operands, each one the flags now call batched broadcast if it was not."""
    return [front(BUILDER, v, g, size) if f else v for v, g, f in zip(values, given, flags)]


def batched_scan(attrs: dict, values: list, flags: list, size: int) -> list:
    nc, nx, body = attrs["carries"], attrs["xs"], attrs["body"]
    given, flags = flags, _carry_fixpoint(body, flags, nc, size)
    values = _entering(values, given, flags, size)
    # The body steps along axis 0 of a sequence: a batched one goes (length, batch, ...).
    for k in range(nc, nc + nx):
        if flags[k]:
            values[k] = _swap_leading(values[k])
    force = flags[:nc] + [False] * (len(body.outputs) - nc)
    new, out_flags = batched_graph(body, flags, size, force, "scan body")
    outs = apply_control("scan", values, {**attrs, "body": new})
    # a stacked output (length, batch, ...) -> (batch, length, ...)
    return [(_swap_leading(v) if b and k >= nc else v, b)
            for k, (v, b) in enumerate(zip(outs, out_flags))]


def batched_cond(attrs: dict, values: list, flags: list, size: int) -> list:
    pred, operands, op_flags = values[0], values[1:], flags[1:]
    branches = attrs["branches"]
    if flags[0]:
        return _selected(pred, branches, operands, op_flags, size)
    outs = [batched_graph(g, op_flags, size)[1] for g in branches]
    force = [any(fs) for fs in zip(*outs)]
    new = tuple(batched_graph(g, op_flags, size, force, "cond branch")[0] for g in branches)
    results = apply_control("cond", [pred] + operands, {**attrs, "branches": new})
    return list(zip(results, force))


def _selected(pred, branches: tuple, operands: list, flags: list, size: int) -> list:
    """Both branches on the batch, each example's result picked by its predicate."""
    no, yes = (replay_batched(g, operands, flags, size) for g in branches)
    return [(_per_example(pred, front(BUILDER, a, fa, size), front(BUILDER, b, fb, size),
                          size), True) for (a, fa), (b, fb) in zip(yes, no)]


def batched_while(attrs: dict, values: list, flags: list, size: int) -> list:
    nc, cond, body = attrs["carries"], attrs["cond"], attrs["body"]
    given, flags = flags, _carry_fixpoint(body, flags, nc, size)
    _, pred_flag = batched_graph(cond, flags, size)
    if pred_flag[0]:
        flags[:nc] = [True] * nc      # examples stop at different steps: every carry differs
        return _masked_while(attrs, _entering(values, given, flags, size), flags, size)
    values = _entering(values, given, flags, size)
    new_cond, _ = batched_graph(cond, flags, size, what="while_loop cond_fun")
    new_body, _ = batched_graph(body, flags, size, flags[:nc], "while_loop body_fun")
    outs = apply_control("while", values, {**attrs, "cond": new_cond, "body": new_body})
    return [(v, f) for v, f in zip(outs, flags[:nc])]


def _masked_while(attrs: dict, values: list, flags: list, size: int) -> list:
    test, step = _masked_graphs(attrs, values, flags, size)
    outs = apply_control("while", values, {**attrs, "cond": test, "body": step})
    return [(v, True) for v in outs]


def _masked_graphs(attrs: dict, values: list, flags: list, size: int) -> tuple:
    """(cond, body) of the loop ``attrs`` on the batch, for examples that stop at different
    steps: it runs while any example's predicate holds, and a step leaves the carry of an
    example whose predicate is false as it is."""
    nc, cond, body = attrs["carries"], attrs["cond"], attrs["body"]
    likes = [Like(v.shape, v.dtype) for v in values]
    names = [f"b{k}" for k in range(len(likes))]

    def any_running(_fn, inputs):
        (pred, _), = replay_batched(cond, inputs, flags, size)
        return _any(pred)

    def masked_step(_fn, inputs):
        (pred, _), = replay_batched(cond, inputs, flags, size)
        stepped = _forced(replay_batched(body, inputs, flags, size)[:nc], [True] * nc, size)
        return [_per_example(pred, new, old, size)
                for (new, _), old in zip(stepped, inputs[:nc])]
    test = trace_body(None, likes, names, any_running, "the batched while_loop cond_fun")
    step = trace_body(None, likes, names, masked_step, "the batched while_loop body_fun")
    return _closed(test), _closed(step)


def _any(pred):
    """Whether any of a batch of bools is true, as a bool scalar (as ``torch.any``)."""
    count = apply("sum", apply("cast", pred, dtype=int64), axes=(0,))
    return apply("gt", apply("reshape", count, shape_to=()), 0)


def batched_while_grad(attrs: dict, values: list, flags: list, size: int) -> list:
    """The reverse of a while loop on a batch. When its seeds (cotangents) alone are batched,
    the loop is the same for every example and the backward steps run on the batch (as a
    Jacobian by reverse mode asks). When its operands differ per example, it is the reverse
    of the masked loop (``_masked_graphs``: every operand batched, each example stopping at
    its own step, its carry then passing through the remaining steps unchanged, with an
    identity cotangent), a ``while_grad`` of its own."""
    n = len(attrs["cond"].inputs)
    if any(flags[:n]):
        return _masked_while_grad(attrs, values, flags, size)
    step = attrs["step"]
    nr = len(values) - n
    step_flags = [True] * nr + [False] * (len(step.inputs) - nr)
    new, _ = batched_graph(step, step_flags, size, [True] * len(step.outputs),
                           "while_loop backward")
    seeds = [front(BUILDER, v, f, size) for v, f in zip(values[n:], flags[n:])]
    outs = apply_control("while_grad", values[:n] + seeds, {**attrs, "step": new})
    return [(v, True) for v in outs]


def _masked_while_grad(attrs: dict, values: list, flags: list, size: int) -> list:
    nc, cond, keeping = attrs["carries"], attrs["cond"], attrs["body"]
    n = len(cond.inputs)
    every = [front(BUILDER, v, f, size) for v, f in zip(values, flags)]
    body = Graph(keeping.inputs, keeping.outputs[:nc], keeping.locs)   # (not its residuals)
    test, step = _masked_graphs({**attrs, "body": body}, every[:n], [True] * n, size)
    fc = [k for kind, k in attrs["seeds"] if kind == "carry"]
    kk = [j for kind, j in attrs["seeds"] if kind == "const"]
    new = {"cond": test, **reverse_step(step, nc, n - nc, fc, kk), "carries": nc}
    outs = apply_control("while_grad", every, new)
    return [(v, True) for v in outs]
