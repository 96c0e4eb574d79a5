"""Trading recomputation for memory: ``scan(..., checkpoint=k)`` and ``symgrad.checkpoint``.

Layer: front end, above ``control_vjp``. Input: a traced scan that needs a backward (its body,
operands and length), or a function and its arguments. Output: the same values, with a
backward that stores less.

- ``scan(f, init, xs, checkpoint=k)``: the forward runs as ``length / k`` segments of ``k``
  steps (a scan of scans) and stores only the carry entering each segment. The backward runs
  the segments in reverse; each recomputes its ``k`` carries from its checkpoint (an inner
  forward scan that stores them), then runs the same reverse steps as an unsegmented scan's
  backward (``control_vjp.ReversePlan``), with the sums of the invariant operands' cotangents
  carried from segment to segment: the gradients are bit for bit those without
  checkpointing. Memory: ``length / k + k`` carries instead of ``length``; time: one more
  forward pass. A length that ``k`` does not divide runs its first steps unsegmented. The
  checkpoints are computed with their history (the forward's segment scan is recorded), so a
  backward that is differentiated again (second derivatives) is correct too.
- ``symgrad.checkpoint(fn)(*args)`` (torch's ``utils.checkpoint``): ``fn``'s internals are not
  kept for the backward; they are recomputed from the arguments when it runs. Gradients flow
  to the tensor arguments; ``fn`` must not read other tensors that require grad (it raises).
  Traced (inside ``@compile``), it calls ``fn``: recomputed nodes would be the forward's own
  (interning), and what a loop stores is ``scan(..., checkpoint=k)``'s business. A backward
  that is differentiated again recomputes from the arguments themselves (second
  derivatives are right).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..core import grad_mode, sources
from ..core.apply import apply
from .loops import scan
from .apply import apply_control
from .vjp import ReversePlan, stored_values, storing
from ..core.custom_function import Function
from ..core.tensor import Tensor
from ..random.generator import get_rng_state, set_rng_state


def _segments(t: Tensor, k: int) -> Tensor:
    return apply("reshape", t, shape_to=(t.shape[0] // k, k) + tuple(t.shape[1:]))


def _joined(t: Tensor) -> Tensor:
    return apply("reshape", t, shape_to=(t.shape[0] * t.shape[1],) + tuple(t.shape[2:]))


class CheckpointedScan(Function):
    """A scan that stores one carry per segment of ``every`` steps; the ``length % every``
    steps that come first in its order run unsegmented (storing what their backward reads)."""

    _graph_rules = True   # (it recomputes what it computes: its nodes' rules are right)

    @staticmethod
    def forward(ctx, *operands, body, length, reverse, carries, xs, every):
        nc, nx, k = carries, xs, every
        rest = length % k
        ctx.spec = (body, length, reverse, nc, nx, k)
        init, seqs, consts = operands[:nc], operands[nc:nc + nx], operands[nc + nx:]
        head, tail = _split(seqs, length, rest, reverse)
        carry, head_ys, head_stacked = list(init), [], []
        n_y = len(body.outputs) - nc
        ctx.keeping = storing(body, nc, nx, list(operands))
        if rest:
            keeping = {"body": ctx.keeping, "length": rest, "reverse": reverse,
                       "carries": nc, "xs": nx}
            with grad_mode.enable_grad():
                outs = apply_control("scan", carry + head + list(consts), keeping)
            carry, head_ys, head_stacked = outs[:nc], outs[nc:nc + n_y], outs[nc:]
        attrs = {"body": body, "length": k, "reverse": reverse, "carries": nc, "xs": nx}

        def segment(c, seg):
            outs = apply_control("scan", list(c) + list(seg) + list(consts), attrs)
            return outs[:nc], (outs[nc:], list(c))
        with grad_mode.enable_grad():   # the checkpoints keep their history: a backward
            finals, (ys, stored) = scan(  # that is differentiated again follows it
                segment, carry, [_segments(x, k) for x in tail], length=(length - rest) // k,
                reverse=reverse)
        ctx.save_for_backward(*operands, *stored, *head_stacked)
        ctx.n_operands, ctx.n_stored = len(operands), len(stored)
        ys = [_joined(y) for y in ys]
        if rest:
            ys = [_in_order(t, h, reverse) for t, h in zip(ys, head_ys)]
        return tuple(finals) + tuple(ys)

    @staticmethod
    def backward(ctx, *grads):
        body, length, reverse, nc, nx, k = ctx.spec
        rest = length % k
        saved = ctx.saved_tensors
        n, m = ctx.n_operands, ctx.n_stored
        operands, stored, head_stacked = list(saved[:n]), list(saved[n:n + m]), \
            list(saved[n + m:])
        seqs, consts = operands[nc:nc + nx], operands[nc + nx:]
        plan = ReversePlan(body, nc, nx, operands, ctx.needs_input_grad, list(grads[nc:]))
        keeping = {"body": ctx.keeping, "length": k, "reverse": reverse, "carries": nc,
                   "xs": nx}
        n_y = len(body.outputs) - nc
        head, tail = _split(seqs, length, rest, reverse)
        ct_head, ct_tail = _split([grads[nc + j] for j in plan.fy], length, rest, reverse)

        def segment(carry, seg):
            start, x, ct_y = seg
            outs = apply_control("scan", list(start) + list(x) + list(consts), keeping)
            return plan.run(carry, stored_values(ctx.keeping, nc, outs), list(x),
                            _padded(ct_y, plan, n_y), k, reverse)
        carry, d_tail = scan(segment, plan.seeds(operands[:nc], list(grads[:nc])),
                             (stored, [_segments(x, k) for x in tail],
                              [_segments(g, k) for g in ct_tail]),
                             length=(length - rest) // k, reverse=not reverse)
        d_xs = [_joined(d) for d in d_tail]
        if rest:          # the first steps, last in the backward: the sums carry on
            at_head = stored_values(ctx.keeping, nc, [None] * nc + head_stacked)
            carry, d_head = plan.run(carry, at_head, head, _padded(ct_head, plan, n_y),
                                     rest, reverse)
            d_xs = [_in_order(t, h, reverse) for t, h in zip(d_xs, d_head)]
        d_init, d_consts = carry
        return tuple(plan.result(len(operands), ctx.needs_input_grad, d_init, d_consts, d_xs))


def _split(seqs: list, length: int, rest: int, reverse: bool) -> tuple:
    """(the first ``rest`` steps in the scan's order, the others) of each sequence."""
    if not rest:
        return [], list(seqs)
    if reverse:
        return [x[length - rest:] for x in seqs], [x[:length - rest] for x in seqs]
    return [x[:rest] for x in seqs], [x[rest:] for x in seqs]


def _in_order(tail: Tensor, head: Tensor, reverse: bool) -> Tensor:
    """Stacked values of the two parts, by step index."""
    return apply("cat", *((tail, head) if reverse else (head, tail)), axis=0)


def _padded(ct_y: list, plan: ReversePlan, n_y: int) -> list:
    """The ys' cotangents in the positions ``plan.run`` reads (``plan.fy``)."""
    full_list = [None] * n_y
    for j, g in zip(plan.fy, ct_y):
        full_list[j] = g
    return full_list


def checkpointed_scan(body, operands: list, length: int, reverse: bool, nc: int, nx: int,
                      every: int) -> list:
    """The values of a differentiable traced scan stored every ``every`` steps."""
    return list(CheckpointedScan.apply(*operands, body=body, length=length, reverse=reverse,
                                       carries=nc, xs=nx, every=every))



# ------------------------------------------------------------------ checkpoint(fn)

class _Recomputed(Function):
    _graph_rules = True   # (it recomputes what it computes: its nodes' rules are right)
    @staticmethod
    def forward(ctx, *args, fn, kwargs, shape):
        ctx.fn, ctx.kwargs = fn, kwargs
        ctx.rng = get_rng_state()   # the recomputation draws the same random numbers
        with grad_mode.enable_grad():
            out = fn(*[a.detach() if isinstance(a, Tensor) else a for a in args], **kwargs)
        outs = out if isinstance(out, tuple) else (out,)
        if any(isinstance(o, Tensor) and o._requires_grad for o in outs):
            raise ValueError("checkpoint: the function reads tensors that require grad "
                             "other than its arguments (through a closure or a global); "
                             "pass them as arguments, so that their gradients reach them")
        shape["single"] = not isinstance(out, tuple)
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        return tuple(o.detach() if isinstance(o, Tensor) else o for o in outs)

    @staticmethod
    def backward(ctx, *grads):
        from ..core.engine import root_cotangents, run_backward
        saved = iter(ctx.saved_tensors)
        args = [next(saved) if is_t else None for is_t in ctx._arg_is_tensor]
        if grad_mode.is_grad_enabled():
            # A backward to differentiate again: recompute from the arguments themselves,
            # so that the gradients depend on them.
            leaves = args
        else:
            leaves = [a.detach().requires_grad_(a.dtype.is_floating and need)
                      if isinstance(a, Tensor) else a
                      for a, need in zip(args, ctx.needs_input_grad)]
        out = _recompute(ctx, leaves)
        outs = out if isinstance(out, tuple) else (out,)
        roots = [(o, g) for o, g in zip(outs, grads)
                 if g is not None and isinstance(o, Tensor) and o._requires_grad]
        wanted = [isinstance(t, Tensor) and t._requires_grad and need
                  for t, need in zip(leaves, ctx.needs_input_grad)]
        targets = [t for t, w in zip(leaves, wanted) if w]
        found = run_backward(root_cotangents([o for o, _ in roots], [g for _, g in roots]),
                             retain_graph=False, create_graph=grad_mode.is_grad_enabled(),
                             inputs=targets, input_hooks=False) if roots else []
        it = iter(found)
        return tuple(next(it, None) if w else None for w in wanted)


def _recompute(ctx, leaves: list):
    """``ctx.fn`` run again from the random state its forward began with (dropout draws the
    same mask: the gradient is the forward's), the random state after it left as it was."""
    now = get_rng_state()
    set_rng_state(ctx.rng)
    try:
        with grad_mode.enable_grad():
            return ctx.fn(*leaves, **ctx.kwargs)
    finally:
        set_rng_state(now)


def checkpoint(fn: Callable, *args: Any, use_reentrant: bool | None = None, **kwargs: Any):
    """``fn(*args)`` whose internals are recomputed in the backward pass instead of kept
    (torch.utils.checkpoint.checkpoint). Called with ``fn`` alone it returns the wrapped
    function: ``symgrad.checkpoint(fn)(*args)``."""
    if not args and not kwargs:
        return lambda *a, **kw: checkpoint(fn, *a, **kw)
    if sources.current() is not None or not (grad_mode.is_grad_enabled() and any(
            isinstance(a, Tensor) and a._requires_grad for a in args)):
        # Traced: the graph is the same either way (a recomputation would be the same
        # interned nodes); what a loop stores is scan(..., checkpoint=k)'s business.
        return fn(*args, **kwargs)
    shape: dict = {}
    out = _Recomputed.apply(*args, fn=fn, kwargs=kwargs, shape=shape)
    return out[0] if shape["single"] else out
