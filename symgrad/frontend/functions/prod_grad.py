"""torch.prod of a floating or complex tensor with torch's backward, which looks at zeros:
without a zero in the input, ``g * out / x``; with one, the product of the others as the
product of two exclusive cumulative products (torch's ``prod_safe_zeros_backward``, along
``dim``, or along the flattened input for the product of all elements); for the product of
all elements with two zeros or more, zeros (a first-order backward only: under
``create_graph`` torch takes the exclusive products). torch decides with an ``if`` on the data;
so does a compiled gradient, per call: traced, the choice is a ``cond`` (the C runs one side:
the common side without zeros is one pass, ``g * out / x``), and eagerly a ``where`` over both
candidates (a captured eager step reads no value in its backward).

The exclusive products are a forward and a reverse ``cumprod`` (one C loop along ``dim`` each).

Layer: front end (torch-named functions). Input: a floating or complex tensor, ``dim``,
``keepdim`` and the grad_fn's name. Output: the product, with that backward attached.
"""

from __future__ import annotations

from ...ops.registry import normalize_axes
from ..core import grad_mode, sources
from ..core.apply import apply, attach_function, full
from ..core.shown import apply_reduction
from ..core.tensor import Tensor
from .shapes import cat, reshape, unsqueeze


def prod_with_rule(x: Tensor, dim, keepdim: bool, torch_name: str) -> Tensor:
    """``apply_reduction("prod", ...)`` with torch's backward (see the module)."""
    def body(a):
        return apply_reduction("prod", a, normalize_axes(dim, a.ndim), keepdim, torch_name)

    def rule(g, out, ins):
        return (prod_grad(g, out, ins[0], dim, keepdim),)
    with grad_mode.no_grad():   # (basic's composite, which imports this module)
        out = body(x)
    return attach_function(out, torch_name, rule, [x], True, True, True, None)


def exclusive_products(x: Tensor, d: int) -> Tensor:
    """For each element, the product of the others along ``d``, as torch forms it: the
    running product of the elements before it times that of the elements after it."""
    n = x.shape[d]
    ones = full(x, 1.0, tuple(1 if i == d else s for i, s in enumerate(x.shape)))
    before = apply("cumprod", cat([ones, x.narrow(d, 0, n - 1)], d), axis=d)
    after = apply("cumprod", cat([x.narrow(d, 1, n - 1), ones], d), axis=d, reverse=True)
    return before * after


def prod_grad(g: Tensor, out: Tensor, x: Tensor, dim, keepdim: bool) -> Tensor:
    """The derivative form of torch's ``prod_backward`` (complex takes it conjugated)."""
    if x.ndim == 0:
        return g
    if 0 in x.shape:     # (torch: the cotangent, expanded)
        return full(x, 0.0) + (g if dim is None or keepdim else unsqueeze(g, dim % x.ndim))
    if dim is not None and not keepdim:
        g, out = unsqueeze(g, dim % x.ndim), unsqueeze(out, dim % x.ndim)
    zeros = apply("sum", apply("eq", x, 0.0).to(out.dtype if not out.dtype.is_complex else
                                      out.dtype.real_dtype), axes=tuple(range(x.ndim)))
    some = apply("gt", zeros, 0.0)
    pruned = dim is None and not grad_mode.is_grad_enabled()

    def with_zeros(g, out, x):
        if dim is None:
            others = reshape(exclusive_products(reshape(x, (-1,)), 0), tuple(x.shape))
        else:
            others = exclusive_products(x, dim % x.ndim)
        safe = g * others
        return apply("where", apply("gt", zeros, 1.0), 0.0, safe) if pruned else safe

    if x.is_traced and sources.current() is not None:
        from ..control.loops import switch_cond   # (control imports this package)
        return switch_cond(some, with_zeros, lambda g, out, x: g * (out / x), (g, out, x))
    # (x where taken, 1 elsewhere: no 0/0 in a second derivative of the side not taken)
    return apply("where", some, with_zeros(g, out, x),
                 g * (out / apply("where", some, 1.0, x)))
