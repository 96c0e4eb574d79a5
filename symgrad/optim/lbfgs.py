"""``LBFGS``: limited-memory BFGS over all parameters as one flat vector, with a fixed step
or a strong-Wolfe line search; ``step(closure)`` runs up to ``max_iter`` iterations.

Layer: front end (torch.optim mirror). Input: parameters (one group), torch's options and,
at each step, a closure that recomputes the loss and its gradients. Output: the optimizer;
``step`` follows torch's ``LBFGS.step`` iteration by iteration: the two-loop recursion over
the stored curvature pairs (kept when ``y.s > 1e-10``), the initial step ``min(1, 1 /
|g|_1) * lr`` at the first iteration, ``lr`` after, the stopping tests (gradient, function
evaluations, step and loss changes), torch's number types (0-d tensors here NumPy scalars of
the parameters' dtype, ``line_search.py``). Dot products and sums are NumPy's (BLAS,
``kernels.dot``); torch's (MKL, vectorized) may add in another order, so iterates agree to
rounding, not always bit for bit. A complex parameter counts as its real and imaginary
parts (torch's ``view_as_real`` in the flat gradient and the update). The state
(``func_evals``, ``n_iter``, ``d``, ``t``, ``old_dirs``, ``old_stps``, ``ro``, ``H_diag``,
``prev_flat_grad``, ``prev_loss``, ``al``) lives on the first parameter, as in torch. It
must not record autograd history.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Iterable

import numpy as np

from ..frontend.core.grad_mode import enable_grad
from ..frontend.core.tensor import Tensor
from . import kernels as K
from . import options as O
from .line_search import divide, strong_wolfe
from .optimizer import Optimizer

_KEYS = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss", "al")


def _wrap(value: Any) -> Any:
    """A NumPy value as the tensor torch's state holds (lists element by element)."""
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        return Tensor(np.array(value), None)
    return value


def _unwrap(value: Any) -> Any:
    """A state tensor (symgrad's or torch's) as the NumPy value the iteration uses."""
    if isinstance(value, list):
        return [_unwrap(v) for v in value]
    if value is None or isinstance(value, (int, float)):
        return value
    arr = np.array(np.asarray(value), copy=True)
    return arr[()] if arr.ndim == 0 else arr


class _Memory:
    """The curvature pairs and the two-loop recursion (torch's L-BFGS update)."""

    def __init__(self, state: dict) -> None:
        self.state = state
        for key in _KEYS:
            setattr(self, key, _unwrap(state.get(key)))

    def save(self) -> None:
        for key in _KEYS:
            if key != "al" or self.al is not None:
                self.state[key] = _wrap(getattr(self, key))

    def reset(self, flat_grad: np.ndarray) -> None:
        self.d = -flat_grad
        self.old_dirs, self.old_stps, self.ro = [], [], []
        self.H_diag = 1

    def update(self, flat_grad: np.ndarray, history_size: int) -> None:
        """Store the newest pair if its curvature is positive; the new direction."""
        y = flat_grad - self.prev_flat_grad
        s = self.d * K.scalar(self.t, self.d)
        ys = K.dot(y, s)
        if ys > 1e-10:
            if len(self.old_dirs) == history_size:
                self.old_dirs.pop(0)
                self.old_stps.pop(0)
                self.ro.pop(0)
            self.old_dirs.append(y)
            self.old_stps.append(s)
            self.ro.append(divide(1.0, ys))
            self.H_diag = ys / K.dot(y, y)
        if self.al is None:
            self.al = [None] * history_size
            self.state["al"] = None         # its place in the state's order, as torch's
        q = -flat_grad
        for i in range(len(self.old_dirs) - 1, -1, -1):
            self.al[i] = K.dot(self.old_stps[i], q) * self.ro[i]
            q = K.add_scaled(q, self.old_dirs[i], -self.al[i])
        r = q * self.H_diag
        for i in range(len(self.old_dirs)):
            be_i = K.dot(self.old_dirs[i], r) * self.ro[i]
            r = K.add_scaled(r, self.old_stps[i], self.al[i] - be_i)
        self.d = r


class LBFGS(Optimizer):
    """L-BFGS (``torch.optim.LBFGS``)."""

    def __init__(self, params: Iterable[Any], lr: float = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        O.nonnegative(("learning rate", lr))
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                    "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
                    "history_size": history_size, "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _gather_flat_grad(self) -> np.ndarray:
        views = []
        for p in self._params:
            value = K.real(K.array(p, "parameter"))
            if p._grad is None:
                views.append(np.zeros(value.size, value.dtype))
            else:
                views.append(K.real(K.array(p._grad, "gradient")).reshape(-1))
        return np.concatenate(views)

    def _add_grad(self, step_size: Any, update: np.ndarray) -> None:
        offset = 0
        for p in self._params:
            value = K.real(K.array(p, "parameter"))
            part = update[offset:offset + value.size].reshape(value.shape)
            K.write(p, K.add_scaled(value, part, step_size))
            offset += value.size

    def _evaluate(self, closure: Callable) -> float:
        with enable_grad():
            return float(closure())

    def _directional_evaluate(self, closure: Callable, x: list, t: Any,
                              d: np.ndarray) -> tuple:
        self._add_grad(t, d)
        loss = self._evaluate(closure)
        flat_grad = self._gather_flat_grad()
        for p, value in zip(self._params, x):
            K.write(p, value)
        return loss, flat_grad

    def _move(self, closure: Callable, mem: _Memory, at: tuple, last: bool) -> tuple:
        """Step along ``mem.d`` (a line search, or the fixed step); ``(loss, flat_grad,
        evaluations, optimal)``."""
        group = self.param_groups[0]
        loss, flat_grad, gtd, current = at
        if group["line_search_fn"] is not None:
            if group["line_search_fn"] != "strong_wolfe":
                raise RuntimeError("only 'strong_wolfe' is supported")
            x_init = [np.array(K.array(p, "parameter"), copy=True) for p in self._params]
            evaluate = lambda x, t, d: self._directional_evaluate(closure, x, t, d)
            loss, flat_grad, mem.t, evals = strong_wolfe(
                evaluate, x_init, mem.t, mem.d, loss, flat_grad, gtd,
                max_ls=group["max_eval"] - current)
            self._add_grad(mem.t, mem.d)
            return loss, flat_grad, evals, np.abs(flat_grad).max() <= group["tolerance_grad"]
        self._add_grad(mem.t, mem.d)
        if last:
            return loss, flat_grad, 0, False
        loss = self._evaluate(closure)
        flat_grad = self._gather_flat_grad()
        return loss, flat_grad, 1, np.abs(flat_grad).max() <= group["tolerance_grad"]

    def _direction(self, mem: _Memory, state: dict, flat_grad: np.ndarray,
                   loss: float) -> None:
        """The search direction and initial step of this iteration."""
        group = self.param_groups[0]
        if state["n_iter"] == 1:
            mem.reset(flat_grad)
            mem.t = min(1.0, divide(1.0, K.abs_sum(flat_grad))) * group["lr"]
        else:
            mem.update(flat_grad, group["history_size"])
            mem.t = group["lr"]
        mem.prev_flat_grad = flat_grad.copy()
        mem.prev_loss = loss

    def step(self, closure: Callable) -> Any:
        """Up to ``max_iter`` L-BFGS iterations; the closure's first loss."""
        group = self.param_groups[0]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with enable_grad():
            orig_loss = closure()
        loss = float(orig_loss)
        current = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if np.abs(flat_grad).max() <= group["tolerance_grad"]:
            return orig_loss
        mem = _Memory(state)
        n_iter = 0
        while n_iter < group["max_iter"]:
            n_iter += 1
            state["n_iter"] += 1
            self._direction(mem, state, flat_grad, loss)
            gtd = K.dot(flat_grad, mem.d)
            if gtd > -group["tolerance_change"]:
                break
            loss, flat_grad, evals, optimal = self._move(
                closure, mem, (loss, flat_grad, gtd, current), n_iter == group["max_iter"])
            current += evals
            state["func_evals"] += evals
            if n_iter == group["max_iter"] or current >= group["max_eval"] or optimal:
                break
            if np.abs(mem.d * K.scalar(mem.t, mem.d)).max() <= group["tolerance_change"]:
                break
            if abs(loss - mem.prev_loss) < group["tolerance_change"]:
                break
        mem.save()
        return orig_loss
