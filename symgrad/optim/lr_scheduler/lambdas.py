"""Schedules given by the user's functions of the epoch: ``LambdaLR`` (the initial lr times
``f(epoch)``) and ``MultiplicativeLR`` (the last lr times ``f(epoch)``).

Layer: front end (torch.optim mirror). Input: an optimizer and one function (or one per
parameter group). Output: the schedulers; their ``state_dict()`` keeps a callable object's
``__dict__`` in place of each function (a plain function or lambda is saved as ``None``), as
torch's does. It must not touch parameters.
"""

from __future__ import annotations

import types
from typing import Any
from collections.abc import Callable

from ..optimizer import Optimizer
from .base import LRScheduler


class _WithFunctions(LRScheduler):
    """A scheduler driven by ``lr_lambdas``, one per parameter group."""

    checks_callables = False

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable | list,
                 last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        groups = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != groups:
                raise ValueError(f"Expected {groups} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * groups
        for fn in self.lr_lambdas if self.checks_callables else ():
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got "
                                f"{type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer",
                                                                       "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType)
                               else fn.__dict__.copy() for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        saved = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = saved
        for fn, attrs in zip(self.lr_lambdas, saved):
            if attrs is not None:
                fn.__dict__.update(attrs)


class LambdaLR(_WithFunctions):
    """The initial lr times ``lr_lambda(epoch)``."""

    def get_lr(self) -> list:
        self.warn_outside_step()
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_WithFunctions):
    """The last lr times ``lr_lambda(epoch)`` (from the first step on)."""

    checks_callables = True

    def get_lr(self) -> list:
        self.warn_outside_step()
        if self._is_initial:
            return self.current()
        return [lr * fn(self.last_epoch) for fn, lr in zip(self.lr_lambdas, self.current())]
