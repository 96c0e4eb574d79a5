"""``gradcheck`` and ``gradgradcheck``: torch's finite-difference checks of a function's
backward (and of its backward's backward).

Layer: front end (torch.autograd mirror). Input: a function of tensors and its inputs (those
with ``requires_grad`` are checked), torch's tolerances. Output: True, or a ``GradcheckError``
(a ``RuntimeError``) naming the output and input whose Jacobians differ, with both printed
(False instead with ``raise_exception=False``).

The numerical Jacobian is by central differences of step ``eps`` on each input element, in the
input's dtype (float64 is what the check is meant for; other dtypes warn, as torch does); the
analytical one is one vector-Jacobian product per output element through
``autograd.grad``, so the engine is checked the way users run it. Eager tensors only.
"""

from __future__ import annotations

import warnings
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import dtypes
from ..frontend.core.tensor import Tensor
from .grad import grad as autograd_grad
from ..frontend.random.inplace import uniform_


class GradcheckError(RuntimeError):
    """A backward disagrees with finite differences (torch.autograd.gradcheck.GradcheckError)."""


def _outputs(func: Callable, inputs: tuple) -> list[Tensor]:
    out = func(*inputs)
    outs = [out] if isinstance(out, Tensor) else list(out)
    return [o for o in outs if isinstance(o, Tensor)]


def _checked_inputs(inputs: Any) -> tuple:
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of the them have requires_grad=True.")
    for i in diff:
        if inputs[i].dtype is not dtypes.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision "
                          f"floating point or complex. This check will likely fail if all the "
                          f"inputs are not of double precision floating point or complex. ",
                          stacklevel=3)
    return inputs, diff


def _numerical(func: Callable, inputs: tuple, i: int, eps: float) -> list[np.ndarray]:
    """d(output k)/d(input i) by central differences: one (n_in, n_out_k) array per output."""
    x = inputs[i].detach()._value
    columns: list[list[np.ndarray]] = []
    for j in np.ndindex(x.shape):
        values = []
        for step in (eps, -eps):
            moved = x.copy()
            moved[j] += step
            args = list(inputs)
            args[i] = Tensor(moved, None).requires_grad_()
            values.append([o.detach()._value for o in _outputs(func, tuple(args))])
        columns.append([(a - b).reshape(-1) / (2 * eps) for a, b in zip(*values)])
    n_out = len(columns[0]) if columns else 0
    return [np.array([c[k] for c in columns]).reshape(x.size, -1) for k in range(n_out)]


def _analytical(outs: list[Tensor], inputs: tuple, diff: list[int]) -> dict:
    """(output k, input i) -> the (n_in, n_out_k) Jacobian from vector-Jacobian products."""
    jac = {}
    for k, o in enumerate(outs):
        rows = {i: np.zeros((inputs[i].numel(), o.numel())) for i in diff}
        if o.requires_grad:
            for m in range(o.numel()):
                seed = np.zeros(o.shape, dtype=o.dtype.np)
                seed.reshape(-1)[m] = 1
                gs = autograd_grad(o, [inputs[i] for i in diff], Tensor(seed, None),
                                   retain_graph=True, allow_unused=True)
                for i, g in zip(diff, gs):
                    if g is not None:
                        rows[i][:, m] = g.detach()._value.reshape(-1)
        for i in diff:
            jac[k, i] = rows[i]
    return jac


def gradcheck(func: Callable, inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against central differences."""
    inputs, diff = _checked_inputs(inputs)
    outs = _outputs(func, inputs)
    jac = _analytical(outs, inputs, diff) if check_backward_ad else {}
    for i in diff:
        for k, numerical in enumerate(_numerical(func, inputs, i, eps)):
            analytical = jac.get((k, i))
            if analytical is None or np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                continue
            if not raise_exception:
                return False
            raise GradcheckError(f"Jacobian mismatch for output {k} with respect to input "
                                 f"{i},\nnumerical:{Tensor(numerical, None)}\n"
                                 f"analytical:{Tensor(analytical, None)}\n")
    return True


def gradgradcheck(func: Callable, inputs: Any, grad_outputs: Any = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False,
                  check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False) -> bool:
    """Check the second derivatives of ``func``: ``gradcheck`` of its vector-Jacobian product
    with respect to the inputs and the cotangents. Without ``grad_outputs``, the cotangents
    are uniform in [-1, 1), drawn from the global generator as torch draws them (its
    ``testing.make_tensor``): a program's later random numbers are torch's."""
    inputs, diff = _checked_inputs(inputs)
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        grad_outputs = tuple(uniform_(Tensor(np.empty(o.shape, o.dtype.np), None), -1.0, 1.0)
                             .requires_grad_() for o in outs if o.requires_grad)
    grad_outputs = (grad_outputs,) if isinstance(grad_outputs, Tensor) else tuple(grad_outputs)
    n = len(inputs)

    def vjp(*args):
        xs, gs = args[:n], args[n:]
        ys = [o for o in _outputs(func, xs) if o.requires_grad]
        grads = autograd_grad(ys, [xs[i] for i in diff], list(gs), create_graph=True,
                              allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(vjp, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
