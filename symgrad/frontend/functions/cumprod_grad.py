"""torch.cumprod of a real floating tensor with torch's first-order backward, which
looks at zeros: before the first zero of a line, ``reversed_cumsum(out * g) / x``; at the
first zero, the cotangents up to the second zero times the products that skip it; 0 after
it. torch decides with ``if``s and masks on the data; here they are ``where``s, so a compiled
gradient makes the same choice per call. Under ``create_graph`` (and in ``symgrad.grad``,
as in ``torch.func.grad``) the gradient is the primitive's own rule, exact and
differentiable again (torch's is an O(n^2) one with the same values away from infinities).

Layer: front end (torch-named functions). Input: a real floating tensor of one
dimension or more, and the (non-negative) axis. Output: the running products, with that
backward attached (``CumprodBackward0``).
"""

from __future__ import annotations

from ... import dtypes
from ..core import grad_mode
from ..core.apply import apply, full
from ..core.engine import run_backward
from ..core.tensor import Tensor
from .basic import composite, eq, logical_and, logical_not, where
from .shapes import cat


def cumprod_with_rule(x: Tensor, axis: int) -> Tensor:
    """The running products of ``x`` along ``axis`` with torch's backward (see the module)."""
    def body(a):
        return apply("cumprod", a, axis=axis, _torch_name="CumprodBackward0")

    def rule(g, out, ins):
        create = grad_mode.is_grad_enabled()
        if create or ins[0].shape[axis] <= 1:
            with grad_mode.enable_grad():
                again = body(ins[0])
            return run_backward([(again, g)], retain_graph=create, create_graph=create,
                                inputs=list(ins), input_hooks=False)
        return (first_order(g, out, ins[0], axis),)
    return composite("CumprodBackward0", body, [x], rule)


def _narrow(t: Tensor, axis: int, start: int, stop: int) -> Tensor:
    return t.narrow(axis, start, stop - start)


def first_order(g: Tensor, out: Tensor, x: Tensor, axis: int) -> Tensor:
    """torch's ``cumprod_backward`` without grad mode, in the derivative form."""
    zero = eq(x, 0.0)
    count = apply("cumsum", zero.to(dtypes.int64), axis=axis)
    before, upto_second = eq(count, 0), eq(count, 1)
    first = logical_and(zero, upto_second)
    w = out * g
    suffix = apply("cumsum", where(before, w, 0.0), axis=axis, reverse=True)
    skipping = apply("cumprod", where(logical_and(upto_second, logical_not(first)), x, 1.0),
                     axis=axis)
    n = x.shape[axis]
    ones = full(x, 1.0, tuple(1 if i == axis else s for i, s in enumerate(x.shape)))
    prefix = cat([ones, _narrow(out, axis, 0, n - 1)], axis)
    at_first = apply("sum", skipping * where(upto_second, g, 0.0), axes=(axis,)) * prefix
    return where(before, suffix / where(before, x, 1.0), where(first, at_first, 0.0))
