"""Cyclical schedules: ``CyclicLR`` (triangular, triangular2, exp_range or the user's scale)
and ``OneCycleLR`` (warm up to ``max_lr``, anneal below the start, by cosine or linearly, in
two or three phases); both may cycle the momentum (SGD's ``momentum`` or Adam's ``beta1``)
the other way.

Layer: front end (torch.optim mirror). Input: an optimizer and the schedule's options.
Output: the schedulers, with torch's formulas in torch's order (so the Python floats equal
torch's); they set ``max_lr``/``min_lr``/``max_momentum``/``base_momentum`` in the parameter
groups as torch's do. It must not touch parameters.
"""

from __future__ import annotations

import math
import types
from typing import Any
from collections.abc import Callable

from ..optimizer import Optimizer
from .base import LRScheduler, per_group, set_group_value


def _momentum_groups(scheduler: LRScheduler, optimizer: Optimizer, base_momentum: Any,
                     max_momentum: Any, last_epoch: int) -> tuple[list, list]:
    """Check the optimizer has a momentum (or betas), set each group's to ``max_momentum``
    (with ``last_epoch == -1``); the base and max momentums per group."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                         "option enabled")
    scheduler.use_beta1 = "betas" in optimizer.defaults
    bases = per_group("base_momentum", optimizer, base_momentum)
    tops = per_group("max_momentum", optimizer, max_momentum)
    if last_epoch == -1:
        for top, base, group in zip(tops, bases, optimizer.param_groups):
            set_momentum(group, top, scheduler.use_beta1)
            group["max_momentum"] = top
            group["base_momentum"] = base
    return bases, tops


def set_momentum(group: dict, value: float, use_beta1: bool) -> None:
    """The group's momentum: ``betas[0]`` for Adam's kind, else ``momentum``."""
    if use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


class CyclicLR(LRScheduler):
    """Cycle between ``base_lr`` and ``max_lr`` (Smith's cyclical learning rates)."""

    def __init__(self, optimizer: Optimizer, base_lr: Any, max_lr: Any,
                 step_size_up: int = 2000, step_size_down: int | None = None,
                 mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Callable | None = None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum: Any = 0.8,
                 max_momentum: Any = 0.9, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                set_group_value(group, "lr", lr)
        self.max_lrs = per_group("max_lr", optimizer, max_lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = _momentum_groups(
                self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        """The built-in modes scale per cycle (triangular ones) or per iteration."""
        if self._scale_fn_custom is None and self.mode in ("triangular", "triangular2"):
            self.scale_mode = "cycle"
        elif self._scale_fn_custom is None and self.mode == "exp_range":
            self.scale_mode = "iterations"

    def scale_fn(self, x: float) -> float:
        """The amplitude's scale at cycle (or iteration) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self) -> list:
        self.warn_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base + (top - base) * scale_factor * scale
               for base, top in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, base, top in zip(self.optimizer.param_groups, self.base_momentums,
                                        self.max_momentums):
                set_momentum(group, top - (top - base) * scale_factor * scale,
                             self.use_beta1)
        return lrs

    def state_dict(self) -> dict:
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


def _phases(total_steps: int, pct_start: float, three_phase: bool) -> list[dict]:
    """OneCycleLR's phases: the last step of each and the group keys it anneals between."""
    def phase(end, start_lr, end_lr, start_momentum, end_momentum):
        return {"end_step": end, "start_lr": start_lr, "end_lr": end_lr,
                "start_momentum": start_momentum, "end_momentum": end_momentum}
    warm_up = phase(float(pct_start * total_steps) - 1, "initial_lr", "max_lr",
                    "max_momentum", "base_momentum")
    if not three_phase:
        return [warm_up, phase(total_steps - 1, "max_lr", "min_lr", "base_momentum",
                               "max_momentum")]
    return [warm_up,
            phase(float(2 * pct_start * total_steps) - 2, "max_lr", "initial_lr",
                  "base_momentum", "max_momentum"),
            phase(total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]


def _total_steps(total_steps: int | None, epochs: int | None,
                 steps_per_epoch: int | None) -> int:
    """``total_steps``, or ``epochs * steps_per_epoch``, checked as torch checks them."""
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is None or steps_per_epoch is None:
        raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
    if not isinstance(epochs, int) or epochs <= 0:
        raise ValueError(f"Expected positive integer epochs, but got {epochs}")
    if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
        raise ValueError(f"Expected positive integer steps_per_epoch, but got "
                         f"{steps_per_epoch}")
    return epochs * steps_per_epoch


def anneal(kind: str, start: float, end: float, pct: float) -> float:
    """From ``start`` (pct 0) to ``end`` (pct 1): half a cosine, or a straight line."""
    if kind == "cos":
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
    return (end - start) * pct + start


class OneCycleLR(LRScheduler):
    """The 1cycle policy (Smith and Topin): up to ``max_lr``, then far below the start."""

    def __init__(self, optimizer: Optimizer, max_lr: Any, total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None,
                 pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum: Any = 0.85,
                 max_momentum: Any = 0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _phases(self.total_steps, pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for top, group in zip(max_lrs, optimizer.param_groups):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _momentum_groups(self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _phase_of(self, step: int) -> tuple[dict, float]:
        """The phase ``step`` is in and how far through it (0 to 1)."""
        start = 0.0
        for i, phase in enumerate(self._schedule_phases):
            end = phase["end_step"]
            if step <= end or i == len(self._schedule_phases) - 1:
                return phase, (step - start) / (end - start)
            start = end
        raise AssertionError("unreachable: the last phase takes every step")

    def get_lr(self) -> list:
        self.warn_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total "
                             f"steps is {self.total_steps}")
        phase, pct = self._phase_of(step)
        lrs = []
        for group in self.optimizer.param_groups:
            lrs.append(anneal(self._anneal_func_type, group[phase["start_lr"]],
                              group[phase["end_lr"]], pct))
            if self.cycle_momentum:
                momentum = anneal(self._anneal_func_type, group[phase["start_momentum"]],
                                  group[phase["end_momentum"]], pct)
                set_momentum(group, momentum, self.use_beta1)
        return lrs
