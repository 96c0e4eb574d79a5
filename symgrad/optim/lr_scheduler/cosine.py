"""Cosine schedules: ``CosineAnnealingLR`` (down to ``eta_min`` over ``T_max`` epochs, and
back) and ``CosineAnnealingWarmRestarts`` (SGDR: restarts after ``T_0``, ``T_0 * T_mult``...
epochs).

Layer: front end (torch.optim mirror). Input: an optimizer and the schedule's options.
Output: the schedulers, with torch's formulas in torch's order (``CosineAnnealingLR`` is
recursive, from the last rates; the restarts' closed form, from the base rates), so the
Python floats equal torch's. It must not touch parameters.
"""

from __future__ import annotations

import math

from ..optimizer import Optimizer
from .base import LRScheduler, group_values, set_group_value


class CosineAnnealingLR(LRScheduler):
    """Cosine from the initial lr down to ``eta_min`` over ``T_max`` epochs (and back)."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        t, n, low = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return self.current()
        if self._step_count == 1 and t > 0:
            return [low + (base - low) * (1 + math.cos(t * math.pi / n)) / 2
                    for base in self.base_lrs]
        if (t - 1 - n) % (2 * n) == 0:
            return [lr + (base - low) * (1 - math.cos(math.pi / n)) / 2
                    for base, lr in zip(self.base_lrs, self.current())]
        return [(1 + math.cos(math.pi * t / n)) / (1 + math.cos(math.pi * (t - 1) / n))
                * (lr - low) + low for lr in self.current()]

    def closed_form_lr(self) -> list:
        low = self.eta_min
        return [low + (base - low) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_i`` epochs, ``T_i`` growing by ``T_mult``;
    ``step(epoch)`` may take a fractional epoch."""

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1,  # noqa: N803
                 eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        low = self.eta_min
        return [low + (base - low) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base in self.base_lrs]

    def _advance(self, epoch: float) -> None:
        """``T_cur`` and ``T_i`` at ``epoch``, found from the start."""
        if epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** n

    def step(self, epoch: float | None = None) -> None:
        """The next epoch (one more in this cycle, restarting at its end), or ``epoch``."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            self._advance(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            set_group_value(group, "lr", lr)
        self._last_lr = group_values(self.optimizer, "lr")
