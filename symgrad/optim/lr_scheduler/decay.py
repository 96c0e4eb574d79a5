"""Schedules that multiply the learning rate by fixed factors: ``StepLR``, ``MultiStepLR``,
``ExponentialLR``, ``ConstantLR``, ``LinearLR``, ``PolynomialLR``.

Layer: front end (torch.optim mirror). Input: an optimizer and the schedule's options.
Output: the schedulers; ``get_lr()`` is torch's chainable form (each epoch's rates from the
last ones, so the Python floats equal torch's), ``closed_form_lr()`` the closed form
``step(epoch)`` uses. It must not touch parameters.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable

from ..optimizer import Optimizer
from .base import LRScheduler


class StepLR(LRScheduler):
    """lr * gamma every ``step_size`` epochs."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self.current()
        return [lr * self.gamma for lr in self.current()]

    def closed_form_lr(self) -> list:
        return [base * self.gamma ** (self.last_epoch // self.step_size)
                for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr * gamma at each milestone (gamma ** k at a milestone listed k times)."""

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        if self.last_epoch not in self.milestones:
            return self.current()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self.current()]

    def closed_form_lr(self) -> list:
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base * self.gamma ** passed for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr * gamma every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        if self._is_initial:
            return self.current()
        return [lr * self.gamma for lr in self.current()]

    def closed_form_lr(self) -> list:
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """lr * factor for the first ``total_iters`` epochs, then lr."""

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in self.current()]
        if self.last_epoch != self.total_iters:
            return self.current()
        return [lr * (1.0 / self.factor) for lr in self.current()]

    def closed_form_lr(self) -> list:
        done = self.last_epoch >= self.total_iters
        return [base * (self.factor + done * (1 - self.factor)) for base in self.base_lrs]


class LinearLR(LRScheduler):
    """lr scaled by a factor going linearly from ``start_factor`` to ``end_factor`` over
    ``total_iters`` epochs."""

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 "
                             "and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in self.current()]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self.current()
        rise = self.end_factor - self.start_factor
        ratio = 1.0 + rise / (self.total_iters * self.start_factor
                              + (self.last_epoch - 1) * rise)
        return [lr * ratio for lr in self.current()]

    def closed_form_lr(self) -> list:
        rise = self.end_factor - self.start_factor
        return [base * (self.start_factor + rise * min(self.total_iters, self.last_epoch)
                        / self.total_iters) for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """lr * (1 - t / total_iters) ** power, reaching 0 at ``total_iters``."""

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self.warn_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self.current()
        n, t = self.total_iters, self.last_epoch
        factor = ((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power
        return [lr * factor for lr in self.current()]

    def closed_form_lr(self) -> list:
        left = 1.0 - min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * left ** self.power for base in self.base_lrs]
