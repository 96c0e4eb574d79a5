"""``torch.autograd.functional``: jacobian, hessian, vjp, jvp, hvp, vhp, run eagerly.

Layer: transforms (it builds on ``symgrad.transforms``; ``symgrad/__init__`` imports it, which
makes it the ``functional`` attribute of ``symgrad.autograd``). Input: torch's arguments: a
function of tensors, ``inputs`` (a tensor or a tuple of them), ``v``, ``create_graph``,
``strict``, ``vectorize``, ``strategy``. Output: torch's results, as symgrad tensors.

They run the same tensor-level transforms as the compiled ``symgrad.jacrev``/``jvp``/..., on
eager tensors: the Jacobian is always computed vectorized (one batched backward or forward
pass; ``vectorize=False`` gives the same numbers, so it is accepted and changes nothing).
Without ``create_graph`` the results are detached; with it they are differentiable with
respect to ``inputs``. ``strict=True`` raises, as torch does, when an output does not depend
on an input (where torch would return zeros).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..frontend.core import grad_mode
from ..frontend.core.apply import apply, as_tensor, full
from ..frontend.core.engine import differentiable, run_backward
from ..frontend.core.tensor import Tensor
from ..transforms.forward import jvp_call, vjp_call
from ..transforms.jacobians import hvp_call, jacfwd_call, jacrev_call

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _tuple(inputs: Any) -> tuple[tuple, bool]:
    """(inputs as a tuple of tensors, whether they were one tensor)."""
    if isinstance(inputs, (tuple, list)):
        return tuple(as_tensor(t) for t in inputs), False
    return (as_tensor(inputs),), True


def _untuple(values: tuple, single: bool):
    return values[0] if single else tuple(values)


def _finish(value: Any, create_graph: bool) -> Any:
    """Detach results unless ``create_graph`` (nested tuples of tensors)."""
    if isinstance(value, (tuple, list)):
        return type(value)(_finish(v, create_graph) for v in value)
    if isinstance(value, Tensor) and not create_graph:
        return value.detach()
    return value


def _stacked(value: Any) -> Any:
    """torch builds a Jacobian from its rows, stacked then viewed in the result's shape: with
    ``create_graph`` its grad_fn is ``ViewBackward0``, and so is ours."""
    if isinstance(value, (tuple, list)):
        return type(value)(_stacked(v) for v in value)
    if isinstance(value, Tensor) and value.requires_grad:
        return apply("reshape", value, shape_to=value.shape, _torch_name="ViewBackward0")
    return value


def _check_strict(func: Callable, inputs: tuple, what: str) -> None:
    """torch's ``strict=True``: every output depends on every input."""
    with grad_mode.enable_grad():
        xs = [differentiable(x) for x in inputs]
        out = func(*xs)
    outs, _ = _tuple(out)
    for k, o in enumerate(outs):
        if not o.requires_grad:
            raise RuntimeError(f"Output {k} of the user-provided function does not require "
                               f"gradients. The outputs must be computed in a differentiable "
                               f"manner from the input when running in strict mode.")
        with grad_mode.enable_grad():
            grads = run_backward([(o, full(o, 1.0))],
                                 retain_graph=True, create_graph=False, inputs=xs)
        for i, g in enumerate(grads):
            if g is None:
                raise RuntimeError(f"Output {k} of the user-provided function is independent "
                                   f"of input {i}. This is not allowed in strict mode{what}.")


def _inputs_and_v(func: Callable, inputs: Any, v: Any, strict: bool) -> tuple:
    """(inputs as a tuple, whether they were one tensor, ``v`` as a tuple: ones for a
    single one-element input when None, as torch allows)."""
    xs, single = _tuple(inputs)
    if strict:
        _check_strict(func, xs, "")
    if v is None:
        if any(x.numel() != 1 for x in xs):
            raise RuntimeError("The vector v can only be None if the input to the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        v = tuple(full(x, 1.0) for x in xs)
    return xs, single, _tuple(v)[0]


def vjp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False):
    """``(func(inputs), v^T J)``."""
    xs, single = _tuple(inputs)
    if strict:
        _check_strict(func, xs, "")
    out, vjp_fn = vjp_call(func, xs, False, "torch.autograd.functional.vjp")
    outs, out_single = _tuple(out)
    if v is None:
        if any(o.numel() != 1 for o in outs):
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
        v = tuple(full(o, 1.0) for o in outs)
    vs, _ = _tuple(v)
    cts = vjp_fn(_untuple(vs, out_single))
    return _finish(out, create_graph), _finish(_untuple(cts, single), create_graph)


def jvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False):
    """``(func(inputs), J v)``."""
    xs, single, vs = _inputs_and_v(func, inputs, v, strict)
    out, tangent = jvp_call(func, xs, vs, False, "torch.autograd.functional.jvp")
    return _finish(out, create_graph), _finish(tangent, create_graph)


def jacobian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """The Jacobian: a tensor ``out.shape + in.shape`` for one input and one output; a tuple
    over the inputs for a tuple of inputs; a tuple over the outputs of those for a tuple of
    outputs."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    xs, single = _tuple(inputs)
    if strict:
        _check_strict(func, xs, "")
    how = jacfwd_call if strategy == "forward-mode" else jacrev_call
    nums = 0 if single else tuple(range(len(xs)))
    jac = how(func, xs, nums, False, "torch.autograd.functional.jacobian")
    return _finish(_stacked(jac), create_graph)


def hessian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of a scalar function: ``in.shape + in.shape`` for one input, a tuple of
    tuples (``H[i][j]``: inputs ``i`` and ``j``) for a tuple of inputs."""
    xs, single = _tuple(inputs)
    if strict:
        _check_strict(func, xs, "")

    def scalar(*a):
        out = func(*a)
        if not (isinstance(out, Tensor) and out.numel() == 1):
            raise RuntimeError("The function given to hessian should return a single Tensor "
                               "with a single element")
        return out.reshape(())
    nums = 0 if single else tuple(range(len(xs)))

    def gradient(*a):
        return jacrev_call(scalar, a, nums, False, "torch.autograd.functional.hessian")
    outer = jacfwd_call if outer_jacobian_strategy == "forward-mode" else jacrev_call
    return _finish(_stacked(outer(gradient, xs, nums, False,
                                  "torch.autograd.functional.hessian")), create_graph)


def _hessian_product(func: Callable, inputs: Any, v: Any, create_graph: bool, strict: bool,
                     what: str):
    xs, single, vs = _inputs_and_v(func, inputs, v, strict)
    value, product = hvp_call(func, xs, vs, what)
    return _finish(value, create_graph), _finish(_untuple(product, single), create_graph)


def hvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False):
    """``(func(inputs), H v)``."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def vhp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False):
    """``(func(inputs), v^T H)`` (equal to ``H v``: the Hessian is symmetric)."""
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")
