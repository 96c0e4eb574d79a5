"""``grad`` and ``value_and_grad``: compiled functions that return gradients.

Layer: api. Input: a Python function (or a compiled one, or a transform of one). Output: a
``CompiledFunction`` whose body runs the function on differentiable leaves and the autograd
engine from its scalar output, so that at trace time the gradients are graph nodes of the same
trace. The body also returns the function's own output as the trace's forward outputs (what
``symgrad.inspect`` shows as the traced IR, before the adjoint). Transforms compose:
``grad(grad(f))`` differentiates the inner transform's body, and the forward is ``f``'s.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from ..frontend.core import grad_mode
from ..frontend.core.apply import as_tensor, full
from ..frontend.core.engine import differentiable, run_backward
from ..frontend.control.rolling import rolled
from ..frontend.core.tensor import Tensor
from ..pytree import flatten, unflatten
from ..tracing import param_names
from ..transforms.forward import split_aux
from .compiled import CompiledFunction


def _leaf(t, where: str) -> Tensor:
    """A tensor to differentiate with respect to, sharing ``t``'s value or node."""
    t = as_tensor(t) if not isinstance(t, Tensor) else t
    if not t.dtype.is_differentiable:
        raise TypeError(f"grad requires floating point inputs: argument {where} must be "
                        f"float32 or float64 to be differentiated, got {t.dtype.name}; cast it "
                        f"to a float dtype or leave it out of argnums (complex64 and "
                        f"complex128 are differentiated too)")
    return differentiable(t)


def _traceable(fn: Callable) -> Callable:
    """``fn`` as a function returning ``(result, forward outputs or None)``."""
    if isinstance(fn, CompiledFunction):
        return fn.traceable

    @functools.wraps(fn)
    def plain(*args, **kwargs):
        return fn(*args, **kwargs), None
    return plain


def _value_and_grad(fn: Callable, argnums, has_aux: bool, name: str, named: Callable):
    """The traceable body of ``value_and_grad(fn)``: ``((value, grads), forward)``.
    ``named``: the user's function, whose parameters name the leaves in errors."""
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    inner = _traceable(fn)

    def body(*args, **kwargs):
        args = list(args)
        for i in nums:
            if i >= len(args):
                raise TypeError(f"{name}: argnums={argnums!r} but only {len(args)} positional "
                                f"arguments were passed")
        diff_leaves, trees = [], []
        names = param_names(named, len(args))
        for i in nums:
            paths: list = []
            leaves, tree = flatten(args[i], names[i], paths)
            leaves = [_leaf(v, f"{p} (argnums={argnums!r})") for v, p in zip(leaves, paths)]
            args[i] = unflatten(tree, leaves)
            diff_leaves.append(leaves)
            trees.append(tree)
        with grad_mode.enable_grad():
            out, forward = inner(*args, **kwargs)
        out, aux = split_aux(out, has_aux, name)
        out = as_tensor(out)
        if out.numel() != 1 or not out.dtype.is_floating:
            raise TypeError(f"grad of {name} requires a real scalar output (a one-element "
                            f"float tensor), got shape {tuple(out.shape)} and dtype "
                            f"{out.dtype.name}; "
                            f"reduce it (e.g. .sum()) or use out.backward(gradient)")
        flat = [t for group in diff_leaves for t in group]
        if not has_aux:   # (an aux output would keep the unrolled forward alive)
            again = rolled(out, flat)
            out = out if again is None else again
        grads = run_backward([(out, full(out, 1.0))], retain_graph=True, create_graph=True,
                             inputs=flat) if out.requires_grad else [None] * len(flat)
        # The gradient of an output that does not depend on a leaf: zeros.
        grads = [g if g is not None else full(t, 0.0) for g, t in zip(grads, flat)]
        grouped, k = [], 0
        for leaves, tree in zip(diff_leaves, trees):
            grouped.append(unflatten(tree, grads[k:k + len(leaves)]))
            k += len(leaves)
        value = (out, aux) if has_aux else out
        return (value, grouped[0] if single else tuple(grouped)), forward or [out]
    return body


def _transform(fn: Callable, maker, label: str, argnums, has_aux: bool, fast_math: bool,
               select: Callable) -> CompiledFunction:
    """A compiled function whose traceable body is ``select`` of value_and_grad's."""
    named = fn.fn if isinstance(fn, CompiledFunction) else fn
    name = getattr(named, "__name__", "fn")
    vg = _value_and_grad(fn, argnums, has_aux, name, named)

    @functools.wraps(named)   # (its signature names the arguments in messages)
    def traceable(*args, **kwargs):
        result, forward = vg(*args, **kwargs)
        return select(result), forward

    def body(*args, **kwargs):
        return traceable(*args, **kwargs)[0]
    functools.update_wrapper(body, named)
    body.__name__ = f"{label}_{name}"
    # A compiled function's options hold for its transforms too (static arguments, shape-
    # generic dims, guards, fast math).
    options = fn.options() if isinstance(fn, CompiledFunction) else {}
    options["fast_math"] = fast_math or options.get("fast_math", False)
    cf = CompiledFunction(body, name=f"{label}_{name}", traceable=traceable, **options)
    # What the transform is made from again after pickling: the user's function, or ``fn``
    # itself when it is already a transform (``grad(grad(f))``).
    source = fn.fn if isinstance(fn, CompiledFunction) and fn.recipe[0] is None else fn
    cf.recipe = (maker, source, argnums, has_aux)
    return cf


def value_and_grad(fn: Callable, argnums: int | Sequence[int] = 0,
                   has_aux: bool = False, fast_math: bool = False) -> CompiledFunction:
    """A compiled function returning ``(fn(*args), d fn / d args[argnums])``.

    ``fast_math`` as in ``compile`` (graph rewrites only; the C stays IEEE)."""
    return _transform(fn, value_and_grad, "value_and_grad", argnums, has_aux, fast_math,
                      lambda result: result)


def grad(fn: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
         fast_math: bool = False) -> CompiledFunction:
    """A compiled function returning ``d fn / d args[argnums]`` (and aux with ``has_aux``).

    ``fast_math`` as in ``compile`` (graph rewrites only; the C stays IEEE)."""
    def select(result):
        value, g = result
        return (g, value[1]) if has_aux else g
    return _transform(fn, grad, "grad", argnums, has_aux, fast_math, select)


def grad_and_value(fn: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
                   fast_math: bool = False) -> CompiledFunction:
    """torch.func's ``grad_and_value``: ``(gradients, fn(*args))``, and with ``has_aux``
    ``(gradients, (output, aux))``."""
    return _transform(fn, grad_and_value, "grad_and_value", argnums, has_aux, fast_math,
                      lambda result: (result[1], result[0]))
